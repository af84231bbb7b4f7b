import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadEngine
import LeadStore

/// `leadport sync --worker`: claims (job, destination) pairs from the shared PostgreSQL ledger
/// one at a time, runs each against a SQLite ledger of its own filled from the shared one,
/// copies what it records back after every commit, and goes on until every pair of the
/// configuration has been done since it started (waiting while other workers hold the rest;
/// taking over any whose worker's lease ran out).
public struct SyncWorker {
    public let configuration: SyncConfig
    public let jobs: [SyncConfig.Job]
    public let context: SyncJob.Context
    /// What the worker waits on between claims.
    public var clock: any HTTPClock = SystemClock()

    public init(configuration: SyncConfig, jobs: [SyncConfig.Job], context: SyncJob.Context) {
        (self.configuration, self.jobs, self.context) = (configuration, jobs, context)
    }

    /// What the worker did: each claim's run, and the claim whose lease it lost (another worker
    /// took it over), after which it stopped.
    public struct Outcome {
        public var results: [SyncJob.Result] = []
        public var lostLease: (job: String, destination: String)?
    }

    public func run(shared: SharedLedger) throws -> Outcome {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        let holder = String(cString: host) + ":" + String(getpid()) + ":" + UUID().uuidString.prefix(8)
        let since = SyncJob.iso(Date())
        var pairs: [(job: String, destination: String)] = []
        for job in jobs {
            for destination in job.to {
                if (try? DestinationRegistry.parse(destination))?.embeddedPath != nil {
                    throw SyncError(message: "\(job.name): a sqlite: destination is a file on one machine, which workers elsewhere cannot write; give workers shared destinations")
                }
                pairs.append((job.name, destination))
            }
        }
        try shared.seed(pairs)
        var outcome = Outcome()
        while true {
            let (claim, remaining) = try shared.claim(holder: holder, since: since, lease: configuration.leaseSeconds, among: pairs)
            guard let claim else {
                if remaining == 0 { break }
                // Others hold the rest: wait for them to finish, or for a lease to run out.
                clock.sleep(1)
                continue
            }
            guard let job = jobs.first(where: { $0.name == claim.job }) else { continue }
            let renewal = LeaseRenewal(board: shared, claim: claim, holder: holder, lease: configuration.leaseSeconds)
            let result = try runClaim(job, destination: claim.destination, shared: shared, holder: holder, renewal: renewal)
            renewal.stop()
            if renewal.lost {
                // Another worker has the pair now: it sends what this one did not get to.
                outcome.lostLease = claim
                return outcome
            }
            try shared.finish(job: claim.job, destination: claim.destination, holder: holder)
            if let message = result.message { context.warn("leadport: \(job.name) → \(claim.destination): \(message)") }
            outcome.results.append(result)
        }
        return outcome
    }

    /// One claim: the job, to this destination alone, with a ledger of its own.
    private func runClaim(_ job: SyncConfig.Job, destination: String, shared: SharedLedger, holder: String, renewal: LeaseRenewal) throws -> SyncJob.Result {
        let folder = configuration.logs + "/" + job.name + "/worker-" + FileDigest.text(holder).prefix(12)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let local = folder + "/ledger.db"
        // The destination as the ledger knows it.
        let target = try DestinationRegistry.parse(destination)
        guard let opened = try DestinationRegistry.open(target, settings: try Settings.load(), onRetry: { _ in }) else {
            throw SyncError(message: "\(destination) cannot be shared by workers")
        }
        let store = try LeadStore(path: local)
        defer { try? store.close() }
        try store.loadLedger(try shared.ledgerRows(destination: opened.ledgerName))
        // The job's state for this destination alone: each pair moves at its own pace.
        let key = job.name + "\u{1F}" + destination
        try store.setSyncState(job: job.name, try shared.state(key: key).mapValues { Optional($0) })
        var mine = configuration
        mine.ledger = local
        var one = job
        (one.to, one.written) = ([destination], [destination])
        // What was recorded since the last copy (a commit's rows share its moment: the last
        // commit's are copied again, harmlessly).
        let copied = Mark(LeadStore.timestamp())
        let push = {
            let rows = try store.ledgerRows(since: copied.value)
            try shared.loadLedger(rows)
            if let latest = rows.compactMap(\.updatedAt).max() { copied.value = latest }
        }
        // A lease lost ends the run at its next commit, once what it sent is shared.
        let result = SyncJob(job: one, configuration: mine, context: context, afterCommit: {
            try push()
            if renewal.lost { throw SyncError(message: "the lease of \(job.name) → \(destination) was lost to another worker", disposition: .terminal) }
        }).run()
        try push()
        try shared.setState(key: key, try store.syncState(job: job.name))
        try shared.recordRuns(result.destinations)
        return result
    }

    /// Where the copying of a claim's ledger has got to.
    final class Mark: @unchecked Sendable {
        var value: String
        init(_ value: String) { self.value = value }
    }
}
