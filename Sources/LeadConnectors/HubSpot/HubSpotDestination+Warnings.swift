import LeadCore

extension HubSpotDestination: WarningDestination {
    /// Notes without `HUBSPOT_NOTES_PROPERTY` go nowhere: a HubSpot contact has no notes
    /// property of its own.
    public func warnings(fields: Set<LeadField>, announce: Bool) -> [DestinationWarning] {
        guard fields.contains(.notes), mapping.notesProperty == nil else { return [] }
        return [DestinationWarning(code: "field_not_sent", message: "\(name): the list's notes are not sent to HubSpot, whose contacts have no notes property: "
                                   + "set HUBSPOT_NOTES_PROPERTY to a contact property's internal name (as in lead_notes) to send them (docs/destinations.md, HubSpot)")]
    }
}
