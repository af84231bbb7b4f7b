import ArgumentParser
import Foundation
import HTTPKit
import LeadEngine

/// `leadport status`: each sync job's destinations, their last runs, rows pending, where the
/// watermark stands, and whether a run is going on now.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each sync job's last runs by destination, rows pending, watermark, and whether it is running now.",
        discussion: "The ledger is found through --config (the sync configuration's ledger:) or --ledger (default leadport.db)."
    )

    @Option(help: ArgumentHelp("The sync configuration whose jobs to show.", valueName: "sync.yaml"))
    var config: String?

    @Option(help: ArgumentHelp("The ledger, without a configuration.", valueName: "file.db"))
    var ledger: String = "leadport.db"

    @Option(help: ArgumentHelp("Runs of each job to show.", valueName: "n"))
    var runs: Int = 1

    @Flag(help: "Print JSON: {\"jobs\": [{\"name\", \"running\", \"watermark\", \"destinations\": [{\"to\", \"pending\", \"last_run\": {…}, \"runs\": […]}]}]}.")
    var json = false

    func run() throws {
        var configuration = try config.map { try SyncConfig.load(path: $0, expanding: false) }
        // A shared ledger is reached through its URL, which may take a variable.
        if let config, configuration?.shared?.contains("$") == true {
            configuration = try SyncConfig.load(path: config, environment: try Settings.load().values)
        }
        if let configuration, let url = configuration.shared {
            return try showShared(configuration, url: url)
        }
        if configuration == nil, ledger.hasPrefix("postgres") {
            throw ValidationError("a shared PostgreSQL ledger is read through its sync configuration: give --config sync.yaml")
        }
        let path = configuration?.ledger ?? ledger
        // Without a ledger no job has run yet: with a configuration, its jobs are shown so.
        let exists = FileManager.default.fileExists(atPath: path)
        guard exists || configuration != nil else {
            throw ValidationError("no ledger at \(path): no sync has run with it yet (give --config sync.yaml or --ledger FILE)")
        }
        let store = exists ? try LeadStore(path: path) : nil
        defer { try? store?.close() }
        let names = try configuration?.jobs.map(\.name) ?? store?.syncJobs() ?? []
        var jobs: [String] = []
        var lines: [String] = []
        for name in names {
            let running = JobLock.isHeld(path: JobLock.path(ledger: path, job: name))
            let state = try store?.syncState(job: name) ?? [:]
            let history = try store?.syncRuns(job: name, limit: max(1, runs)) ?? []
            let watermark = state["watermark"].flatMap(TableExport.Watermark.init(text:))
            let configured = configuration?.jobs.first { $0.name == name }
            // (written: as the configuration names it; to: as the runs recorded it.)
            let destinations = configured.map { Array(zip($0.written, $0.to)) } ?? Array(Set(history.map(\.destination))).sorted().map { ($0, $0) }
            var o = JSONObject()
            o.set("name", name)
            o.set("running", running)
            if let watermark {
                var w = JSONObject()
                w.set("updated", watermark.updated)
                w.set("id", watermark.id)
                o.set("watermark", json: w.text)
            } else {
                o.set("watermark", json: "null")
            }
            lines.append("\(name): \(running ? "running now" : "not running")" + (watermark.map { "; watermark \($0.updated), id \($0.id)" } ?? ""))
            var entries: [String] = []
            for (destination, resolved) in destinations {
                // A destination's runs are recorded under its name as the import gives it.
                let own = history.filter { $0.destination == resolved || Self.sameDestination($0.destination, resolved) }
                var d = JSONObject()
                d.set("to", Self.shown(destination))
                d.set("pending", own.first?.pending ?? 0)
                d.set("last_run", json: own.first.map(Self.json) ?? "null")
                d.set("runs", json: "[" + own.map(Self.json).joined(separator: ",") + "]")
                entries.append(d.text)
                guard let last = own.first else {
                    lines.append("  \(Self.shown(destination)): no run yet")
                    continue
                }
                for (n, shown) in own.prefix(max(1, runs)).enumerated() {
                    let counts = [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed].map { "\($0.rawValue) \(shown.counts[$0] ?? 0)" }.joined(separator: ", ")
                    lines.append("  \(Self.shown(destination)): \(n == 0 ? "last run" : "run") \(shown.started) (\(String(format: "%.1f", shown.seconds)) s, \(shown.runID)): \(counts); pending \(shown.pending)"
                                 + (shown.stopped.map { "; stopped: \($0)" } ?? ""))
                    for failure in shown.failures.prefix(5) { lines.append("    \(failure)") }
                }
                _ = last
            }
            o.set("destinations", json: "[" + entries.joined(separator: ",") + "]")
            jobs.append(o.text)
        }
        if json {
            try StandardOutput.shared.write("{\"jobs\":[" + jobs.joined(separator: ",") + "]}\n")
        } else {
            try StandardOutput.shared.write(names.isEmpty ? "no sync job has run with \(path)\n" : lines.joined(separator: "\n") + "\n")
        }
    }

    /// With `ledger: postgres://…`: each job's runs by destination from the shared ledger, and
    /// whether a worker holds one of its claims now.
    private func showShared(_ configuration: SyncConfig, url: String) throws {
        let shared = try SharedLedger(url: url)
        var jobs: [String] = []
        var lines: [String] = []
        for job in configuration.jobs {
            let running = try shared.running(job: job.name)
            let history = try shared.runs(job: job.name, limit: max(1, runs))
            var entries: [String] = []
            lines.append("\(job.name): \(running ? "running now" : "not running")")
            for destination in job.to {
                let own = history.filter { $0.destination == destination || Self.sameDestination($0.destination, destination) }
                var d = JSONObject()
                d.set("to", Self.shown(destination))
                d.set("pending", own.first?.pending ?? 0)
                d.set("last_run", json: own.first.map(Self.json) ?? "null")
                d.set("runs", json: "[" + own.prefix(max(1, runs)).map(Self.json).joined(separator: ",") + "]")
                entries.append(d.text)
                if own.isEmpty { lines.append("  \(Self.shown(destination)): no run yet") }
                for (n, shown) in own.prefix(max(1, runs)).enumerated() {
                    let counts = [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed].map { "\($0.rawValue) \(shown.counts[$0] ?? 0)" }.joined(separator: ", ")
                    lines.append("  \(Self.shown(destination)): \(n == 0 ? "last run" : "run") \(shown.started) (\(String(format: "%.1f", shown.seconds)) s, \(shown.runID)): \(counts); pending \(shown.pending)"
                                 + (shown.stopped.map { "; stopped: \($0)" } ?? ""))
                }
            }
            var o = JSONObject()
            o.set("name", job.name)
            o.set("running", running)
            // Each destination of a worker-run job has its own watermark: none for the job.
            o.set("watermark", json: "null")
            o.set("destinations", json: "[" + entries.joined(separator: ",") + "]")
            jobs.append(o.text)
        }
        try StandardOutput.shared.write(json ? "{\"jobs\":[" + jobs.joined(separator: ",") + "]}\n" : lines.joined(separator: "\n") + "\n")
    }

    /// `to:` as written (`sqlite:x.db`) and as the import names the destination may differ.
    static func sameDestination(_ recorded: String, _ configured: String) -> Bool {
        guard let target = try? DestinationRegistry.parse(configured) else { return false }
        return target.display == recorded || target.stored == recorded
    }

    /// A job's `to:` as shown: with its credentials masked (a webhook's query token).
    static func shown(_ destination: String) -> String {
        (try? DestinationRegistry.parse(destination))?.display ?? Redactor.maskCredentials(inURL: destination)
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
