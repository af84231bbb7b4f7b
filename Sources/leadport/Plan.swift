import ArgumentParser
import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadEngine
import LeadWriters

/// The field-level plan of a dry run: on stdout for people, or with
/// `--plan FILE.json` as JSON for `leadport apply` and a CSV beside it (one line per field).
/// Written row by row as the run settles them, so a plan of a long list takes no more memory
/// than the run.
final class PlanWriter: @unchecked Sendable {
    /// Format of the JSON file, checked by `apply`.
    static let version = 1

    private let json: FileHandle?
    private let csv: CSVWriter?
    private var rowsWritten = 0
    /// The destinations that stopped while the plan was made (set at the end).
    private(set) var incomplete: [String] = []
    private let toStdout: Bool

    /// `path` nil: the plan goes to stdout. `arguments` are the import's own, to run it again
    /// with; the plan file is readable by its owner only, since those name the destinations.
    init(path: String?, arguments: [String]) throws {
        toStdout = path == nil
        guard let path else {
            (json, csv) = (nil, nil)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]), let handle = FileHandle(forWritingAtPath: path) else {
            throw PlanError("\(path): cannot write the plan there; give --plan a file in a folder that exists and you can write to")
        }
        json = handle
        csv = try CSVWriter(path: Self.csvPath(path))
        // Its lines are people's details too: readable by the owner alone, as the plan is.
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: Self.csvPath(path))
        try csv?.write(["file", "sheet", "row", "destination", "action", "remote_id", "field", "old", "new"])
        var head = JSONObject()
        head.set("leadport_plan", Self.version)
        head.set("made_at", ISO8601DateFormatter().string(from: Date()))
        head.set("directory", FileManager.default.currentDirectoryPath)
        head.set("arguments", json: JSONText.array(arguments))
        var text = head.text
        text.removeLast()
        write(text + ",\"rows\":[\n")
    }

    /// `plan.json` → `plan.csv`; any other name gets `.csv` added.
    static func csvPath(_ path: String) -> String {
        ImportRequest.planCSVPath(path)
    }

    private func write(_ text: String) { json?.write(Data(text.utf8)) }

    func handle(_ event: ProgressEvent) throws {
        switch event {
        case .row(let r):
            guard let planned = r.planned else { return }
            let action = r.outcome == .updated ? "update" : "create"
            if toStdout { try show(r, planned, action: action) } else { try record(r, planned, action: action) }
        case .runFinished(let s):
            guard json != nil else { return }
            var counts = JSONObject()
            for outcome in Outcome.allCases { counts.set(outcome.rawValue, s.counts[outcome] ?? 0) }
            // A destination that stopped while the plan was made left its rows out of it: the
            // plan says so, and `apply` refuses it.
            let stopped = s.destinations.filter { $0.stopped != nil }.map(\.name)
            write("\n],\"counts\":" + counts.text + (stopped.isEmpty ? "" : ",\"incomplete\":" + JSONText.array(stopped)) + "}\n")
            incomplete = stopped
            try json?.close()
            try csv?.close()
        default: return
        }
    }

    private static func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "(empty)" }

    /// For people: each row created or updated, then each field that changes, old → new.
    private func show(_ r: RowResult, _ planned: PlannedRow, action: String) throws {
        let place = r.location.sheet.map { "\(r.location.file) [\($0)]" } ?? r.location.file
        var text = "row \(r.location.row) of \(place) → \(r.destination): \(action)" + (r.remoteID.map { $0.isEmpty ? "" : " \($0)" } ?? "")
        guard let fields = planned.fields else {
            try StandardOutput.shared.write(KnownSecrets.redact(text + " (this destination cannot show its fields)\n"))
            return
        }
        let changed = fields.changed
        if changed.isEmpty { text += " (no field changes)" }
        text += "\n"
        for field in changed {
            text += fields.before == nil ? "    \(field): \(Self.quoted(fields.after[field]))\n"
                                         : "    \(field): \(Self.quoted(fields.before?[field])) → \(Self.quoted(fields.after[field]))\n"
        }
        try StandardOutput.shared.write(KnownSecrets.redact(text))
    }

    /// For `apply`: the row, what it would send (hash) and its fields then.
    private func record(_ r: RowResult, _ planned: PlannedRow, action: String) throws {
        var o = JSONObject()
        o.set("file", r.location.file)
        o.set("sheet", r.location.sheet)
        o.set("row", r.location.row)
        o.set("destination", r.destination)
        o.set("action", action)
        if let id = r.remoteID, !id.isEmpty { o.set("remote_id", id) }
        o.set("hash", planned.hash)
        if let fields = planned.fields {
            o.set("before", json: fields.before.map(Self.object) ?? "null")
            o.set("after", json: Self.object(fields.after))
            for field in fields.changed {
                try csv?.write([r.location.file, r.location.sheet ?? "", String(r.location.row), r.destination, action, r.remoteID ?? "", field,
                                fields.before?[field] ?? "", fields.after[field] ?? ""])
            }
            o.set("changes", json: Self.changes(fields))
        }
        write((rowsWritten == 0 ? "" : ",\n") + o.text)
        rowsWritten += 1
    }

    /// `{"FIELD": {"old": …, "new": …}, …}` for each field that would change (old null: none).
    static func changes(_ fields: FieldSnapshot) -> String {
        var changes = JSONObject()
        for field in fields.changed {
            var change = JSONObject()
            change.set("old", fields.before?[field])
            change.set("new", fields.after[field])
            changes.set(field, json: change.text)
        }
        return changes.text
    }

    private static func object(_ values: [String: String]) -> String {
        var o = JSONObject()
        for key in values.keys.sorted() { o.set(key, values[key]) }
        return o.text
    }
}

/// A plan file read back (`leadport apply`).
struct PlanFile {
    /// The options `ImportRequest.replayArguments` writes.
    static let replayed: Set<String> = ["--mapping", "--preset", "--sheet", "--to", "--ledger", "--user", "--campaign", "--region", "--date-order", "--exclude"]

    var directory: String
    var arguments: [String]
    var check: PlanCheck

    /// The file's shape, read with `JSONDecoder` (a plan of 20,000 rows took 417 MB as
    /// Foundation's dictionaries).
    private struct Document: Decodable {
        var leadport_plan: Int?
        var directory: String?
        var arguments: [String]?
        var rows: [Row]?
        var incomplete: [String]?
    }

    private struct Row: Decodable {
        var file: String?
        var sheet: String?
        var row: Int?
        var destination: String?
        var hash: String?
        var before: [String: String]?
        var after: [String: String]?
    }

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlanError("\(path): \(FileManager.default.fileExists(atPath: path) ? "the plan cannot be read (check its permissions)" : "no such plan; make one with leadport import … --dry-run --plan \(path)")")
        }
        guard !data.isEmpty else { throw PlanError("\(path): the plan is empty; make it again with leadport import … --dry-run --plan \(path)") }
        let top: Document
        do {
            top = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            let cut = String(decoding: data.prefix(20), as: UTF8.self).hasPrefix("{\"leadport_plan\"")
            throw PlanError(cut ? "\(path) is a plan cut short (its import did not finish?): make it again"
                                      : "\(path) is not a plan: it is not JSON of a plan's shape (make one with leadport import … --plan FILE.json)")
        }
        guard let version = top.leadport_plan else { throw PlanError("\(path) is not a LeadPort plan (no \"leadport_plan\" key)") }
        guard version == PlanWriter.version else { throw PlanError("\(path) is a plan of format \(version); this leadport reads format \(PlanWriter.version)") }
        guard let directory = top.directory, let arguments = top.arguments, let rows = top.rows else {
            throw PlanError("\(path) is an incomplete plan (no directory, arguments or rows); was it cut short?")
        }
        if let stopped = top.incomplete, !stopped.isEmpty {
            throw PlanError("\(path) is incomplete: \(stopped.joined(separator: ", ")) stopped while it was made, and its rows there are not in it; make the plan again")
        }
        // A plan carries only the options that choose the rows and where they go; anything
        // else (an output, --dry-run, another --plan) was not written by LeadPort.
        for argument in arguments where argument.hasPrefix("--") && !Self.replayed.contains(argument) {
            throw PlanError("\(path): its arguments hold \(argument), which no plan carries (was the file edited?); make the plan again")
        }
        (self.directory, self.arguments) = (directory, arguments)
        var planned: [PlanCheck.Key: PlannedRow] = [:]
        planned.reserveCapacity(rows.count)
        for (n, row) in rows.enumerated() {
            guard let file = row.file, let number = row.row, let destination = row.destination, let hash = row.hash else {
                throw PlanError("\(path): the plan's row entry \(n + 1) (of \(rows.count)) lacks its file, row, destination or hash; make the plan again")
            }
            planned[PlanCheck.Key(destination: destination, file: file, sheet: row.sheet, row: number)] =
                PlannedRow(hash: hash, fields: row.after.map { FieldSnapshot(before: row.before, after: $0) })
        }
        check = PlanCheck(rows: planned)
    }
}

/// A plan that cannot be written or carried out: a usage problem (exit status 2), said without
/// the command's usage text, which would bury it.
struct PlanError: Error, CustomStringConvertible, Classified {
    var message: String
    var disposition: FailureDisposition { .usage }
    init(_ message: String) { self.message = message }
    var description: String { message }
}
