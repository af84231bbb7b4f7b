import ArgumentParser
import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadEngine
import LeadStore
import LeadSync

/// `leadport undo RUN_ID`: takes back what a run wrote, where the destination allows it.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take back what a run wrote: delete what it created and give back the values it replaced, where the destination allows.",
        discussion: """
            FLYR's tables (the embedded SQLite, PostgreSQL, Supabase) are undone: a created row \
            deleted, an updated one given back the values the ledger kept. At HubSpot a created \
            contact is archived and an updated one given back its properties; at Google \
            Contacts a created contact is deleted (updates are listed). A record that no longer \
            holds what the run wrote (a person changed it since, or a later run updated it) is \
            left alone and listed. Destinations whose API cannot delete (a webhook, Follow Up \
            Boss) are listed, not undone. The undo is recorded as a run of its own.
            Run ids are in each import's run_started event and in `leadport status`. A sync \
            job that made the run reads its sources whole on its next run (the ledger passes \
            over what is still there), so what was undone is sent again.
            Exit status: 0 everything undoable was undone (what was left alone is listed); 1 the \
            undo failed part way (run it again); 2 no such run, or a destination cannot be opened.
            """
    )

    @Argument(help: "The run to undo.")
    var runID: String

    @Option(name: .customLong("to"), help: ArgumentHelp("Undo only at this destination (as --to named it for the run). Repeat for several.", valueName: "dest"))
    var destinations: [String] = []

    @Flag(help: "Say what would be undone, and what left alone; change nothing.")
    var dryRun = false

    @OptionGroup var ledger: LedgerOptions

    @Option(help: ArgumentHelp("Find the ledger through a sync configuration.", valueName: "sync.yaml"))
    var config: String?

    @Flag(help: "Print the outcome as JSON on stdout.")
    var json = false

    func run() throws {
        let configuration = try config.map { try SyncConfig.load(path: $0, expanding: false) }
        let candidates = try RunDiscovery.candidates(ledger: ledger.ledger, configuration: configuration, configPath: config)
        guard let (path, store, syncLedger) = try RunDiscovery.find(runID, in: candidates) else {
            throw UndoError(message: "no run \(runID) in \(candidates.joined(separator: " or ")); `leadport status` lists the runs (with --ledger or --config, as here), and each import's summary ends with its run id")
        }
        defer { try? store.close() }
        if let inputs = try store.runInputs(runID), inputs.hasPrefix("undo ") {
            throw UndoError(message: "run \(runID) is an undo (\(inputs)): it cannot itself be undone; run the import or sync again instead")
        }
        // The run's destinations, opened again as it named them (credentials from the settings).
        let settings = try Settings.load()
        for line in settings.lookalikeWarnings { ExitStatus.printError("leadport: " + line) }
        var remotes: [any Destination] = []
        var only: Set<String>?
        let recorded = try store.runDestinations(runID) ?? []
        let wanted = destinations.isEmpty ? recorded : destinations
        for value in wanted {
            let target: DestinationRegistry.Target
            // Kept with a credential masked (a webhook's query token): what it holds is listed as
            // not opened, to be given with --to.
            if destinations.isEmpty && value.contains(Redactor.mask) { continue }
            do { target = try DestinationRegistry.parse(value) } catch let error as RegistryError { throw UndoError(message: error.message) }
            if let remote = try DestinationRegistry.open(target, settings: settings, onRetry: { _ in }) {
                remotes.append(remote)
                if !destinations.isEmpty { only = (only ?? []).union([remote.ledgerName]) }
            } else if !destinations.isEmpty {
                only = (only ?? []).union([LeadStore.ownLedger])
            }
        }
        let (undoID, done) = try UndoRun(store: store, path: path, run: runID, remotes: remotes, dryRun: dryRun).undo(only: only)
        // A sync job that made the run reads its sources whole again next time: a file it had
        // delivered, and the rows before its watermark, would otherwise not be sent again.
        let resetJobs = !dryRun && undoID != nil ? try RunDiscovery.resetJobs(of: runID, store: store, path: path, configuration: configuration, syncLedger: syncLedger) : []
        if json {
            var o = JSONObject()
            o.set("run_id", runID)
            o.set("undo_run_id", undoID)
            o.set("dry_run", dryRun)
            o.set("sync_jobs_reset", json: JSONText.array(resetJobs))
            o.set("destinations", json: "[" + done.map(Self.json).joined(separator: ",") + "]")
            try StandardOutput.shared.write(o.text + "\n")
        } else {
            var lines: [String] = []
            for d in done {
                let undone = d.records.filter { if case .undone = $0.result { return true }; return false }
                let changed = d.records.filter { if case .changedSince = $0.result { return true }; return false }
                let impossible = d.records.filter { if case .notUndoable = $0.result { return true }; return false }
                lines.append("\(d.name): \(dryRun ? "would undo" : "undid") \(undone.count) (\(undone.filter(\.created).count) created, \(undone.filter { !$0.created }.count) updated)"
                             + (changed.isEmpty ? "" : "; left alone \(changed.count), changed since") + (impossible.isEmpty ? "" : "; cannot undo \(impossible.count)"))
                for r in changed + impossible { lines.append("  \(r.key) (\(r.remoteID)): \(Self.detail(r.result))") }
            }
            if done.isEmpty { lines.append("run \(runID) created and updated nothing that can be undone") }
            if let undoID { lines.append("recorded as run \(undoID)") }
            for job in resetJobs { lines.append("sync job \(job) reads its sources whole on its next run, and sends again what was undone") }
            try StandardOutput.shared.write(lines.joined(separator: "\n") + "\n")
        }
    }

    static func detail(_ result: UndoResult) -> String {
        switch result {
        case .undone(let what), .changedSince(let what), .notUndoable(let what): return what
        }
    }

    static func json(_ d: UndoRun.Destination) -> String {
        var o = JSONObject()
        o.set("to", d.name)
        o.set("ledger", d.ledgerName)
        o.set("records", json: "[" + d.records.map { r in
            var record = JSONObject()
            record.set("key", r.key)
            record.set("remote_id", r.remoteID)
            record.set("action", r.created ? "created" : "updated")
            switch r.result {
            case .undone: record.set("result", "undone")
            case .changedSince: record.set("result", "changed_since")
            case .notUndoable: record.set("result", "not_undoable")
            }
            record.set("detail", detail(r.result))
            return record.text
        }.joined(separator: ",") + "]")
        return o.text
    }
}

struct UndoError: Error, CustomStringConvertible, Classified {
    var message: String
    var disposition: FailureDisposition { .usage }
    var description: String { message }
}
