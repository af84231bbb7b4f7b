import Foundation
import HTTPKit
import LeadEngine

/// `leadport sync --worker` (issue 15 item 6): claims (job, destination) pairs from the shared
/// PostgreSQL ledger one at a time, runs each against a SQLite ledger of its own filled from
/// the shared one, copies what it records back after every commit, and goes on until every
/// pair of the configuration has been done since it started (waiting while other workers hold
/// the rest; taking over any whose worker's lease ran out).
struct SyncWorker {
    let configuration: SyncConfig
    let jobs: [SyncConfig.Job]
    let progress: Import.ProgressStyle

    func run(shared: SharedLedger) throws -> [SyncJobRun.Result] {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        let holder = String(cString: host) + ":" + String(getpid()) + ":" + UUID().uuidString.prefix(8)
        let since = SyncJobRun.iso(Date())
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
        var results: [SyncJobRun.Result] = []
        while true {
            let (claim, remaining) = try shared.claim(holder: holder, since: since, lease: configuration.leaseSeconds, among: pairs)
            guard let claim else {
                if remaining == 0 { break }
                // Others hold the rest: wait for them to finish, or for a lease to run out.
                Thread.sleep(forTimeInterval: 1)
                continue
            }
            guard let job = jobs.first(where: { $0.name == claim.job }) else { continue }
            let renewal = Renewal(shared: shared, claim: claim, holder: holder, lease: configuration.leaseSeconds)
            let result = try runClaim(job, destination: claim.destination, shared: shared, holder: holder)
            renewal.stop()
            try shared.finish(job: claim.job, destination: claim.destination, holder: holder)
            if let message = result.message { ExitStatus.printError("leadport: \(job.name) → \(claim.destination): \(message)") }
            results.append(result)
        }
        return results
    }

    /// One claim: the job, to this destination alone, with a ledger of its own.
    private func runClaim(_ job: SyncConfig.Job, destination: String, shared: SharedLedger, holder: String) throws -> SyncJobRun.Result {
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
        try shared.hydrate(destination: opened.ledgerName, into: store)
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
            try shared.push(rows)
            if let latest = rows.compactMap({ $0[8] }).max() { copied.value = latest }
        }
        let result = SyncJobRun(job: one, configuration: mine, progress: progress, afterCommit: push).run()
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

    /// Renews a claim's lease every third of it while the claim is worked on; a lease lost
    /// (the worker stalled past it and another took the claim) ends this worker at once, before
    /// it could send anything the other will.
    final class Renewal: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)

        init(shared: SharedLedger, claim: (job: String, destination: String), holder: String, lease: Int) {
            let thread = Thread { [done, finished] in
                while done.wait(timeout: .now() + .milliseconds(lease * 1000 / 3)) == .timedOut {
                    let kept = (try? shared.renew(job: claim.job, destination: claim.destination, holder: holder, lease: lease)) ?? false
                    if !kept {
                        ExitStatus.printError("leadport: the lease of \(claim.job) → \(claim.destination) was lost to another worker; stopping")
                        _exit(ExitStatus.failed)
                    }
                }
                finished.signal()
            }
            thread.start()
        }

        func stop() {
            done.signal()
            finished.wait()
        }
    }
}
