import ArgumentParser
import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadEngine
import LeadStore
import LeadSync

/// `leadport status`: each sync job's destinations, their last runs, rows pending, where the
/// watermark stands, and whether a run is going on now; then the ledger's last imports (and
/// undos), each with its run id for `leadport undo`.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each sync job's last runs by destination, rows pending, watermark, and whether it is running now; then the last imports, with their run ids.",
        discussion: "The ledger is found through --config (the sync configuration's ledger:) or --ledger (default leadport.db). `leadport undo RUN_ID` takes the same options and finds every run listed here."
    )

    @Option(help: ArgumentHelp("The sync configuration whose jobs to show.", valueName: "sync.yaml"))
    var config: String?

    @OptionGroup var ledger: LedgerOptions

    @Option(help: ArgumentHelp("Runs of each job to show (default 1), and imports (default 10).", valueName: "n"))
    var runs: Int?

    @Flag(help: "Print JSON: {\"jobs\": [{\"name\", \"running\", \"watermark\", \"destinations\": [{\"to\", \"pending\", \"last_run\": {…}, \"runs\": […]}]}], \"imports\": [{\"run_id\", \"kind\", \"started\", …}]}.")
    var json = false

    /// Imports listed when `--runs` does not say.
    static let defaultImports = 10

    func run() throws {
        var configuration = try config.map { try SyncConfig.load(path: $0, expanding: false) }
        // A shared ledger is reached through its URL, which may take a variable.
        if let config, configuration?.shared?.contains("$") == true {
            configuration = try SyncConfig.load(path: config, environment: try Settings.load().values)
        }
        if let configuration, let url = configuration.shared {
            return try showShared(configuration, url: url)
        }
        if configuration == nil, ledger.ledger.hasPrefix("postgres") {
            throw ValidationError("a shared PostgreSQL ledger is read through its sync configuration: give --config sync.yaml")
        }
        let path = configuration?.ledger ?? ledger.ledger
        // Without a ledger no job has run yet: with a configuration, its jobs are shown so.
        let exists = FileManager.default.fileExists(atPath: path)
        guard exists || configuration != nil else {
            throw SyncError(message: "\(path): no ledger here: no import or sync has run with it yet (give --config sync.yaml or --ledger FILE)")
        }
        let store = exists ? try LeadStore(path: path) : nil
        defer { try? store?.close() }
        let jobs = try SyncStatus.read(configuration: configuration, store: store, ledger: path, runs: runs ?? 1)
        let imports = try store?.importRuns(limit: max(1, runs ?? Self.defaultImports)) ?? []
        if !json && jobs.isEmpty && imports.isEmpty { return try StandardOutput.shared.write("no sync job or import has run with \(path)\n") }
        try show(jobs, failures: true, imports: imports, ledger: path)
    }

    /// With `ledger: postgres://…`: each job's runs by destination from the shared ledger, and
    /// whether a worker holds one of its claims now.
    private func showShared(_ configuration: SyncConfig, url: String) throws {
        try show(try SyncStatus.read(configuration: configuration, shared: try SharedLedger(url: url), runs: runs ?? 1), failures: false, imports: [], ledger: url)
    }

    /// The jobs and imports as JSON (`--json`) or lines; `failures`: the first few rows each
    /// job's run rejected or failed.
    private func show(_ jobs: [SyncStatus], failures: Bool, imports: [LeadStore.ImportRunRecord], ledger: String) throws {
        var objects: [String] = []
        var lines: [String] = []
        for job in jobs {
            var o = JSONObject()
            o.set("name", job.name)
            o.set("running", job.running)
            if let watermark = job.watermark {
                var w = JSONObject()
                w.set("updated", watermark.updated)
                w.set("id", watermark.id)
                o.set("watermark", json: w.text)
            } else {
                o.set("watermark", json: "null")
            }
            lines.append("\(job.name): \(job.running ? "running now" : "not running")" + (job.watermark.map { "; watermark \($0.updated), id \($0.id)" } ?? ""))
            var entries: [String] = []
            for destination in job.destinations {
                let own = destination.runs
                var d = JSONObject()
                d.set("to", destination.to)
                d.set("pending", own.first?.pending ?? 0)
                d.set("last_run", json: own.first.map(Self.json) ?? "null")
                d.set("runs", json: "[" + own.map(Self.json).joined(separator: ",") + "]")
                entries.append(d.text)
                if own.isEmpty { lines.append("  \(destination.to): no run yet") }
                for (n, shown) in own.prefix(max(1, runs ?? 1)).enumerated() {
                    let counts = [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed].map { "\($0.rawValue) \(shown.counts[$0] ?? 0)" }.joined(separator: ", ")
                    lines.append("  \(destination.to): \(n == 0 ? "last run" : "run") \(shown.started) (\(String(format: "%.1f", shown.seconds)) s, \(shown.runID)): \(counts); pending \(shown.pending)"
                                 + (shown.stopped.map { "; stopped: \($0)" } ?? ""))
                    if failures { for failure in shown.failures.prefix(5) { lines.append("    \(failure)") } }
                }
            }
            o.set("destinations", json: "[" + entries.joined(separator: ",") + "]")
            objects.append(o.text)
        }
        if !imports.isEmpty { lines.append("imports recorded in \(ledger), newest first:") }
        for run in imports { lines += Self.lines(run) }
        try StandardOutput.shared.write(json ? "{\"jobs\":[" + objects.joined(separator: ",") + "],\"imports\":[" + imports.map(Self.json).joined(separator: ",") + "]}\n"
                                        : lines.joined(separator: "\n") + "\n")
    }

    /// An import as text: its run id first (for `leadport undo`), when and what, then each
    /// destination's counts (a run recorded before they were kept: the totals).
    static func lines(_ run: LeadStore.ImportRunRecord) -> [String] {
        let what = run.kind == "undo" ? run.inputs.joined() : run.inputs.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        let rows = run.rows.map { " " + numbered($0, "row") } ?? ""
        var lines = ["  \(run.runID) \(run.started)\(run.finished == nil ? " (not finished)" : ""): \(what)\(rows)"]
        let counts = { (c: [Outcome: Int]) in
            Outcome.allCases.filter { $0 != .pending || (c[$0] ?? 0) > 0 }.map { "\($0.rawValue) \(c[$0] ?? 0)" }.joined(separator: ", ")
        }
        if run.kind == "import" && !run.byDestination.isEmpty {
            for d in run.byDestination { lines.append("    \(d.to): \(counts(d.counts))") }
        } else if run.finished != nil {
            lines.append("    \(run.destinations.isEmpty ? "" : run.destinations.joined(separator: ", ") + ": ")\(counts(run.counts))")
        }
        return lines
    }

    static func json(_ run: LeadStore.ImportRunRecord) -> String {
        var o = JSONObject()
        o.set("run_id", run.runID)
        o.set("kind", run.kind)
        o.set("started", run.started)
        o.set("finished", run.finished)
        o.set("inputs", json: JSONText.array(run.inputs))
        o.set("destinations", json: "[" + (run.byDestination.isEmpty ? run.destinations.map { d in
            var e = JSONObject()
            e.set("to", d)
            return e.text
        } : run.byDestination.map { d in
            var e = JSONObject()
            e.set("to", d.to)
            for outcome in Outcome.allCases { e.set(outcome.rawValue, d.counts[outcome] ?? 0) }
            return e.text
        }).joined(separator: ",") + "]")
        o.set("rows", run.rows)
        for outcome in Outcome.allCases { o.set(outcome.rawValue, run.counts[outcome]) }
        return o.text
    }

    static func json(_ run: LeadStore.SyncRun) -> String {
        var o = JSONObject()
        o.set("run_id", run.runID)
        o.set("started", run.started)
        o.set("seconds", run.seconds)
        for outcome in [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed] { o.set(outcome.rawValue, run.counts[outcome] ?? 0) }
        o.set("pending", run.pending)
        o.set("failures", json: JSONText.array(run.failures))
        o.set("stopped", run.stopped)
        return o.text
    }
}
