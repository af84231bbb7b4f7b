import Foundation
import GRDB
import LeadCore

/// The run log: each import's inputs, destinations and counts.
extension LeadStore {
    /// `destinations`: where the run writes, as `--to` names them (for `leadport undo`).
    public func startRun(id: String, inputs: [String], destinations: [String] = []) throws {
        try db.write { db in
            try db.execute(sql: "INSERT INTO leadport_runs (id, started_at, inputs, destinations) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ','now'), ?, ?)",
                           arguments: [id, inputs.joined(separator: "\n"), destinations.isEmpty ? nil : destinations.joined(separator: "\n")])
        }
    }

    /// `counts` are over every destination; `byDestination` each one's, in the run's order.
    public func finishRun(id: String, counts: [Outcome: Int], rows: Int, byDestination: [(name: String, counts: [Outcome: Int])] = []) throws {
        let outcomes = byDestination.isEmpty ? nil : "[" + byDestination.map { d in
            var o = JSONObject()
            o.set("to", d.name)
            for outcome in Outcome.allCases { o.set(outcome.rawValue, d.counts[outcome] ?? 0) }
            return o.text
        }.joined(separator: ",") + "]"
        try db.write { db in
            try db.execute(sql: """
                UPDATE leadport_runs SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'), rows = ?, created = ?, updated = ?,
                unchanged = ?, skipped = ?, rejected = ?, failed = ?, pending = ?, outcomes = ? WHERE id = ?
                """, arguments: [rows, counts[.created] ?? 0, counts[.updated] ?? 0, counts[.unchanged] ?? 0,
                                 counts[.skipped] ?? 0, counts[.rejected] ?? 0, counts[.failed] ?? 0, counts[.pending] ?? 0, outcomes, id])
        }
    }

    /// The destinations a run wrote to, as `--to` named them (nil: a run recorded before they were kept).
    public func runDestinations(_ run: String) throws -> [String]? {
        try db.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT destinations FROM leadport_runs WHERE id = ?", arguments: [run]) else { return nil }
            return (row["destinations"] as String?).map { $0.split(separator: "\n").map(String.init) }
        }
    }

    /// What a run read (its inputs, one a line; an undo's: "undo RUN").
    public func runInputs(_ run: String) throws -> String? {
        try db.read { db in try String.fetchOne(db, sql: "SELECT inputs FROM leadport_runs WHERE id = ?", arguments: [run]) }
    }

    /// Whether a run of that id is recorded.
    public func hasRun(_ run: String) throws -> Bool {
        try db.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM leadport_runs WHERE id = ?", arguments: [run]) ?? false }
    }

    /// One run of `import` (or `undo`) as `leadport status` lists it.
    public struct ImportRunRecord: Sendable, Equatable {
        public var runID: String
        /// `import`, or `undo` for a run that took another back.
        public var kind: String
        /// ISO 8601, UTC; `finished` nil while the run goes on, or when it was killed.
        public var started: String
        public var finished: String?
        public var inputs: [String]
        public var destinations: [String]
        public var rows: Int?
        /// Over every destination.
        public var counts: [Outcome: Int]
        /// Each destination's counts, when the run recorded them (runs since issue 26).
        public var byDestination: [(to: String, counts: [Outcome: Int])]

        public static func == (a: Self, b: Self) -> Bool { a.runID == b.runID && a.finished == b.finished }
    }

    /// The latest `limit` runs of `import` and `undo`, newest first; a sync job's runs (in
    /// `leadport_sync_runs` of this file) are left to the jobs.
    public func importRuns(limit: Int) throws -> [ImportRunRecord] {
        try db.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM leadport_runs WHERE id NOT IN (SELECT run_id FROM leadport_sync_runs)
                ORDER BY started_at DESC, rowid DESC LIMIT ?
                """, arguments: [limit]).map { row in
                var counts: [Outcome: Int] = [:]
                for outcome in Outcome.allCases { if let n = row[outcome.rawValue] as Int? { counts[outcome] = n } }
                let inputs = (row["inputs"] as String? ?? "").split(separator: "\n").map(String.init)
                let undo = inputs.first?.hasPrefix("undo ") == true
                var byDestination: [(to: String, counts: [Outcome: Int])] = []
                let recorded = (try? JSONSerialization.jsonObject(with: Data((row["outcomes"] as String? ?? "[]").utf8))) as? [[String: Any]] ?? []
                for d in recorded {
                    var own: [Outcome: Int] = [:]
                    for outcome in Outcome.allCases { own[outcome] = d[outcome.rawValue] as? Int }
                    byDestination.append((d["to"] as? String ?? "", own))
                }
                return ImportRunRecord(runID: row["id"], kind: undo ? "undo" : "import", started: row["started_at"], finished: row["finished_at"],
                                       inputs: inputs, destinations: (row["destinations"] as String? ?? "").split(separator: "\n").map(String.init),
                                       rows: row["rows"], counts: counts, byDestination: byDestination)
            }
        }
    }

    /// The destinations of the sync jobs' runs recorded under `run` (`sqlite:/…/flyr.db`, as
    /// the import named them): where the run's own record may be when this file has none.
    public func syncRunDestinations(_ run: String) throws -> [String] {
        try db.read { db in try String.fetchAll(db, sql: "SELECT destination FROM leadport_sync_runs WHERE run_id = ?", arguments: [run]) }
    }
}
