import LeadCore

/// A destination of several whose settings are missing or refused as it opens (no
/// `HUBSPOT_TOKEN`, a PostgreSQL server that cannot be reached): it stops alone, at its first
/// batch, with the error it met, so the other destinations still get every row and its rows
/// stay pending for the next run (docs/destinations.md, "Several destinations").
public final class UnopenedDestination: Destination {
    public let name: String
    public let ledgerName: String
    public let capabilities = DestinationCapabilities(largestBatch: 1_000, requests: 1, per: 1, upserts: true)
    public let error: any Error
    /// It writes nothing, so nothing of it can be unknown.
    public let reconciliation = Reconciliation.resend(how: "nothing is sent: the destination did not open")

    public init(target: DestinationRegistry.Target, error: any Error) {
        // A hook's URL may carry a token in its query: the name keeps the host and path.
        let value = target.kind == "webhook" ? String(target.display.prefix { $0 != "?" }) : target.display
        name = value
        ledgerName = "unopened:" + value
        self.error = error
    }

    public var kind: String { String(name.prefix { $0 != ":" }) }

    /// The mapping's section for it is not checked: the destination is not there to honour it.
    public func configure(_ policy: DestinationPolicy) throws {}

    public func prepare(_ leads: inout [OutboundLead]) throws { throw error }

    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer { throw error }

    public var encoder: @Sendable (Lead) -> Encoded { { _ in Encoded(hash: "") } }
}
