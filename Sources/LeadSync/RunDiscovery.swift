import Foundation
import LeadConnectors
import LeadStore

/// Where `leadport undo` finds a run: the ledger, or with a sync configuration its ledger and
/// each job's `sqlite:` destination (a sync job into sqlite:FILE keeps its runs in that file).
public enum RunDiscovery {
    /// The SQLite files a run may be recorded in, the ledger first.
    /// - Throws: `SyncError` for a shared PostgreSQL ledger, whose workers' runs cannot be undone.
    public static func candidates(ledger: String, configuration: SyncConfig?, configPath: String?) throws -> [String] {
        if ledger.hasPrefix("postgres") {
            throw SyncError(message: "--ledger takes a SQLite file; a shared PostgreSQL ledger is named in a sync configuration (--config), and the runs of workers cannot be undone in this version")
        }
        if configuration?.shared != nil {
            throw SyncError(message: "\(configPath ?? "") keeps its ledger in PostgreSQL for sync --worker: the runs of workers cannot be undone in this version (their history stays on the worker)")
        }
        var candidates = [configuration?.ledger ?? ledger]
        for job in configuration?.jobs ?? [] {
            for value in job.to { if let path = (try? DestinationRegistry.parse(value))?.embeddedPath, !candidates.contains(path) { candidates.append(path) } }
        }
        return candidates
    }

    /// The first of `candidates` that exists and holds the run, open; nil when none does.
    /// A sync's ledger that lists the run among its jobs' runs (as `leadport status` shows
    /// it) but does not hold it leads on to the files of the job's `sqlite:` destinations,
    /// where a job into sqlite:FILE records its runs: `undo` finds a run wherever `status` does.
    /// - Returns: the file and its store, and `syncLedger`, the file that listed the run among
    ///   its jobs' runs (where those jobs' state is) when that is another file.
    public static func find(_ runID: String, in candidates: [String]) throws -> (path: String, store: LeadStore, syncLedger: String?)? {
        var candidates = candidates
        var syncLedger: String?
        var k = 0
        while k < candidates.count {
            let path = candidates[k]
            k += 1
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let opened = try LeadStore(path: path)
            if try opened.hasRun(runID) { return (path, opened, syncLedger) }
            for value in try opened.syncRunDestinations(runID) {
                syncLedger = syncLedger ?? path
                if let file = (try? DestinationRegistry.parse(value))?.embeddedPath, !candidates.contains(file) { candidates.append(file) }
            }
            try opened.close()
        }
        return nil
    }

    /// After an undo: the sync jobs that made the run read their sources whole next time (a file
    /// they had delivered, and the rows before their watermark, would otherwise not be sent
    /// again). Their state is in the configuration's ledger, else in the run's own store.
    /// - Returns: the jobs reset.
    public static func resetJobs(of runID: String, store: LeadStore, path: String, configuration: SyncConfig?, syncLedger: String? = nil) throws -> [String] {
        let statePath = configuration?.ledger ?? syncLedger ?? path
        guard statePath != path else { return try store.resetSyncState(run: runID) }
        let stateStore = try LeadStore(path: statePath)
        defer { try? stateStore.close() }
        return try stateStore.resetSyncState(run: runID)
    }
}
