import Crypto
import Foundation
import LeadCore

/// A contact's properties as HubSpot receives them: internal property names to non-blank
/// values. Blank values are never held, so a blank cell can never clear what is in HubSpot
/// (HubSpot clears a property sent as "").
public struct HubSpotContactPayload: Sendable, Equatable {
    public private(set) var properties: [String: String]

    /// `properties` with blank values (empty or whitespace) dropped and the rest trimmed.
    public init(properties: [String: String] = [:]) {
        self.properties = [:]
        for (name, value) in properties { self[name] = value }
    }

    /// A property's value; setting nil or a blank value removes it.
    public subscript(_ name: String) -> String? {
        get { properties[name] }
        set {
            let trimmed = newValue?.trimmingCharacters(in: .whitespacesAndNewlines)
            properties[name] = (trimmed?.isEmpty ?? true) ? nil : trimmed
        }
    }

    public var email: String? { properties["email"] }
    public var isEmpty: Bool { properties.isEmpty }

    /// The properties as a JSON object with keys in byte order, the exact text sent inside
    /// every write (`{"properties": …}`): the engine hashes these bytes, so a change to any
    /// value sent is a change of hash and nothing else is.
    public var canonicalJSON: Data { Data(canonicalText.utf8) }

    var canonicalText: String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (n, name) in properties.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONText.appendQuoted(properties[name]!, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// SHA-256 of `canonicalJSON`, in hex.
    public var hash: String {
        SHA256.hash(data: canonicalJSON).map { String(format: "%02x", $0) }.joined()
    }
}

/// What a mapping says about HubSpot beyond the standard fields.
public struct HubSpotMapping: Sendable, Equatable {
    /// Custom (or extra standard) property names → the header of the lead's unmapped column
    /// that fills it (`["lead_import_key": "Row ID", "property_type": "Type"]`). A custom
    /// property overrides a standard one of the same name.
    public var customProperties: [String: String]
    /// The property the lead's notes go to: HubSpot has no standard notes property on a contact
    /// (notes are engagements), so notes are sent only where the mapping names one.
    public var notesProperty: String?
    /// A `lifecyclestage` for every lead (`lead`, `subscriber`; the account's internal value).
    public var lifecycleStage: String?
    /// A custom property with unique values (`hasUniqueValue`) that contacts without an email
    /// are upserted by, one of `customProperties`: sent twice, such a write updates instead of
    /// creating again, without a search first.
    public var idProperty: String?

    public init(customProperties: [String: String] = [:], notesProperty: String? = nil, lifecycleStage: String? = nil, idProperty: String? = nil) {
        (self.customProperties, self.notesProperty, self.lifecycleStage, self.idProperty) = (customProperties, notesProperty, lifecycleStage, idProperty)
    }
}

extension HubSpotContactPayload {
    /// The contact HubSpot gets for `lead`; pure.
    ///
    /// | property | from |
    /// | --- | --- |
    /// | `firstname` | given and middle names (`& second given name` for a household, `John, Mary & Robert` for three owners) |
    /// | `lastname` | family name |
    /// | `email` | email |
    /// | `phone`, `mobilephone` | phone, mobile (E.164, as normalised; the phone's extension after ` ext. `) |
    /// | `address` | delivery line (`123 N MAIN ST APT 4`) |
    /// | `city`, `state`, `zip`, `country` | the address's parts (`zip` with its +4 when known) |
    /// | `company` | company, else the organisation an owner is (`Acme Properties LLC`) |
    /// | `hs_lead_status` | status, as one of HubSpot's default options (`hot` → `IN_PROGRESS`: `leadStatus`), else its internal value (`In progress` → `IN_PROGRESS`) |
    /// | `lifecyclestage` | `mapping.lifecycleStage` |
    /// | `mapping.notesProperty` | notes |
    /// | each of `mapping.customProperties` | the named column's cell |
    ///
    /// Blank values are left out.
    public init(lead: Lead, mapping: HubSpotMapping = HubSpotMapping()) {
        self.init()
        var first = [lead.givenName, lead.middleName].compactMap { $0 }.joined(separator: " ")
        if lead.household {
            // A contact's first name holds the owners of its family name (`John & Mary` Smith);
            // an owner of another family (`BROWN JAMES & JONES PATRICIA`) is not named Brown.
            func sameFamily(_ family: String?) -> Bool { family == nil || family == lead.familyName }
            let others = lead.otherOwners.filter { sameFamily($0.family) }.map(\.given)
            first = Salutation.list([Optional(first)] + (sameFamily(lead.secondFamilyName) ? [lead.secondGivenName] : []) + others)
        }
        self["firstname"] = first
        self["lastname"] = lead.familyName
        self["email"] = lead.email
        self["phone"] = lead.phoneWithExtension
        self["mobilephone"] = lead.mobile
        self["company"] = lead.company ?? lead.organization
        let address = lead.address
        self["address"] = address.deliveryLine
        self["city"] = address.city
        self["state"] = address.state
        self["zip"] = address.postalCode.map { code in address.zip4.map { code + "-" + $0 } ?? code }
        self["country"] = address.country
        self["hs_lead_status"] = lead.status.map(Self.leadStatus)
        self["lifecyclestage"] = mapping.lifecycleStage
        if let notes = mapping.notesProperty { self[notes] = lead.notes }
        for (property, header) in mapping.customProperties {
            let cell = lead.extras.first { $0.header == header } ?? lead.extras.first { $0.header.caseInsensitiveCompare(header) == .orderedSame }
            self[property] = cell?.value
        }
    }

    /// `In progress` → `IN_PROGRESS`: HubSpot's enumeration values are internal names; a value
    /// the account does not offer comes back as that row's `INVALID_OPTION`.
    static func enumerationValue(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).uppercased().map { $0 == " " || $0 == "-" ? "_" : $0 }.reduce(into: "") { $0.append($1) }
    }
}

/// A contact as HubSpot holds it.
public struct HubSpotContact: Sendable, Equatable {
    public var id: String
    /// The properties asked for (HubSpot answers every value as a string; unset ones are absent).
    public var properties: [String: String]
    public var updatedAt: String?

    public init(id: String, properties: [String: String], updatedAt: String? = nil) {
        (self.id, self.properties, self.updatedAt) = (id, properties, updatedAt)
    }

    init?(json: Any) {
        guard let object = json as? [String: Any], let id = object["id"].map({ "\($0)" }) else { return nil }
        let raw = object["properties"] as? [String: Any] ?? [:]
        self.init(id: id, properties: raw.compactMapValues { $0 is NSNull ? nil : "\($0)" }, updatedAt: object["updatedAt"] as? String)
    }
}

/// One input's answer to a batch write, in the inputs' order.
public enum HubSpotWriteResult: Sendable, Equatable {
    case created(id: String)
    case updated(id: String)
    /// A create found the email (or another unique value) taken by this contact (409
    /// `CONFLICT` "Existing ID: n"): nothing was created; the caller may update `id`.
    case existing(id: String)
    case rejected(HubSpotRejection)

    /// The contact's id, unless rejected.
    public var id: String? {
        switch self {
        case .created(let id), .updated(let id), .existing(let id): return id
        case .rejected: return nil
        }
    }
}

/// One update of a known contact.
public struct HubSpotUpdate: Sendable, Equatable {
    /// HubSpot's record id (or the `idProperty` value the update is keyed by).
    public var id: String
    public var payload: HubSpotContactPayload

    public init(id: String, payload: HubSpotContactPayload) { (self.id, self.payload) = (id, payload) }
}

/// What identifies a contact that has no email: a phone and a name. Searching needs the phone
/// or both names.
public struct HubSpotMatch: Sendable, Equatable {
    public var phone: String?
    public var firstName: String?
    public var lastName: String?
    /// The phone as the payload writes it when that is not the number alone (`+15551234567 ext. 22`):
    /// searched for beside the number, since HubSpot's search compares the text.
    public var phoneAsSent: String?

    public init(phone: String? = nil, firstName: String? = nil, lastName: String? = nil) {
        func blankless(_ s: String?) -> String? { s.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } }
        (self.phone, self.firstName, self.lastName) = (blankless(phone), blankless(firstName), blankless(lastName))
    }

    /// The match for a payload's `phone` (or `mobilephone`), `firstname` and `lastname`.
    public init(_ payload: HubSpotContactPayload) {
        self.init(phone: payload["phone"].map(PhoneText.number) ?? payload["mobilephone"], firstName: payload["firstname"], lastName: payload["lastname"])
        if let sent = payload["phone"], sent != phone { phoneAsSent = sent }
    }

    /// The texts a contact's phone may hold for this match: the number, and as sent.
    public var phoneValues: [String] { [phone, phoneAsSent].compactMap { $0 } }

    public var isSearchable: Bool { phone != nil || (firstName != nil && lastName != nil) }
}

/// The account's daily request budget (`/account-info/v3/api-usage/daily/private-apps`).
public struct HubSpotDailyUsage: Sendable, Equatable {
    public var limit: Int
    public var used: Int
    /// When the count starts again: midnight in the account's time zone.
    public var resetsAt: Date?

    public var remaining: Int { max(0, limit - used) }
}
