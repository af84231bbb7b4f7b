import LeadCore

extension FollowUpBossDestination: WarningDestination {
    /// Live events start the action plans and automations of Follow Up Boss for each new
    /// person: right for new inquiries, not for a cold owner list or an old one.
    public func warnings(fields: Set<LeadField>, announce: Bool) -> [DestinationWarning] {
        guard announce, mapping.timing == .live else { return [] }
        return [DestinationWarning(code: "live_events", message: "\(name): each new person goes to Follow Up Boss as a live \(mapping.eventType) event, "
                                   + "which starts its action plans and automations as for a new inquiry: for a cold or old list, set FUB_HISTORICAL to a date more than two days old "
                                   + "(FUB_HISTORICAL=2024-01-31, or historical: in the mapping's destinations.followupboss) to send them as history (docs/destinations.md, Follow Up Boss)")]
    }
}
