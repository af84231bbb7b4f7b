import ArgumentParser
import Foundation
import HTTPKit
import LeadEngine

/// One job of `leadport sync`: its lock, its inputs (files changed since it last delivered
/// them whole, the table's rows after its watermark), an import of them to its destinations,
/// and then its state moved on only past what every destination took or finally rejected.
struct SyncJobRun {
    let job: SyncConfig.Job
    let configuration: SyncConfig
    let progress: Import.ProgressStyle
    /// After each commit of the run's ledger (`sync --worker`: copied to the shared one).
    var afterCommit: (() throws -> Void)? = nil

    struct Result {
        var name: String
        var status: Int32
        var runID: String?
        var message: String?
        var destinations: [LeadStore.SyncRun] = []

        var json: String {
            var o = JSONObject()
            o.set("name", name)
            o.set("status", Int(status))
            o.set("run_id", runID)
            o.set("message", message)
            o.set("destinations", json: "[" + destinations.map(SyncJobRun.json).joined(separator: ",") + "]")
            return o.text
        }
    }

    static func json(_ run: LeadStore.SyncRun) -> String {
        var o = JSONObject()
        o.set("to", run.destination)
        o.set("pending", run.pending)
        for outcome in [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed] { o.set(outcome.rawValue, run.counts[outcome] ?? 0) }
        o.set("failures", json: JSONText.array(run.failures))
        o.set("stopped", run.stopped)
        return o.text
    }

    static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    /// An error as people read it (ArgumentParser's errors by their message).
    static func describe(_ error: any Error) -> String {
        String(describing: type(of: error)).hasPrefix("CommandError") ? Import.message(for: error) : "\(error)"
    }

    /// Outcomes a row is done with at a destination: the next run need not send it again.
    static let final: Set<Outcome> = [.created, .updated, .unchanged, .skipped, .rejected]

    func run() -> Result {
        var result = Result(name: job.name, status: 0)
        do {
            try FileManager.default.createDirectory(atPath: configuration.logs + "/" + job.name, withIntermediateDirectories: true)
            let lockPath = JobLock.path(ledger: configuration.ledger, job: job.name)
            guard let lock = try JobLock(path: lockPath) else {
                result.status = Sync.alreadyRunning
                result.message = "already running (\(JobLock.holder(path: lockPath) ?? "another sync holds its lock")); nothing was done: this run leaves it to that one"
                return result
            }
            defer { lock.release() }
            try deliver(&result)
        } catch let exit as ExitCode {
            result.status = exit.rawValue
        } catch {
            result.status = (error as? any Classified).map { ExitStatus.status(for: $0.disposition) } ?? (error is ValidationError ? ExitStatus.usage : ExitStatus.failed)
            result.message = Sync.oneLine(KnownSecrets.redact(Self.describe(error)))
            // A run that failed before its destinations answered is shown by `status` too.
            if result.destinations.isEmpty {
                let runID = result.runID ?? UUID().uuidString.lowercased()
                result.runID = runID
                result.destinations = job.to.map { LeadStore.SyncRun(runID: runID, job: job.name, destination: Status.shown($0), started: Self.iso(Date()), seconds: 0,
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
            if found.isEmpty { ExitStatus.printError("leadport: \(job.name): files: \(pattern) names no file (nothing to read there tonight)") }
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
            result.destinations = job.to.map { LeadStore.SyncRun(runID: runID, job: job.name, destination: Status.shown($0), started: Self.iso(started), seconds: 0, counts: [:], pending: 0, failures: [], stopped: nil) }
            try store.recordSyncRun(result.destinations)
            return
        }
        var arguments = inputs + ["--ledger", configuration.ledger, "--progress", progress.rawValue]
        for destination in job.to { arguments += ["--to", destination] }
        for list in job.exclude { arguments += ["--exclude", list] }
        if job.strictFields { arguments.append("--strict-fields") }
        for (option, value) in [("--preset", job.preset), ("--mapping", job.mapping), ("--enrich", job.enrich), ("--campaign", job.campaign), ("--user", job.user), ("--region", job.region)] {
            if let value { arguments += [option, value] }
        }
        let command: Import
        do { command = try Import.parse(arguments) } catch {
            // The import's own check of the job's options (two sqlite: destinations…), said plainly.
            throw SyncError(message: Import.message(for: error))
        }
        let log = try RotatingLog(path: folder + "/events.log")
        defer { log.close() }
        let style: Import.ProgressStyle = progress == .auto ? (isatty(2) != 0 ? .bar : .plain) : progress
        let reporter = ProgressReporter(style: style)
        reporter.log = log
        reporter.job = job.name
        let tally = Tally()
        let (summary, problem) = try command.perform(applying: nil, observe: tally.observe, reporter: reporter, afterCommit: afterCommit)
        result.runID = summary.runID
        let seconds = Date().timeIntervalSince(started)
        result.destinations = summary.destinations.map { d in
            LeadStore.SyncRun(runID: summary.runID, job: job.name, destination: d.name, started: Self.iso(started), seconds: seconds, counts: d.counts,
                              pending: tally.unfinished[d.name] ?? 0, failures: tally.failures[d.name] ?? [],
                              stopped: d.stopped.map { Sync.oneLine(KnownSecrets.redact("\($0)")) })
        }
        var moved: [String: String?] = [:]
        for (file, digest) in digests where !tally.unfinishedFiles.contains(file) { moved["file:" + file] = digest }
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
                if !SyncJobRun.final.contains(r.outcome) {
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

/// One run of a job at a time (issue 15 item 2): an exclusive flock(2) on the job's lock file,
/// let go when the process ends however it ends (a killed run holds nothing).
final class JobLock {
    private let descriptor: Int32

    /// nil when another process holds it.
    init?(path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ValidationError("cannot open the job's lock \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(fd)
            return nil
        }
        descriptor = fd
        let holder = "pid \(getpid()) since \(SyncJobRun.iso(Date()))"
        _ = ftruncate(fd, 0)
        _ = holder.withCString { write(fd, $0, strlen($0)) }
    }

    func release() {
        _ = ftruncate(descriptor, 0)
        _ = flock(descriptor, LOCK_UN)
        Glibc.close(descriptor)
    }

    /// A job's lock: beside the ledger, which every run of the job shares.
    static func path(ledger: String, job: String) -> String { ledger + ".sync-" + job + ".lock" }

    /// Whether a run holds the lock now (without taking it).
    static func isHeld(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return true }
        _ = flock(fd, LOCK_UN)
        return false
    }

    /// Who holds the lock, as it wrote itself there.
    static func holder(path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A job's JSON-lines log: rotated whenever it grows past 5 MiB, at a run's start or in its
/// middle (five old ones kept: events.log.1 … .5), readable by its owner alone.
final class RotatingLog: @unchecked Sendable {
    static let limit = 5 << 20
    private let path: String
    private var handle: FileHandle
    private var size: Int

    init(path: String) throws {
        self.path = path
        (handle, size) = try Self.open(path)
        if size > Self.limit { try rotate() }
    }

    private static func open(_ path: String) throws -> (FileHandle, Int) {
        let files = FileManager.default
        if !files.fileExists(atPath: path) { _ = files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw ValidationError("cannot write the job's log \(path)") }
        return (handle, Int(try handle.seekToEnd()))
    }

    private func rotate() throws {
        try? handle.close()
        let files = FileManager.default
        try? files.removeItem(atPath: path + ".5")
        for k in stride(from: 4, through: 1, by: -1) { try? files.moveItem(atPath: path + ".\(k)", toPath: path + ".\(k + 1)") }
        try files.moveItem(atPath: path, toPath: path + ".1")
        (handle, size) = try Self.open(path)
    }

    /// Called one event at a time (the reporter's lock).
    func write(_ line: String) {
        let data = Data(line.utf8)
        if size + data.count > Self.limit, size > 0 { try? rotate() }
        try? handle.write(contentsOf: data)
        size += data.count
    }

    func close() { try? handle.close() }
}
