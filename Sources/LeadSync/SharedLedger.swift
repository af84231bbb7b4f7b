import Foundation
import LeadConnectors
import LeadCore
import LeadStore

/// The ledger, the jobs' state and their runs in PostgreSQL (`ledger: postgres://…`),
/// shared by `leadport sync --worker` processes on any machines. Each (job,
/// destination) is claimed with `SELECT … FOR UPDATE SKIP LOCKED` under a lease the worker
/// renews while it lives; one whose worker died is claimed again once its lease runs out.
///
/// A worker runs its claim against a SQLite ledger of its own, filled from this one for the
/// destination first, and copies what it records back after every commit: a worker that dies
/// leaves here everything it had recorded, and the next one passes over what is here as the
/// destination has it.
public final class SharedLedger: Ledger, @unchecked Sendable {
    private let connection: PostgresConnection
    private let lock = NSLock()
    public let url: String

    public init(url: String) throws {
        self.url = url
        connection = try PostgresConnection(url: url)
        // Workers starting together would race to make the tables (CREATE … IF NOT EXISTS is not
        // safe against that): one at a time, under an advisory lock of LeadPort's own.
        try connection.execute("SELECT pg_advisory_lock(5045584)")
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(5045584)") }
        try connection.run(script: LedgerSchema.postgresTable + """

            CREATE TABLE IF NOT EXISTS leadport_sync_state (job text NOT NULL, name text NOT NULL, value text NOT NULL, PRIMARY KEY (job, name));
            CREATE TABLE IF NOT EXISTS leadport_sync_runs (
              run_id text NOT NULL, job text NOT NULL, destination text NOT NULL, started_at text NOT NULL, seconds double precision NOT NULL,
              created integer NOT NULL, updated integer NOT NULL, unchanged integer NOT NULL, skipped integer NOT NULL, rejected integer NOT NULL,
              failed integer NOT NULL, pending integer NOT NULL, failures text NOT NULL, stopped text, PRIMARY KEY (run_id, destination));
            CREATE TABLE IF NOT EXISTS leadport_claims (
              job text NOT NULL, destination text NOT NULL, holder text, lease_until timestamptz, finished_at timestamptz, PRIMARY KEY (job, destination));
            """)
    }

    private func execute(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try lock.withLock { try connection.execute(sql, parameters) }
    }

    /// Makes sure every (job, destination) of the configuration can be claimed.
    public func seed(_ pairs: [(job: String, destination: String)]) throws {
        for (job, destination) in pairs {
            _ = try execute("INSERT INTO leadport_claims (job, destination) VALUES ($1, $2) ON CONFLICT DO NOTHING", [job, destination])
        }
    }

    /// A (job, destination) not finished since `since` and not held under a live lease, now
    /// `holder`'s for `lease` seconds; nil when there is none free. `remaining`: how many are
    /// not finished since `since` (held or free).
    public func claim(holder: String, since: String, lease: Int, among pairs: [(job: String, destination: String)]) throws -> (claim: (job: String, destination: String)?, remaining: Int) {
        let jobs = "{" + pairs.map { "\"" + $0.job.replacingOccurrences(of: "\"", with: "\\\"") + "\u{1F}" + $0.destination.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}"
        let mine = "(job || chr(31) || destination) = ANY($4::text[])"
        let claimed = try execute("""
            WITH free AS (
              SELECT job, destination FROM leadport_claims
              WHERE \(mine) AND (finished_at IS NULL OR finished_at < $1::timestamptz) AND (lease_until IS NULL OR lease_until < now())
              ORDER BY job, destination LIMIT 1 FOR UPDATE SKIP LOCKED)
            UPDATE leadport_claims c SET holder = $2, lease_until = now() + make_interval(secs => $3::int)
            FROM free WHERE c.job = free.job AND c.destination = free.destination RETURNING c.job, c.destination
            """, [since, holder, String(lease), jobs])
        let remaining = try execute("SELECT count(*) FROM leadport_claims WHERE \(mine.replacingOccurrences(of: "$4", with: "$2")) AND (finished_at IS NULL OR finished_at < $1::timestamptz)",
                                    [since, jobs]).first.flatMap { $0.first ?? nil }.flatMap { Int($0) } ?? 0
        guard let row = claimed.first, let job = row[0], let destination = row[1] else { return (nil, remaining) }
        return ((job, destination), remaining)
    }

    /// Extends `holder`'s lease; false when it is no longer `holder`'s (it ran out and another
    /// worker took the claim).
    public func renew(job: String, destination: String, holder: String, lease: Int) throws -> Bool {
        !(try execute("UPDATE leadport_claims SET lease_until = now() + make_interval(secs => $3::int) WHERE job = $1 AND destination = $2 AND holder = $4 RETURNING 1",
                      [job, destination, String(lease), holder])).isEmpty
    }

    /// The claim done for tonight (whatever became of its rows: they are in its run).
    public func finish(job: String, destination: String, holder: String) throws {
        _ = try execute("UPDATE leadport_claims SET finished_at = now(), lease_until = NULL, holder = NULL WHERE job = $1 AND destination = $2 AND holder = $3",
                        [job, destination, holder])
    }

    public func ledgerRows(destination: String) throws -> [LedgerRow] {
        try execute("SELECT " + LedgerSchema.names.map { $0 + "::text" }.joined(separator: ", ") + " FROM leadport_ledger WHERE destination = $1", [destination])
            .compactMap(LedgerRow.init(texts:))
    }

    public func ledger(destination: String, keys: [String]) throws -> [String: LeadStore.LedgerEntry] {
        var found: [String: LeadStore.LedgerEntry] = [:]
        for start in stride(from: 0, to: keys.count, by: 500) {
            let part = keys[start..<min(start + 500, keys.count)].map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            for row in try execute("SELECT dedupe_key, remote_id, content_hash, remote_version FROM leadport_ledger WHERE destination = $1 AND dedupe_key = ANY($2::text[])",
                                   [destination, "{" + part.joined(separator: ",") + "}"]) {
                guard let key = row[0], let remoteID = row[1], let hash = row[2] else { continue }
                found[key] = LeadStore.LedgerEntry(remoteID: remoteID, contentHash: hash, remoteVersion: row[3])
            }
        }
        return found
    }

    /// Entries a worker recorded, over any of the same keys.
    public func loadLedger(_ rows: [LedgerRow]) throws {
        let columns = LedgerSchema.columns
        for start in stride(from: 0, to: rows.count, by: 400) {
            let chunk = rows[start..<min(start + 400, rows.count)]
            var parameters: [String?] = []
            let tuples = chunk.enumerated().map { n, row -> String in
                parameters += row.texts
                return "(" + columns.enumerated().map { k, column in "$\(n * columns.count + k + 1)" + (column.isInteger ? "::integer" : "") }.joined(separator: ", ") + ")"
            }
            _ = try execute("INSERT INTO leadport_ledger (" + LedgerSchema.names.joined(separator: ", ") + ") VALUES " + tuples.joined(separator: ", ")
                            + " ON CONFLICT (" + LedgerSchema.primaryKey.joined(separator: ", ") + ") DO UPDATE SET "
                            + LedgerSchema.names.filter { !LedgerSchema.primaryKey.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", "),
                            parameters)
        }
    }

    public func state(key: String) throws -> [String: String] {
        var state: [String: String] = [:]
        for row in try execute("SELECT name, value FROM leadport_sync_state WHERE job = $1", [key]) { if let name = row[0], let value = row[1] { state[name] = value } }
        return state
    }

    public func setState(key: String, _ values: [String: String]) throws {
        _ = try execute("DELETE FROM leadport_sync_state WHERE job = $1", [key])
        for (name, value) in values { _ = try execute("INSERT INTO leadport_sync_state (job, name, value) VALUES ($1, $2, $3)", [key, name, value]) }
    }

    public func recordRuns(_ runs: [LeadStore.SyncRun]) throws {
        for r in runs {
            let failures = String(data: try JSONSerialization.data(withJSONObject: r.failures), encoding: .utf8) ?? "[]"
            _ = try execute("""
                INSERT INTO leadport_sync_runs (run_id, job, destination, started_at, seconds, created, updated, unchanged, skipped, rejected, failed, pending, failures, stopped)
                VALUES ($1, $2, $3, $4, $5::double precision, $6::int, $7::int, $8::int, $9::int, $10::int, $11::int, $12::int, $13, $14) ON CONFLICT DO NOTHING
                """, [r.runID, r.job, r.destination, r.started, String(r.seconds)] + [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed].map { String(r.counts[$0] ?? 0) }
                    + [String(r.pending), failures, r.stopped])
        }
    }

    /// A job's runs, the latest first (`leadport status` with a shared ledger).
    public func runs(job: String, limit: Int) throws -> [LeadStore.SyncRun] {
        let outcomes = [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed]
        let columns = ["run_id", "job", "destination", "started_at", "seconds", "pending", "failures", "stopped"] + outcomes.map(\.rawValue)
        return try execute("SELECT " + columns.map { $0 + "::text" }.joined(separator: ", ") + " FROM leadport_sync_runs WHERE job = $1 ORDER BY started_at DESC LIMIT $2::int",
                           [job, String(limit * 16)]).map { texts in
            let row = Dictionary(uniqueKeysWithValues: zip(columns, texts))
            func text(_ name: String) -> String? { row[name] ?? nil }
            var counts: [Outcome: Int] = [:]
            for outcome in outcomes { counts[outcome] = Int(text(outcome.rawValue) ?? "") ?? 0 }
            let failures = (try? JSONSerialization.jsonObject(with: Data((text("failures") ?? "[]").utf8))) as? [String] ?? []
            return LeadStore.SyncRun(runID: text("run_id") ?? "", job: text("job") ?? "", destination: text("destination") ?? "", started: text("started_at") ?? "",
                                     seconds: Double(text("seconds") ?? "") ?? 0, counts: counts, pending: Int(text("pending") ?? "") ?? 0, failures: failures,
                                     stopped: text("stopped"))
        }
    }

    /// Whether a worker holds a claim of the job under a live lease.
    public func running(job: String) throws -> Bool {
        !(try execute("SELECT 1 FROM leadport_claims WHERE job = $1 AND lease_until > now()", [job])).isEmpty
    }
}
