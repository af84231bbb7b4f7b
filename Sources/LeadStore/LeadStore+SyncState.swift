import Foundation
import GRDB
import LeadCore

/// `leadport sync`: each job's state (its watermark, the files it delivered whole) and its runs.
extension LeadStore {
    /// A job's state (`leadport sync`): name → value.
    public func syncState(job: String) throws -> [String: String] {
        try db.read { db in
            var state: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM leadport_sync_state WHERE job = ?", arguments: [job]) { state[row["name"]] = row["value"] }
            return state
        }
    }

    /// Sets (or, with nil, removes) some of a job's state, together.
    public func setSyncState(job: String, _ values: [String: String?]) throws {
        try db.write { db in
            for (name, value) in values {
                if let value {
                    try db.execute(sql: "INSERT OR REPLACE INTO leadport_sync_state (job, name, value) VALUES (?, ?, ?)", arguments: [job, name, value])
                } else {
                    try db.execute(sql: "DELETE FROM leadport_sync_state WHERE job = ? AND name = ?", arguments: [job, name])
                }
            }
        }
    }

    /// Forgets the state (watermark, files delivered) of the sync jobs that made `run`, so
    /// that their next run reads their sources whole; returns those jobs.
    public func resetSyncState(run: String) throws -> [String] {
        try db.write { db in
            let jobs = try String.fetchAll(db, sql: "SELECT DISTINCT job FROM leadport_sync_runs WHERE run_id = ?", arguments: [run])
            for job in jobs { try db.execute(sql: "DELETE FROM leadport_sync_state WHERE job = ?", arguments: [job]) }
            return jobs
        }
    }

    /// One job's run at one destination, as `leadport status` shows it.
    public struct SyncRun: Sendable, Equatable {
        public var runID: String
        public var job: String
        public var destination: String
        /// ISO 8601, UTC.
        public var started: String
        public var seconds: Double
        public var counts: [Outcome: Int]
        /// Rows the next run sends (pending or failed at this destination).
        public var pending: Int
        /// Some of the rows rejected or failed, with why: "row 12 of leads.csv: …".
        public var failures: [String]
        /// Why the destination, or the run, stopped, if it did.
        public var stopped: String?

        public init(runID: String, job: String, destination: String, started: String, seconds: Double, counts: [Outcome: Int], pending: Int, failures: [String], stopped: String?) {
            (self.runID, self.job, self.destination, self.started, self.seconds) = (runID, job, destination, started, seconds)
            (self.counts, self.pending, self.failures, self.stopped) = (counts, pending, failures, stopped)
        }
    }

    /// The jobs that have run with this ledger, by name.
    public func syncJobs() throws -> [String] {
        try db.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT job FROM leadport_sync_runs ORDER BY job") }
    }

    public func recordSyncRun(_ runs: [SyncRun]) throws {
        try db.write { db in
            for r in runs {
                let failures = String(data: try JSONSerialization.data(withJSONObject: r.failures), encoding: .utf8) ?? "[]"
                try db.execute(sql: """
                    INSERT OR REPLACE INTO leadport_sync_runs (run_id, job, destination, started_at, seconds, created, updated, unchanged, skipped, rejected, failed, pending, failures, stopped)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [r.runID, r.job, r.destination, r.started, r.seconds, r.counts[.created] ?? 0, r.counts[.updated] ?? 0, r.counts[.unchanged] ?? 0,
                                     r.counts[.skipped] ?? 0, r.counts[.rejected] ?? 0, r.counts[.failed] ?? 0, r.pending, failures, r.stopped])
            }
        }
    }

    /// A job's runs, the latest first, at most `limit` of them (each with its destinations).
    public func syncRuns(job: String, limit: Int) throws -> [SyncRun] {
        try db.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM leadport_sync_runs WHERE run_id IN (SELECT run_id FROM leadport_sync_runs WHERE job = ? GROUP BY run_id ORDER BY max(started_at) DESC LIMIT ?)
                ORDER BY started_at DESC, destination
                """, arguments: [job, limit]).map { row in
                var counts: [Outcome: Int] = [:]
                for outcome in [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed] { counts[outcome] = row[outcome.rawValue] }
                let failures = (try? JSONSerialization.jsonObject(with: Data((row["failures"] as String? ?? "[]").utf8))) as? [String] ?? []
                return SyncRun(runID: row["run_id"], job: row["job"], destination: row["destination"], started: row["started_at"], seconds: row["seconds"],
                               counts: counts, pending: row["pending"], failures: failures, stopped: row["stopped"])
            }
        }
    }
}
