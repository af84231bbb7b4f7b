import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadEngine
import LeadStore

#if canImport(Glibc)
import Glibc
#endif

/// One job of `leadport sync`: its lock, its inputs (files changed since it last delivered
/// them whole, the table's rows after its watermark), an import of them to its destinations
/// (one `ImportRequest`), and then its state moved on only past what every destination took or
/// finally rejected.
public struct SyncJob {
    public let job: SyncConfig.Job
    public let configuration: SyncConfig
    public let context: Context
    /// After each commit of the run's ledger (`sync --worker`: copied to the shared one).
    public var afterCommit: (() throws -> Void)?

    /// What a job's run takes from the program around it.
    public struct Context {
        /// What built the rules (`ImportOptions.buildIdentity`).
        public var build: String
        /// Whether the import counts its rows first (something shows the total).
        public var countsRows: Bool
        /// Where a run's progress events go, given the job's log (which should get each one too) and name.
        public var reporter: (RotatingLog, String) -> @Sendable (ProgressEvent) -> Void
        /// Notes and problems for people, one line each.
        public var warn: (String) -> Void

        public init(build: String, countsRows: Bool, reporter: @escaping (RotatingLog, String) -> @Sendable (ProgressEvent) -> Void, warn: @escaping (String) -> Void) {
            (self.build, self.countsRows, self.reporter, self.warn) = (build, countsRows, reporter, warn)
        }
    }

    public init(job: SyncConfig.Job, configuration: SyncConfig, context: Context, afterCommit: (() throws -> Void)? = nil) {
        (self.job, self.configuration, self.context, self.afterCommit) = (job, configuration, context, afterCommit)
    }

    /// How a job's run ended.
    public struct Result: Sendable {
        public var name: String
        /// Its exit status (`ExitStatus`): 4 when another run held the job.
        public var status: Int32
        public var runID: String?
        public var message: String?
        public var destinations: [LeadStore.SyncRun] = []
    }

    public static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    /// A message on one line, its runs of white space (libpq's tabs and newlines) as one space.
    public static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Outcomes a row is done with at a destination: the next run need not send it again.
    static let final: Set<Outcome> = [.created, .updated, .unchanged, .skipped, .rejected]

    /// The import the job's inputs go through: the same value `leadport import` builds.
    func request(inputs: [String]) -> ImportRequest {
        var request = ImportRequest(files: inputs)
        request.ledger = configuration.ledger
        request.destinations = job.to
        request.exclude = job.exclude
        request.strictFields = job.strictFields
        (request.preset, request.mapping, request.enrich) = (job.preset, job.mapping, job.enrich)
        (request.campaign, request.user, request.region) = (job.campaign, job.user, job.region)
        // A file left empty tonight is delivered whole (it has no rows): the job goes on. One
        // that cannot be planned is held back, and the others delivered: it is taken again
        // every night until it can be (a mapping that fits it), and the job's status says so.
        request.emptyListsAllowed = true
        request.unplannedListsHeldBack = true
        return request
    }

    /// Runs the job once; never throws: what went wrong is in the result's status and message.
    public func run() -> Result {
        var result = Result(name: job.name, status: 0)
        do {
            try FileManager.default.createDirectory(atPath: configuration.logs + "/" + job.name, withIntermediateDirectories: true)
            let lockPath = JobLock.path(ledger: configuration.ledger, job: job.name)
            guard let lock = try JobLock(path: lockPath) else {
                result.status = ExitStatus.alreadyRunning
                result.message = "already running (\(JobLock.holder(path: lockPath) ?? "another sync holds its lock")); nothing was done: this run leaves it to that one"
                return result
            }
            defer { lock.release() }
            try deliver(&result)
        } catch let finished as FinishedWithStatus {
            result.status = finished.status
        } catch {
            result.status = (error as? any Classified).map { ExitStatus.status(for: $0.disposition) } ?? ExitStatus.failed
            result.message = Self.oneLine(KnownSecrets.redact("\(error)"))
            // A run that failed before its destinations answered is shown by `status` too.
            if result.destinations.isEmpty {
                let runID = result.runID ?? UUID().uuidString.lowercased()
                result.runID = runID
                result.destinations = job.to.map { LeadStore.SyncRun(runID: runID, job: job.name, destination: SyncDestination.shown($0), started: Self.iso(Date()), seconds: 0,
                                                                    counts: [:], pending: 0, failures: [], stopped: result.message) }
                if let store = try? LeadStore(path: configuration.ledger) {
                    try? store.recordSyncRun(result.destinations)
                    try? store.close()
                }
            }
        }
        return result
    }

    private func deliver(_ result: inout Result) throws {
        let store = try LeadStore(path: configuration.ledger)
        defer { try? store.close() }
        let state = try store.syncState(job: job.name)
        // What the job sends to: a change of it sends everything again (the ledger still knows
        // what each destination has, and passes over what it has as it is).
        let destinations = job.to.sorted().joined(separator: "\n")
        var inputs: [String] = []
        var digests: [String: String] = [:]
        for pattern in job.files {
            let found = Self.glob(pattern)
            if found.isEmpty { context.warn("leadport: \(job.name): files: \(pattern) names no file (nothing to read there tonight)") }
            for file in found {
                let digest = try FileDigest.sha256(path: file) + "|" + FileDigest.text(destinations)
                guard state["file:" + file] != digest else { continue }
                digests[file] = digest
                inputs.append(file)
            }
        }
        let folder = configuration.logs + "/" + job.name
        var table: (csv: String, keys: String, rows: Int)?
        if let source = job.table {
            let csv = folder + "/table.csv", keys = folder + "/table.keys"
            let marked = state["watermark"].flatMap { text -> TableExport.Watermark? in
                guard state["watermark_to"] == FileDigest.text(destinations) else { return nil }
                return TableExport.Watermark(text: text)
            }
            let rows = try TableExport(source: source).write(after: marked, csv: csv, keys: keys)
            // The rows are people's contact details: for the owner's eyes only.
            for file in [csv, keys] { chmod(file, 0o600) }
            if rows > 0 {
                table = (csv, keys, rows)
                inputs.append(csv)
            }
        }
        let started = Date()
        guard !inputs.isEmpty else {
            // Nothing new: the run is recorded, with nothing done.
            let runID = UUID().uuidString.lowercased()
            result.runID = runID
            result.destinations = job.to.map { LeadStore.SyncRun(runID: runID, job: job.name, destination: SyncDestination.shown($0), started: Self.iso(started), seconds: 0, counts: [:], pending: 0, failures: [], stopped: nil) }
            try store.recordSyncRun(result.destinations)
            return
        }
        let request = request(inputs: inputs)
        // The import's own check of the job's options (two sqlite: destinations…), said plainly.
        do { try request.validate() } catch let error as ImportRequestError { throw SyncError(message: error.message) }
        let log = try RotatingLog(path: folder + "/events.log")
        defer { log.close() }
        let report = context.reporter(log, job.name)
        let tally = Tally()
        let (summary, problem) = try request.perform(build: context.build, countsRows: context.countsRows, onEvent: { event in
            tally.observe(event)
            report(event)
        }, afterCommit: afterCommit, warn: context.warn)
        result.runID = summary.runID
        let seconds = Date().timeIntervalSince(started)
        result.destinations = summary.destinations.map { d in
            LeadStore.SyncRun(runID: summary.runID, job: job.name, destination: d.name, started: Self.iso(started), seconds: seconds, counts: d.counts,
                              pending: tally.unfinished[d.name] ?? 0, failures: tally.failures[d.name] ?? [],
                              stopped: d.stopped.map { Self.oneLine(KnownSecrets.redact("\($0)")) })
        }
        var moved: [String: String?] = [:]
        let heldBack = Set(summary.heldBack.map(\.file))
        for (file, digest) in digests where !tally.unfinishedFiles.contains(file) && !heldBack.contains(file) { moved["file:" + file] = digest }
        if let table {
            // Up to the row before the first one some destination has yet to take.
            let through = tally.firstUnfinished[table.csv].map { $0 - 1 } ?? table.rows
            if through > 0, let mark = try TableExport.watermark(keys: table.keys, through: through) {
                moved["watermark"] = mark.text
                moved["watermark_to"] = FileDigest.text(destinations)
            }
        }
        try store.setSyncState(job: job.name, moved)
        try store.recordSyncRun(result.destinations)
        // A list held back is the gravest problem (a usage one: it needs a mapping), named
        // with why; the rest of the night's rows were delivered.
        if !summary.heldBack.isEmpty {
            let lists = summary.heldBack.map { "\($0.reason): held back" }.joined(separator: "; ")
            throw SyncError(message: lists + "; the job's other lists were delivered")
        }
        if let problem { throw problem }
    }

    /// Each row's outcomes as the import gives them: which rows some destination has yet to take.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        /// By destination: rows pending or failed there, and some of the rows it rejected or failed, with why.
        var unfinished: [String: Int] = [:]
        var failures: [String: [String]] = [:]
        var unfinishedFiles: Set<String> = []
        /// By file: the first record (1-based, after the header) some destination has yet to take.
        var firstUnfinished: [String: Int] = [:]

        func observe(_ event: ProgressEvent) {
            guard case .row(let r) = event else { return }
            lock.withLock {
                if !SyncJob.final.contains(r.outcome) {
                    unfinished[r.destination, default: 0] += 1
                    unfinishedFiles.insert(r.location.file)
                    firstUnfinished[r.location.file] = min(firstUnfinished[r.location.file] ?? .max, r.location.recordIndex)
                }
                if r.outcome == .rejected || r.outcome == .failed, (failures[r.destination]?.count ?? 0) < 20 {
                    failures[r.destination, default: []].append("row \(r.location.row) of \(r.location.file): \(r.outcome.rawValue): \(r.reason ?? "")")
                }
            }
        }
    }

    /// The files a pattern names, sorted: a glob, or a folder (its CSV and XLSX files).
    static func glob(_ pattern: String) -> [String] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: pattern, isDirectory: &isFolder), isFolder.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: pattern)) ?? []
            return names.filter { ["csv", "xlsx"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted().map { pattern + "/" + $0 }
        }
        var found = glob_t()
        defer { globfree(&found) }
        guard Glibc.glob(pattern, 0, nil, &found) == 0 else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }
}

/// A sync that cannot run as asked (an unknown job, --worker): by default a usage error (exit 2).
public struct SyncError: Error, CustomStringConvertible, Classified {
    public var message: String
    public var disposition: FailureDisposition = .usage
    public var description: String { message }

    public init(message: String, disposition: FailureDisposition = .usage) { (self.message, self.disposition) = (message, disposition) }
}
