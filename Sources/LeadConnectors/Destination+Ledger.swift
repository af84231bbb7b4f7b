import LeadStore

/// The defaults for a destination with a ledger of its own elsewhere: only one written in the
/// ledger's transaction (`writesWithLedger`: the embedded database) uses the run's store.
extension Destination {
    public func attach(_ store: LeadStore, dryRun: Bool) {}
    public func inScope(_ remoteIDs: [String]) throws -> Set<String>? { nil }
}
