import Foundation
import GRDB
import GRDBSQLite
import LeadCore

/// The embedded default destination: a SQLite file with FLYR-compatible `campaigns`,
/// `campaign_addresses` and `contacts` tables, and LeadPort's own run and ledger tables.
///
/// By concern: the schema (`LeadStore+Migrations`), the ledger (`+Ledger`), the run log
/// (`+RunLog`), the sync state (`+SyncState`), the undo history (`+UndoHistory`), the
/// enrichment cache (`+EnrichCache`) and FLYR's tables (`+FlyrTables`); writes go through a
/// `StoreTransaction`.
///
/// Safe to share between threads: every use of the connection and of the scratch buffer is
/// inside the database queue, which runs one at a time.
public final class LeadStore: @unchecked Sendable {
    public let path: String
    let db: DatabaseQueue
    /// Reused by every transaction (the queue runs one at a time).
    let scratch = BindScratch()
    /// The time stamp of the transaction `write` left open, nil when none is (used inside the
    /// database queue only).
    var openSince: String?

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
            // 20 MiB of page cache: an import's 10,000-row transaction keeps most of its dirty
            // pages until its commit instead of spilling them into the log part way and writing
            // them again. The 100k-row benchmark list (its ledger keys name their campaign):
            // 39,437 page writes and 14,067 reads with 16 MiB, 34,975 and 10,671 with 20 MiB,
            // 33,513 and 9,385 with 24 MiB or more; the import's peak, under the benchmark's
            // 100 MiB, grows by about 3 MiB a 4 MiB step.
            try db.execute(sql: "PRAGMA cache_size = -20480")
        }
        do {
            db = try DatabaseQueue(path: path, configuration: config)
            try Self.migrator.migrate(db)
        } catch {
            throw StoreError(path: path, message: "\(error)")
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

    /// Rows of a table, for tests and `make demo`.
    public func count(_ table: String) throws -> Int {
        try db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}
