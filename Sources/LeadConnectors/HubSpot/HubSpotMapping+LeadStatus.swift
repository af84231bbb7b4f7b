/// A lead's status as one of the options of HubSpot's `hs_lead_status` in a new account
/// (crm-apis.md §1.7: `NEW`, `OPEN`, `IN_PROGRESS`, `OPEN_DEAL`, `UNQUALIFIED`,
/// `ATTEMPTED_TO_CONTACT`, `CONNECTED`, `BAD_TIMING`), so that the statuses the shipped presets
/// read reach the default schema (HubSpot refused `HOT`, and with it 73% of a
/// nightly sync's contacts):
///
/// | status (any case, spaces, `-` or `_`) | from | `hs_lead_status` |
/// | --- | --- | --- |
/// | `new` | FLYR | `NEW` |
/// | `hot` | FLYR: keen, being worked | `IN_PROGRESS` |
/// | `warm` | FLYR: interested, to follow up | `OPEN` |
/// | `cold` | FLYR: not now | `BAD_TIMING` |
/// | `Lead`, `Prospect`, `Active Client`, `Past Client`, `Sphere`, `Unresponsive`, `Trash` | Follow Up Boss stages | `NEW`, `OPEN`, `IN_PROGRESS`, `CONNECTED`, `CONNECTED`, `ATTEMPTED_TO_CONTACT`, `UNQUALIFIED` |
/// | `subscriber`, `lead`, `marketingqualifiedlead`, `salesqualifiedlead`, `opportunity`, `customer`, `evangelist` | HubSpot lifecycle stages | `NEW`, `NEW`, `OPEN`, `OPEN`, `OPEN_DEAL`, `CONNECTED`, `CONNECTED` |
/// | anything else | | its internal-name form (`In progress` → `IN_PROGRESS`): an option of its own, or HubSpot refuses it and the contact is written without it |
extension HubSpotContactPayload {
    static let leadStatuses: [String: String] = [
        "new": "NEW", "hot": "IN_PROGRESS", "warm": "OPEN", "cold": "BAD_TIMING",
        "lead": "NEW", "prospect": "OPEN", "activeclient": "IN_PROGRESS", "pastclient": "CONNECTED", "sphere": "CONNECTED",
        "unresponsive": "ATTEMPTED_TO_CONTACT", "trash": "UNQUALIFIED",
        "subscriber": "NEW", "marketingqualifiedlead": "OPEN", "salesqualifiedlead": "OPEN", "opportunity": "OPEN_DEAL",
        "customer": "CONNECTED", "evangelist": "CONNECTED",
    ]

    /// `status` as an `hs_lead_status` option (the table above).
    static func leadStatus(_ status: String) -> String {
        let key = String(status.lowercased().filter { $0.isLetter || $0.isNumber })
        return leadStatuses[key] ?? enumerationValue(status)
    }
}
