import Foundation
import LeadStore

/// What `leadport status` shows of each sync job: whether a run holds it now, where its
/// watermark stands, and its last runs by destination.
public struct SyncStatus {
    public var name: String
    public var running: Bool
    /// Nil for a job never read from a table, and for every job of a shared ledger (each
    /// destination of a worker-run job has its own).
    public var watermark: TableExport.Watermark?
    public var destinations: [Destination]

    public struct Destination {
        /// As the configuration names it, credentials masked.
        public var to: String
        /// Its runs, the latest first.
        public var runs: [LeadStore.SyncRun]
    }

    /// From a SQLite ledger (nil when none exists yet): the configuration's jobs, else every job
    /// the ledger has runs of; `runs` of each at most.
    public static func read(configuration: SyncConfig?, store: LeadStore?, ledger path: String, runs: Int) throws -> [SyncStatus] {
        let names = try configuration?.jobs.map(\.name) ?? store?.syncJobs() ?? []
        return try names.map { name in
            let state = try store?.syncState(job: name) ?? [:]
            let history = try store?.syncRuns(job: name, limit: max(1, runs)) ?? []
            let configured = configuration?.jobs.first { $0.name == name }
            // (written: as the configuration names it; to: as the runs recorded it.)
            let destinations = configured.map { Array(zip($0.written, $0.to)) } ?? Array(Set(history.map(\.destination))).sorted().map { ($0, $0) }
            return SyncStatus(name: name, running: JobLock.isHeld(path: JobLock.path(ledger: path, job: name)),
                              watermark: state["watermark"].flatMap(TableExport.Watermark.init(text:)),
                              destinations: destinations.map { destination, resolved in
                                  // A destination's runs are recorded under its name as the import gives it.
                                  Destination(to: SyncDestination.shown(destination),
                                              runs: history.filter { $0.destination == resolved || SyncDestination.same($0.destination, resolved) })
                              })
        }
    }

    /// From the shared ledger of `sync --worker`: running when a worker holds one of the job's
    /// claims under a live lease.
    public static func read(configuration: SyncConfig, shared: SharedLedger, runs: Int) throws -> [SyncStatus] {
        try configuration.jobs.map { job in
            let history = try shared.runs(job: job.name, limit: max(1, runs))
            return SyncStatus(name: job.name, running: try shared.running(job: job.name), watermark: nil, destinations: job.to.map { destination in
                Destination(to: SyncDestination.shown(destination),
                            runs: Array(history.filter { $0.destination == destination || SyncDestination.same($0.destination, destination) }.prefix(max(1, runs))))
            })
        }
    }
}
