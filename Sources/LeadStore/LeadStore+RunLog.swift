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

    public func finishRun(id: String, counts: [Outcome: Int], rows: Int) throws {
        try db.write { db in
            try db.execute(sql: """
                UPDATE leadport_runs SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'), rows = ?, created = ?, updated = ?,
                unchanged = ?, skipped = ?, rejected = ? WHERE id = ?
                """, arguments: [rows, counts[.created] ?? 0, counts[.updated] ?? 0, counts[.unchanged] ?? 0,
                                 counts[.skipped] ?? 0, counts[.rejected] ?? 0, id])
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
}
