import Foundation
import GRDB

/// What `leadport undo` reads and settles: the records a run created, what its updates replaced.
extension LeadStore {
    /// What an undo of a run needs to know, at one destination.
    public struct RunChanges: Sendable {
        /// The records the run created and that are still the ledger's: key, remote id, the
        /// version written, and the run that wrote the record last (this one, unless a later
        /// run updated it).
        public var created: [(key: String, remoteID: String, version: String?, lastRun: String)] = []
        /// The records it updated: key, remote id, the fields before and as written, the hash
        /// the ledger had before, the run that wrote the record last, and the version it wrote
        /// (an etag) when that run is this one.
        public var updated: [(key: String, remoteID: String, before: [String: String], after: [String: String], previousHash: String?, lastRun: String,
                              version: String?)] = []
    }

    /// A run's creates and updates, by ledger destination.
    public func changes(run: String) throws -> [String: RunChanges] {
        try db.read { db in
            var byDestination: [String: RunChanges] = [:]
            // The records the run created are after its floor (none without one); a run the log
            // does not know is looked for through the whole ledger.
            let created: [Row]
            if let logged = try Row.fetchOne(db, sql: "SELECT ledger_floor FROM leadport_runs WHERE id = ?", arguments: [run]) {
                let floor: Int64? = logged["ledger_floor"]
                created = try floor.map { floor in
                    try Row.fetchAll(db, sql: "SELECT destination, dedupe_key, remote_id, remote_version, run_id FROM leadport_ledger WHERE rowid > ? AND created_run = ?",
                                     arguments: [floor, run])
                } ?? []
            } else {
                created = try Row.fetchAll(db, sql: "SELECT destination, dedupe_key, remote_id, remote_version, run_id FROM leadport_ledger WHERE created_run = ?", arguments: [run])
            }
            for row in created {
                byDestination[row["destination"], default: RunChanges()].created.append((row["dedupe_key"], row["remote_id"], row["remote_version"], row["run_id"]))
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT h.destination, h.dedupe_key, h.remote_id, h.before, h.after, h.previous_hash, l.run_id, l.remote_version FROM leadport_history h
                JOIN leadport_ledger l ON l.destination = h.destination AND l.dedupe_key = h.dedupe_key WHERE h.run_id = ?
                """, arguments: [run]) {
                func fields(_ text: String?) -> [String: String] {
                    (text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: String]) ?? [:]
                }
                byDestination[row["destination"], default: RunChanges()].updated.append((row["dedupe_key"], row["remote_id"], fields(row["before"]), fields(row["after"]), row["previous_hash"], row["run_id"],
                                                                                   row["remote_version"]))
            }
            return byDestination
        }
    }

    /// After an undo: the records it removed leave the ledger, those it restored get back the
    /// hash they had (so the next run sends the newer values again), and its history is let go.
    public func undone(destination: String, removed: [String], restored: [(key: String, previousHash: String?)], run: String) throws {
        try db.write { db in
            for key in removed {
                try db.execute(sql: "DELETE FROM leadport_ledger WHERE destination = ? AND dedupe_key = ?", arguments: [destination, key])
            }
            for (key, hash) in restored {
                // (Which run wrote it before is not kept: the one that created it stands for it.
                // An undo of that run still checks the values before it touches the record.)
                try db.execute(sql: "UPDATE leadport_ledger SET content_hash = ?, row_hash = NULL, run_id = COALESCE(created_run, run_id) WHERE destination = ? AND dedupe_key = ?",
                               arguments: [hash ?? "", destination, key])
                try db.execute(sql: "DELETE FROM leadport_history WHERE run_id = ? AND destination = ? AND dedupe_key = ?", arguments: [run, destination, key])
            }
        }
    }
}
