import Foundation
import GRDB
import GRDBSQLite
import LeadCore

/// The embedded default destination: a SQLite file with FLYR-compatible `campaigns`,
/// `campaign_addresses` and `contacts` tables, and LeadPort's own run and ledger tables.
///
/// Safe to share between threads: every use of the connection and of the scratch buffer is
/// inside the database queue, which runs one at a time.
public final class LeadStore: @unchecked Sendable {
    public let path: String
    let db: DatabaseQueue
    /// Reused by every transaction (the queue runs one at a time).
    private let scratch = BindScratch()
    /// The time stamp of the transaction `write` left open, nil when none is (used inside the
    /// database queue only).
    private var openSince: String?

    /// The ledger's record of one lead at one destination.
    public struct LedgerEntry: Sendable, Equatable {
        public var remoteID: String
        public var contentHash: String
        /// The record's version at the destination as last written (nil: the API has none).
        public var remoteVersion: String? = nil
    }

    public init(path: String) throws {
        self.path = path
        var config = Configuration()
        config.label = "leadport"
        // `write` leaves its transaction open across calls, until `commit` or `rollback`.
        config.allowsUnsafeTransactions = true
        // Another program writing to the file (the FLYR app, a second import) holds its lock
        // for a moment: wait up to 10 s for it, as for a server's 503, instead of failing the
        // run at once with "database is locked".
        config.busyMode = .timeout(10)
        // Write-ahead logging: a batch commits by appending to one log instead of creating,
        // syncing and deleting a rollback journal; NORMAL syncs at checkpoints, and a commit
        // survives a crash of LeadPort (not of the machine), which a rerun covers anyway.
        config.prepareDatabase { db in
            // 16 KiB pages (for a new file; SQLite keeps an existing file's size): fewer pages
            // to split and log per batch; 20% faster inserts than 4 KiB in our measurements.
            try db.execute(sql: "PRAGMA page_size = 16384")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // 16 MiB of page cache: a transaction's index pages stay in memory instead of being
            // read back for every row. (Against 32 MiB, the 100k-row benchmark list took the
            // same instructions and no more system time, and the import's peak heap 16 MB less.)
            try db.execute(sql: "PRAGMA cache_size = -16384")
        }
        do {
            db = try DatabaseQueue(path: path, configuration: config)
            try Self.migrator.migrate(db)
        } catch {
            throw StoreError(path: path, message: "\(error)")
        }
    }

    /// campaign_id look-ups on campaign_addresses use the (campaign_id, seq) index, which
    /// `nextSeq` needs anyway, so there is no index on campaign_id alone to keep up to date.
    /// The per-row CHECKs are written as OR chains: SQLite evaluates `x IN ('a','b',…)` by
    /// building a temporary table on every insert, which was half of the insert time.
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("flyr-tables") { db in
            try db.execute(sql: """
                CREATE TABLE campaigns (
                  id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, name TEXT NOT NULL,
                  type TEXT, address_source TEXT CHECK (address_source IN ('closest_home','import_list','map','same_street')),
                  status TEXT DEFAULT 'draft', total_flyers INTEGER DEFAULT 0,
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE TABLE campaign_addresses (
                  id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
                  address TEXT, formatted TEXT, house_number TEXT, street_name TEXT, locality TEXT, region TEXT,
                  postal_code TEXT, coordinate TEXT, gers_id TEXT, seq INTEGER,
                  source TEXT CHECK (source = 'closest_home' OR source = 'import_list' OR source = 'map' OR source = 'same_street'),
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE UNIQUE INDEX uq_addresses_campaign_gers ON campaign_addresses(campaign_id, gers_id) WHERE gers_id IS NOT NULL;
                CREATE INDEX idx_addresses_campaign_seq ON campaign_addresses(campaign_id, seq);
                CREATE TABLE contacts (
                  id TEXT PRIMARY KEY, user_id TEXT NOT NULL, full_name TEXT NOT NULL, phone TEXT, email TEXT,
                  address TEXT, campaign_id TEXT REFERENCES campaigns(id), address_id TEXT REFERENCES campaign_addresses(id) ON DELETE SET NULL,
                  status TEXT CHECK (status = 'hot' OR status = 'warm' OR status = 'cold' OR status = 'new'), notes TEXT,
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
                  updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE INDEX idx_contacts_campaign ON contacts(campaign_id);
                CREATE TABLE leadport_runs (
                  id TEXT PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT, inputs TEXT NOT NULL,
                  rows INTEGER, created INTEGER, updated INTEGER, unchanged INTEGER, skipped INTEGER, rejected INTEGER);
                CREATE TABLE leadport_ledger (
                  destination TEXT NOT NULL, dedupe_key TEXT NOT NULL, remote_id TEXT NOT NULL, content_hash TEXT NOT NULL,
                  run_id TEXT NOT NULL, source_file TEXT, source_sheet TEXT, source_row INTEGER,
                  updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
                  PRIMARY KEY (destination, dedupe_key));
                """)
        }
        // The store's own rows were first recorded under `sqlite:` and the path the database
        // was opened by, so a rerun through another spelling of the path, or after the file
        // was moved, found no ledger and created every lead again. They are all this file's.
        m.registerMigration("ledger-own-destination") { db in
            try db.execute(sql: """
                UPDATE OR IGNORE leadport_ledger SET destination = '\(ownLedger)' WHERE destination LIKE 'sqlite:%';
                DELETE FROM leadport_ledger WHERE destination LIKE 'sqlite:%';
                """)
        }
        // What a row looked like when its lead was delivered (a hash of its cells and of
        // everything that turns cells into a lead), so that a rerun can pass over an unchanged
        // row without building its lead again. Kept for remote destinations only.
        m.registerMigration("ledger-row-hash") { db in
            try db.execute(sql: """
                ALTER TABLE leadport_ledger ADD COLUMN row_hash TEXT;
                CREATE INDEX idx_ledger_row_hash ON leadport_ledger(destination, row_hash) WHERE row_hash IS NOT NULL;
                """)
        }
        // The record's version at the destination as LeadPort last wrote it, where the API has
        // one (Google's etag): what tells a record a person changed since from one LeadPort left.
        m.registerMigration("ledger-remote-version") { db in
            try db.execute(sql: "ALTER TABLE leadport_ledger ADD COLUMN remote_version TEXT")
        }
        // The enrichment's answers (issue 14), by `EnrichCache.key`: a row asked again with the
        // same endpoint, model, spec and content is answered from here, at no cost.
        m.registerMigration("enrich-cache") { db in
            try db.execute(sql: """
                CREATE TABLE leadport_enrich_cache (
                  key TEXT PRIMARY KEY, answer TEXT NOT NULL,
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                """)
        }
        // `leadport undo` (issue 15): which run created each record, what each update replaced,
        // and where each run wrote.
        m.registerMigration("undo") { db in
            try db.execute(sql: """
                ALTER TABLE leadport_ledger ADD COLUMN created_run TEXT;
                CREATE INDEX idx_ledger_created_run ON leadport_ledger(created_run) WHERE created_run IS NOT NULL;
                CREATE TABLE leadport_history (
                  run_id TEXT NOT NULL, destination TEXT NOT NULL, dedupe_key TEXT NOT NULL, remote_id TEXT NOT NULL,
                  before TEXT, after TEXT NOT NULL, previous_hash TEXT);
                CREATE INDEX idx_history_run ON leadport_history(run_id);
                ALTER TABLE leadport_runs ADD COLUMN destinations TEXT;
                """)
        }
        // `leadport sync` (issue 15): each job's state (its watermark, the files it delivered
        // whole) and its runs, one row per destination.
        m.registerMigration("sync") { db in
            try db.execute(sql: """
                CREATE TABLE leadport_sync_state (job TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (job, name));
                CREATE TABLE leadport_sync_runs (
                  run_id TEXT NOT NULL, job TEXT NOT NULL, destination TEXT NOT NULL, started_at TEXT NOT NULL, seconds REAL NOT NULL,
                  created INTEGER NOT NULL, updated INTEGER NOT NULL, unchanged INTEGER NOT NULL, skipped INTEGER NOT NULL,
                  rejected INTEGER NOT NULL, failed INTEGER NOT NULL, pending INTEGER NOT NULL, failures TEXT NOT NULL, stopped TEXT,
                  PRIMARY KEY (run_id, destination));
                CREATE INDEX idx_sync_runs_job ON leadport_sync_runs(job, started_at);
                """)
        }
        registerQRCodes(&m)
        return m
    }

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

    /// One ledger entry whole, as `sync --worker` copies it to and from the shared ledger:
    /// destination, dedupe_key, remote_id, content_hash, run_id, source_file, source_sheet,
    /// source_row, updated_at, row_hash, remote_version, created_run (`ledgerColumns`).
    public static let ledgerColumns = ["destination", "dedupe_key", "remote_id", "content_hash", "run_id", "source_file", "source_sheet",
                                       "source_row", "updated_at", "row_hash", "remote_version", "created_run"]

    /// The ledger's entries written at or after `since` (every one when nil), whole.
    public func ledgerRows(since: String?) throws -> [[String?]] {
        try db.read { db in
            let sql = "SELECT " + Self.ledgerColumns.map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ") + " FROM leadport_ledger" + (since == nil ? "" : " WHERE updated_at >= ?")
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(since.map { [$0] } ?? [])).map { row in
                (0..<Self.ledgerColumns.count).map { row[$0] as String? }
            }
        }
    }

    /// Puts entries (as `ledgerRows` gives them) into the ledger, over any of the same keys.
    public func loadLedger(_ rows: [[String?]]) throws {
        try db.write { db in
            let sql = "INSERT OR REPLACE INTO leadport_ledger (" + Self.ledgerColumns.joined(separator: ", ") + ") VALUES (" + Self.ledgerColumns.map { _ in "?" }.joined(separator: ", ") + ")"
            let statement = try db.makeStatement(sql: sql)
            for row in rows {
                var values = row.map { $0 as (any DatabaseValueConvertible)? }
                values[7] = row[7].flatMap { Int($0) }
                try statement.execute(arguments: StatementArguments(values))
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
            for row in try Row.fetchAll(db, sql: "SELECT destination, dedupe_key, remote_id, remote_version, run_id FROM leadport_ledger WHERE created_run = ?", arguments: [run]) {
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

    /// The answers the enrichment cache holds for these keys, by key.
    public func enrichAnswers(keys: [String]) throws -> [String: String] {
        var found: [String: String] = [:]
        try db.writeWithoutTransaction { db in
            for start in stride(from: 0, to: keys.count, by: 500) {
                let part = Array(keys[start..<min(start + 500, keys.count)])
                let rows = try Row.fetchAll(db, sql: "SELECT key, answer FROM leadport_enrich_cache WHERE key IN (" + part.map { _ in "?" }.joined(separator: ",") + ")",
                                            arguments: StatementArguments(part))
                for row in rows { found[row["key"]] = row["answer"] }
            }
        }
        return found
    }

    /// Keeps answers in the enrichment cache: in the transaction `write` left open, when there is
    /// one (they are committed with the rows they were asked for), else at once.
    public func saveEnrichAnswers(_ answers: [(key: String, answer: String)]) throws {
        guard !answers.isEmpty else { return }
        try db.writeWithoutTransaction { db in
            let own = !db.isInsideTransaction
            if own { try db.execute(sql: "BEGIN IMMEDIATE") }
            do {
                for (key, answer) in answers {
                    try db.execute(sql: "INSERT OR REPLACE INTO leadport_enrich_cache (key, answer) VALUES (?, ?)", arguments: [key, answer])
                }
                if own { try db.execute(sql: "COMMIT") }
            } catch {
                if own, db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
                throw error
            }
        }
    }

    /// The ledger name of the rows written to this database itself (whatever path it was opened by).
    public static let ownLedger = "sqlite"

    /// The campaign `reference` names, as every FLYR destination finds it: an id (a UUID) by id
    /// alone, whoever owns it, and never created; a name among `owner`'s campaigns (everyone's
    /// when `owner` is nil), created as an `import_list` campaign when there is none and
    /// `create`. Several campaigns of one name and no owner to choose: `ambiguous` lists them.
    public func campaign(_ reference: String, owner: String?, create: Bool) throws
        -> (id: String, owner: String, created: Bool, ambiguous: [String])? {
        try db.write { db in
            let isID = UUID(uuidString: reference) != nil
            let found = isID
                ? try Row.fetchAll(db, sql: "SELECT id, owner_id FROM campaigns WHERE lower(id) = lower(?)", arguments: [reference])
                : try Row.fetchAll(db, sql: "SELECT id, owner_id FROM campaigns WHERE name = ? AND (? IS NULL OR lower(owner_id) = lower(?)) ORDER BY created_at, id LIMIT 2",
                                   arguments: [reference, owner, owner])
            if let row = found.first {
                return (row["id"], row["owner_id"], false, found.count > 1 ? found.map { $0["id"] } : [])
            }
            guard create, !isID else { return nil }
            let id = UUID().uuidString.lowercased()
            let owner = owner ?? FlyrUser.local
            try db.execute(sql: "INSERT INTO campaigns (id, owner_id, name, type, address_source, status) VALUES (?, ?, ?, 'flyer', 'import_list', 'draft')",
                           arguments: [id, owner, reference])
            return (id, owner, true, [])
        }
    }

    /// Closes the file now (SQLite folds its write-ahead log back into it), rather than when
    /// the last reference goes, which a thread that used the store may hold until after the
    /// process has exited: the log was then left beside the file, and a copy of the file
    /// alone lacked the last run. Any use after this throws.
    public func close() throws {
        rollback()
        // Our own compiled statements first: SQLite will not close with any still open.
        db.writeWithoutTransaction { _ in scratch.statements.removeAll() }
        try db.close()
    }

    /// Whether the ledger knows any lead for `destination`.
    public func hasLedger(destination: String) throws -> Bool {
        try db.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM leadport_ledger WHERE destination = ?)", arguments: [destination]) ?? false
        }
    }

    public func ledger(destination: String, keys: [String]) throws -> [String: LedgerEntry] {
        try db.read { db in
            var found: [String: LedgerEntry] = [:]
            try Self.select(db, scratch, "SELECT dedupe_key, remote_id, content_hash, remote_version FROM leadport_ledger WHERE destination = ? AND dedupe_key IN",
                            destination, keys) { columns in
                found[columns.text(0)] = LedgerEntry(remoteID: columns.text(1), contentHash: columns.text(2), remoteVersion: columns.optionalText(3))
            }
            return found
        }
    }

    /// The ledger entries whose leads came from rows with these hashes: hash → (key, remote id).
    public func ledger(destination: String, rowHashes: [UInt64]) throws -> [UInt64: (key: String, remoteID: String)] {
        try db.read { db in
            var found: [UInt64: (key: String, remoteID: String)] = [:]
            try Self.select(db, scratch, "SELECT row_hash, dedupe_key, remote_id FROM leadport_ledger WHERE destination = ? AND row_hash IN",
                            destination, rowHashes.map { String($0, radix: 16) }) { columns in
                if let hash = columns.hex(0) { found[hash] = (columns.text(1), columns.text(2)) }
            }
            return found
        }
    }

    /// Every entry of `destination` that has a row hash, hash → (key, remote id), read in one
    /// pass over the ledger in its stored order; nil when there are more than `limit`. (For
    /// the 100k-row benchmark list: 0.07 s, where the same entries looked up by hash, 500 to a
    /// statement, took 0.4 s, each hash landing on a page of its own.)
    ///
    /// Read on a connection of its own, so that the store's stays free meanwhile: a rerun's
    /// first batches look their rows up through it until this is done.
    public func ledgerByRowHash(destination: String, limit: Int) throws -> [UInt64: (key: String, remoteID: String)]? {
        var config = Configuration()
        config.readonly = true
        config.label = "leadport-ledger-read"
        return try DatabaseQueue(path: path, configuration: config).read { db in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM leadport_ledger WHERE destination = ?", arguments: [destination]) ?? 0
            guard count <= limit else { return nil }
            var found: [UInt64: (key: String, remoteID: String)] = [:]
            found.reserveCapacity(count)
            let statement = try db.makeStatement(sql: """
                SELECT row_hash, dedupe_key, remote_id FROM leadport_ledger NOT INDEXED WHERE destination = ? AND row_hash IS NOT NULL
                """)
            let scratch = BindScratch()
            scratch.text(destination)
            try Self.rows(db, statement.sqliteStatement, scratch) { columns in
                if let hash = columns.hex(0) { found[hash] = (columns.text(1), columns.text(2)) }
            }
            return found
        }
    }

    /// Values per look-up statement.
    static let lookUpWidth = 500

    /// Runs `head (?, ?, …)` for `values`, `lookUpWidth` at a time, with `first` bound before
    /// them, and hands each result row to `row`. The statement is compiled once and its last
    /// list is padded with NULLs, which match nothing. Compiling a new list of 500 values for
    /// every chunk cost about 1.2 ms a chunk: the look-ups of a rerun of the 100k-row
    /// benchmark list went from 0.7 s to 0.4 s without it (the rest is each key or hash
    /// landing on a page of its own; see `ledgerByRowHash`).
    private static func select(_ db: Database, _ scratch: BindScratch, _ head: String, _ first: String, _ values: [String],
                               _ row: (ResultColumns) -> Void) throws {
        guard !values.isEmpty else { return }
        let statement = try scratch.statements[head] ?? {
            let made = try db.makeStatement(sql: head + " (" + Array(repeating: "?", count: lookUpWidth).joined(separator: ",") + ")")
            scratch.statements[head] = made
            return made
        }()
        let handle = statement.sqliteStatement
        for start in stride(from: 0, to: values.count, by: lookUpWidth) {
            scratch.reset()
            scratch.text(first)
            for k in start..<start + lookUpWidth { scratch.text(k < values.count ? values[k] : nil) }
            try rows(db, handle, scratch, row)
        }
    }

    /// Steps `handle` with the scratch buffer's values bound, handing each row to `row`.
    private static func rows(_ db: Database, _ handle: SQLiteStatement, _ scratch: BindScratch, _ row: (ResultColumns) -> Void) throws {
        try scratch.bind(handle) {
            while true {
                switch sqlite3_step(handle) {
                case SQLITE_ROW: row(ResultColumns(handle: handle))
                case SQLITE_DONE: return
                case let code: throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
            }
        }
    }

    /// Runs `body` in one transaction: rows and their ledger entries land together or not at all.
    ///
    /// Foreign keys are not checked row by row inside it. With them on, SQLite keeps a
    /// statement journal for every multi-row INSERT, in case a row half-way fails its check
    /// (even with the checks deferred): 1.7 GB of page copies written to a temporary file for
    /// the 100k-row benchmark list, a sixth of the run. The rows written here refer only to
    /// the campaign looked up before and to addresses written in the same batch;
    /// `foreignKeyViolations()` checks that, and the tests run it after their imports.
    public func transaction<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try db.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(StoreTransaction(db: db, path: path, scratch: scratch, now: Self.timestamp()))
                return .commit
            }
            return result!
        }
    }

    /// Runs `body` inside a transaction that stays open after it returns, so that the rows of
    /// several calls (an import's hand-offs of a thousand rows) are committed together by
    /// `commit()`: fewer, larger commits write the ledger's index pages to the log fewer
    /// times, while the rows already written need not be kept in memory until then. The first
    /// call after a commit begins the transaction; its rows are stamped with that moment.
    /// Foreign keys are not checked row by row, as in `transaction`. An error in `body` rolls
    /// back everything written since the last commit (a failed statement may have left part
    /// of its rows).
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try db.writeWithoutTransaction { db in
            let now: String
            if let openSince {
                now = openSince
            } else {
                // Before BEGIN: inside a transaction the pragma does nothing.
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                try db.execute(sql: "BEGIN IMMEDIATE")
                now = Self.timestamp()
                openSince = now
            }
            do {
                return try body(StoreTransaction(db: db, path: path, scratch: scratch, now: now))
            } catch {
                openSince = nil
                if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
                try? db.execute(sql: "PRAGMA foreign_keys = ON")
                throw error
            }
        }
    }

    /// Whether a transaction `write` began is open (not yet committed or rolled back).
    public var isWriting: Bool {
        db.writeWithoutTransaction { _ in openSince != nil }
    }

    /// Commits what `write` left open (nothing to do when nothing is).
    public func commit() throws {
        try db.writeWithoutTransaction { db in
            guard openSince != nil else { return }
            try db.execute(sql: "COMMIT")
            openSince = nil
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
    }

    /// Undoes what `write` left open, if anything.
    public func rollback() {
        db.writeWithoutTransaction { db in
            guard openSince != nil else { return }
            openSince = nil
            if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
            try? db.execute(sql: "PRAGMA foreign_keys = ON")
        }
    }

    /// Rows whose foreign keys point at nothing (SQLite's `foreign_key_check`).
    public func foreignKeyViolations() throws -> Int {
        try db.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count }
    }

    /// Now as SQLite's `strftime('%Y-%m-%dT%H:%M:%fZ','now')` writes it, taken once per
    /// transaction instead of evaluated for every row.
    public static func timestamp() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let days = Int(ts.tv_sec) / 86_400
        let seconds = Int(ts.tv_sec) % 86_400
        let (y, m, d) = CivilDate.fromDays(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(ts.tv_nsec) / 1_000_000
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return CivilDate.iso(y, m, d) + "T" + two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60) + "." + ms + "Z"
    }

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

    /// `columns` of the rows of FLYR's `table` with these ids (what a plan shows as the values
    /// held now), by id; a column without a value is left out.
    public func rows(_ table: String, columns: [String], ids: [String]) throws -> [String: [String: String]] {
        precondition(["contacts", "campaign_addresses"].contains(table), "not a FLYR table: \(table)")
        return try db.read { db in
            var found: [String: [String: String]] = [:]
            var start = 0
            while start < ids.count {
                let chunk = Array(ids[start..<min(start + 500, ids.count)])
                let sql = "SELECT id, \(columns.joined(separator: ", ")) FROM \(table) WHERE id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) {
                    var values: [String: String] = [:]
                    for (k, column) in columns.enumerated() { if let value: String = row[k + 1] { values[column] = value } }
                    found[row[0]] = values
                }
                start += chunk.count
            }
            return found
        }
    }

    /// Columns `setColumns` may write (FLYR's, as LeadPort writes them).
    static let writable: [String: Set<String>] = [
        "contacts": ["full_name", "phone", "email", "address", "notes", "status"],
        "campaign_addresses": ["address", "formatted", "house_number", "street_name", "locality", "region", "postal_code"],
    ]

    /// Deletes rows of a FLYR table (`leadport undo`).
    public func deleteRows(_ table: String, ids: [String]) throws {
        precondition(Self.writable[table] != nil, "not a FLYR table: \(table)")
        try db.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id]) }
        }
    }

    /// Sets columns of one row of a FLYR table (nil: NULL), as `leadport undo` gives an update's
    /// values back.
    public func setColumns(_ table: String, id: String, _ values: [(column: String, value: String?)]) throws {
        guard let allowed = Self.writable[table], values.allSatisfy({ allowed.contains($0.column) }) else {
            preconditionFailure("not FLYR columns of \(table): \(values.map(\.column))")
        }
        let stamp = table == "contacts" ? ", updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')" : ""
        try db.write { db in
            try db.execute(sql: "UPDATE \(table) SET " + values.map { "\($0.column) = ?" }.joined(separator: ", ") + stamp + " WHERE id = ?",
                           arguments: StatementArguments(values.map(\.value) + [id]))
        }
    }

    /// A campaign's rows, by what they are recognised by: its addresses' house number, street
    /// and ZIP, and its contacts' email and phone.
    public func campaignRows(_ campaign: String) throws -> (addresses: [(id: String, house: String?, street: String?, postal: String?)],
                                                            contacts: [(id: String, email: String?, phone: String?)]) {
        try db.read { db in
            (try Row.fetchAll(db, sql: "SELECT id, house_number, street_name, postal_code FROM campaign_addresses WHERE campaign_id = ?", arguments: [campaign])
                .map { ($0[0], $0[1], $0[2], $0[3]) },
             try Row.fetchAll(db, sql: "SELECT id, email, phone FROM contacts WHERE campaign_id = ?", arguments: [campaign]).map { ($0[0], $0[1], $0[2]) })
        }
    }

    /// Which of these embedded remote ids (`contact|a:address`, either alone) name rows of
    /// `campaign`: its address, else its contact.
    public func inCampaign(_ campaign: String, remoteIDs: [String]) throws -> Set<String> {
        guard !remoteIDs.isEmpty else { return [] }
        return try db.read { db in
            var found: Set<String> = []
            for remoteID in remoteIDs {
                var contact: String?, address: String?
                for part in remoteID.split(separator: "|") {
                    if part.hasPrefix("a:") { address = String(part.dropFirst(2)) } else { contact = String(part) }
                }
                let sql = address != nil ? "SELECT 1 FROM campaign_addresses WHERE id = ? AND campaign_id = ?" : "SELECT 1 FROM contacts WHERE id = ? AND campaign_id = ?"
                if try Int.fetchOne(db, sql: sql, arguments: [address ?? contact, campaign]) != nil { found.insert(remoteID) }
            }
            return found
        }
    }

    /// Rows of a table, for tests and `make demo`.
    public func count(_ table: String) throws -> Int {
        try db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}

/// Writes inside one transaction of the store.
public struct StoreTransaction {
    let db: Database
    let path: String
    /// Bytes of one statement's text values, reused from row to row.
    let scratch: BindScratch
    /// The time every row written in this transaction is stamped with.
    let now: String

    /// Runs a statement compiled once per connection (GRDB's statement cache), binding the
    /// values straight through SQLite's C API from one reused buffer (SQLITE_STATIC: no copy):
    /// GRDB's general binding boxes each value and SQLite copies each string, which together
    /// cost more instructions per insert than SQLite's own work.
    private func run(_ sql: String, _ values: [String?]) throws {
        scratch.reset()
        for value in values { scratch.text(value) }
        try step(db.cachedStatement(sql: sql))
    }

    /// Runs `statement` with the values in the scratch buffer bound in order.
    private func step(_ statement: Statement) throws {
        let handle = statement.sqliteStatement
        let code = scratch.bind(handle) { sqlite3_step(handle) }
        guard code == SQLITE_DONE else {
            throw StoreError(path: path, message: String(cString: sqlite3_errmsg(db.sqliteConnection)), code: sqlite3_extended_errcode(db.sqliteConnection))
        }
    }

    /// Runs `body` as a unit within the transaction: when it throws, what it wrote is undone
    /// and the transaction goes on (a batch of rows one of which the database refuses is
    /// written again in parts, without the part it already wrote).
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try db.execute(sql: "SAVEPOINT leadport_batch")
        do {
            let value = try body()
            try db.execute(sql: "RELEASE leadport_batch")
            return value
        } catch {
            try db.execute(sql: "ROLLBACK TO leadport_batch")
            try db.execute(sql: "RELEASE leadport_batch")
            throw error
        }
    }

    /// Inserts `count` rows a few dozen per statement: `head` + `(tuple),(tuple),…` + `tail`,
    /// with `bind(i)` adding row i's values to the scratch buffer. SQLite's work per statement
    /// (start, bindings, end) is then shared by the rows.
    private func runRows(_ head: String, _ tuple: String, _ tail: String, count: Int, _ bind: (Int, BindScratch) -> Void) throws {
        let perStatement = 64
        var start = 0
        while start < count {
            let end = min(start + perStatement, count)
            let n = end - start
            // Kept by row count and head: GRDB's own cache would hash the whole text, a few
            // kilobytes, for every statement.
            let cacheKey = "\(n)|" + head + tail
            let statement = try scratch.statements[cacheKey] ?? {
                let made = try db.cachedStatement(sql: head + Array(repeating: tuple, count: n).joined(separator: ",") + tail)
                scratch.statements[cacheKey] = made
                return made
            }()
            scratch.reset()
            for i in start..<end { bind(i, scratch) }
            try step(statement)
            start = end
        }
    }

    public func insertContacts(_ rows: [NewContact]) throws {
        try runRows("""
            INSERT OR FAIL INTO contacts (id, user_id, full_name, phone, email, address, campaign_id, address_id, status, notes, created_at, updated_at) VALUES
            """, "(?,?,?,?,?,?,?,?,?,?,?,?)", "", count: rows.count) { i, b in
                let r = rows[i]
                b.text(r.id); b.text(r.user); b.text(r.contact.fullName); b.text(r.contact.phone); b.text(r.contact.email)
                b.text(r.contact.address); b.text(r.campaign); b.text(r.addressID); b.text(r.contact.status ?? "new"); b.text(r.contact.notes); b.text(now); b.text(now)
            }
    }

    public func insertAddresses(_ rows: [NewAddress]) throws {
        try runRows("""
            INSERT OR FAIL INTO campaign_addresses (id, campaign_id, address, formatted, house_number, street_name, locality, region, postal_code, coordinate, seq, source, created_at) VALUES
            """, "(?,?,?,?,?,?,?,?,?,?,?,'import_list',?)", "", count: rows.count) { i, b in
                let r = rows[i]
                let a = r.address
                b.text(r.id); b.text(r.campaign); b.text(a.address); b.text(a.formatted); b.text(a.houseNumber); b.text(a.streetName)
                b.text(a.locality); b.text(a.region); b.text(a.postalCode); b.text(a.coordinate); b.integer(r.seq); b.text(now)
            }
    }

    /// Records ledger entries. Entries for keys the ledger lacks are plain inserts; `replacing`
    /// entries overwrite what the ledger holds for their keys. (An upsert of many rows makes
    /// SQLite keep a statement journal, so only the few changed leads of a rerun take that way.)
    public func record(_ entries: [LedgerRecord], replacing: Bool = false) throws {
        let head = replacing ? "INSERT INTO" : "INSERT OR FAIL INTO"
        let tail = replacing ? """
             ON CONFLICT (destination, dedupe_key) DO UPDATE SET remote_id = excluded.remote_id, content_hash = excluded.content_hash,
              run_id = excluded.run_id, source_file = excluded.source_file, source_sheet = excluded.source_sheet,
              source_row = excluded.source_row, updated_at = excluded.updated_at, row_hash = excluded.row_hash,
              remote_version = COALESCE(excluded.remote_version, leadport_ledger.remote_version)
            """ : ""
        try runRows(head + """
             leadport_ledger (destination, dedupe_key, remote_id, content_hash, run_id, source_file, source_sheet, source_row, updated_at, row_hash, remote_version, created_run) VALUES
            """, "(?,?,?,?,?,?,?,?,?,?,?,?)", tail, count: entries.count) { i, b in
                let e = entries[i]
                b.text(e.destination); b.text(e.key); b.text(e.remoteID); b.text(e.hash); b.text(e.run); b.text(e.source.file)
                b.text(e.source.sheet); b.integer(e.source.row); b.text(now); b.text(e.rowHash); b.text(e.remoteVersion); b.text(e.created ? e.run : nil)
            }
    }

    /// What updates replaced (`leadport undo`): each record's fields before and as written.
    public func recordHistory(_ entries: [HistoryRecord]) throws {
        guard !entries.isEmpty else { return }
        try runRows("INSERT INTO leadport_history (run_id, destination, dedupe_key, remote_id, before, after, previous_hash) VALUES", "(?,?,?,?,?,?,?)", "", count: entries.count) { i, b in
            let e = entries[i]
            b.text(e.run); b.text(e.destination); b.text(e.key); b.text(e.remoteID); b.text(e.before); b.text(e.after); b.text(e.previousHash)
        }
    }

    public func insertContact(id: String, user: String, _ contact: ContactRecord, campaign: String?, addressID: String?) throws {
        try insertContacts([NewContact(id: id, user: user, contact: contact, campaign: campaign, addressID: addressID)])
    }

    /// Updates a contact's columns as `policy` says, field by field (`FieldPolicy.sqlAssignment`,
    /// columns as `DestinationPolicy.contactColumns`): `overwrite` replaces the value,
    /// `fill_blank` (and `append`: each column holds one value) writes only into an empty column,
    /// `never` leaves the column alone. A blank value never replaces anything.
    /// - Returns: whether the contact is there (false: deleted since it was written).
    @discardableResult
    public func updateContact(id: String, _ contact: ContactRecord, policy: DestinationPolicy = DestinationPolicy()) throws -> Bool {
        let values = contact.columns
        var sets: [String] = []
        var bound: [String?] = []
        for (column, fieldPolicy) in policy.contactColumns {
            guard let assignment = fieldPolicy.sqlAssignment(current: column, new: "?") else { continue }
            sets.append("\(column) = \(assignment)")
            bound.append(values[column] ?? nil)
        }
        try run("UPDATE contacts SET " + (sets + ["updated_at = ?"]).joined(separator: ", ") + " WHERE id = ?", bound + [now, id])
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    public func insertAddress(id: String, campaign: String, _ address: AddressRecord, seq: Int) throws {
        try insertAddresses([NewAddress(id: id, campaign: campaign, address: address, seq: seq)])
    }

    /// Updates a campaign address's columns, each as the policy of `address` says (as
    /// `updateContact` does): a blank part never replaces anything.
    /// - Returns: whether the address is there (false: deleted since it was written; true
    /// when `never` leaves it unlooked-at).
    @discardableResult
    public func updateAddress(id: String, _ address: AddressRecord, policy: DestinationPolicy = DestinationPolicy()) throws -> Bool {
        // The coordinate as the other parts, but kept out of `columns`: undo and plans compare
        // the address's text columns only.
        let columns = address.columns + (address.coordinate.map { [("coordinate", $0)] } ?? [])
        let sets = columns.compactMap { c in policy.addressPolicy.sqlAssignment(current: c.column, new: "?").map { "\(c.column) = \($0)" } }
        guard !sets.isEmpty else { return true }  // never
        try run("UPDATE campaign_addresses SET " + sets.joined(separator: ", ") + " WHERE id = ?", columns.map(\.value) + [id])
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    public func nextSeq(campaign: String) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(seq), 0) + 1 FROM campaign_addresses WHERE campaign_id = ?"),
                         arguments: [campaign]) ?? 1
    }

    public func record(destination: String, key: String, remoteID: String, hash: String, run: String, source: SourceLocation) throws {
        try record([LedgerRecord(destination: destination, key: key, remoteID: remoteID, hash: hash, run: run, source: source)], replacing: true)
    }
}

public struct StoreError: Error, CustomStringConvertible, Classified {
    public var path: String
    public var message: String
    /// SQLite's extended result code, when SQLite gave one.
    public var code: Int32? = nil
    public var disposition: FailureDisposition { .terminal }
    public var description: String { "\(path): \(message)" }

    /// The database refused a row (a constraint, or a trigger's RAISE(ABORT)), not the write
    /// as such: the row's rejection, not the run's failure.
    public var refusesRow: Bool { code.map { $0 & 0xFF == SQLITE_CONSTRAINT } ?? false }
}

/// A contact to insert.
public struct NewContact: Sendable {
    public var id: String
    public var user: String
    public var contact: ContactRecord
    public var campaign: String?
    public var addressID: String?

    public init(id: String, user: String, contact: ContactRecord, campaign: String?, addressID: String?) {
        (self.id, self.user, self.contact, self.campaign, self.addressID) = (id, user, contact, campaign, addressID)
    }
}

/// A campaign address to insert.
public struct NewAddress: Sendable {
    public var id: String
    public var campaign: String
    public var address: AddressRecord
    public var seq: Int

    public init(id: String, campaign: String, address: AddressRecord, seq: Int) {
        (self.id, self.campaign, self.address, self.seq) = (id, campaign, address, seq)
    }
}

/// What the ledger keeps for one lead at one destination.
/// One update's record for `leadport undo`: the fields as they were and as written (JSON objects).
public struct HistoryRecord: Sendable {
    public var run: String
    public var destination: String
    public var key: String
    public var remoteID: String
    public var before: String
    public var after: String
    public var previousHash: String?

    public init(run: String, destination: String, key: String, remoteID: String, before: String, after: String, previousHash: String?) {
        (self.run, self.destination, self.key, self.remoteID, self.before, self.after, self.previousHash) = (run, destination, key, remoteID, before, after, previousHash)
    }
}

public struct LedgerRecord: Sendable {
    public var destination: String
    public var key: String
    public var remoteID: String
    public var hash: String
    public var run: String
    public var source: SourceLocation
    /// The hash of the row the lead came from, for remote destinations (`ledger(destination:rowHashes:)`).
    public var rowHash: String?
    /// The record's version at the destination, where the API has one (Google's etag), or
    /// LeadPort's hash of the columns it wrote (FLYR's tables: `FlyrVersion`).
    public var remoteVersion: String?
    /// Whether this run created the record (`leadport undo` removes it).
    public var created: Bool

    public init(destination: String, key: String, remoteID: String, hash: String, run: String, source: SourceLocation, rowHash: String? = nil,
                remoteVersion: String? = nil, created: Bool = false) {
        (self.destination, self.key, self.remoteID, self.hash, self.run, self.source, self.rowHash) = (destination, key, remoteID, hash, run, source, rowHash)
        (self.remoteVersion, self.created) = (remoteVersion, created)
    }
}

final class BindScratch {
    /// The text values' bytes, one after another.
    var bytes: [UInt8] = []
    /// Per value: (offset, length) in `bytes`; offset -1 for NULL, -2 for an integer (in length).
    var spans: [(offset: Int, length: Int)] = []
    /// Multi-row statements by row count and statement head and tail.
    var statements: [String: Statement] = [:]

    func reset() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    func text(_ value: String?) {
        guard var value else {
            spans.append((-1, 0))
            return
        }
        value.withUTF8 { utf8 in
            spans.append((bytes.count, utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    func integer(_ value: Int) {
        spans.append((-2, value))
    }

    /// Binds the values in order to `handle` (no copies: SQLITE_STATIC, the bytes stay put
    /// until `body` is done), runs `body`, then resets the statement and clears its bindings.
    func bind<T>(_ handle: SQLiteStatement, _ body: () throws -> T) rethrows -> T {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)  // the bound pointers are into `bytes`
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            for (k, span) in spans.enumerated() {
                let index = Int32(k + 1)
                switch span.offset {
                case -1: sqlite3_bind_null(handle, index)
                case -2: sqlite3_bind_int64(handle, index, Int64(span.length))
                default: sqlite3_bind_text(handle, index, base + span.offset, Int32(span.length), nil)
                }
            }
            return try body()
        }
    }
}

/// The current result row of a statement being stepped.
struct ResultColumns {
    let handle: SQLiteStatement

    /// Column `k` as text, nil for NULL.
    func optionalText(_ k: Int32) -> String? {
        sqlite3_column_type(handle, k) == SQLITE_NULL ? nil : text(k)
    }

    /// Column `k` as text ("" for NULL).
    func text(_ k: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, k) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, k))), as: UTF8.self)
    }

    /// Column `k` read as a hexadecimal number of at most 16 digits (nil: NULL, empty, or
    /// anything else), without making a string of it.
    func hex(_ k: Int32) -> UInt64? {
        guard let bytes = sqlite3_column_text(handle, k) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, k))
        guard count > 0, count <= 16 else { return nil }
        var value: UInt64 = 0
        for b in UnsafeBufferPointer(start: bytes, count: count) {
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
