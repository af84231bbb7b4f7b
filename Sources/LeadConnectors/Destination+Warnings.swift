import LeadCore

/// What a destination has to say before a run sends to it: what it will do that a person
/// would not expect (live events that start action plans), or what of the list it cannot
/// take (a column with no place there). Said once a run, on stderr and as a `warning` event.
public struct DestinationWarning: Sendable, Equatable {
    /// `live_events`, `field_not_sent`.
    public var code: String
    /// In LeadPort's voice, without the `leadport: ` before it: what, where, what to do.
    public var message: String

    public init(code: String, message: String) {
        (self.code, self.message) = (code, message)
    }
}

/// Destinations that have something to say implement `warnings`; the others say nothing.
public protocol WarningDestination {
    /// - Parameters:
    ///   - fields: the lead fields the list's columns fill.
    ///   - announce: a dry run, or the first run to this destination (its ledger is empty).
    func warnings(fields: Set<LeadField>, announce: Bool) -> [DestinationWarning]
}
