import Foundation
import GRDB
import GRDBSQLite
import LeadCore

/// The ledger: what each destination holds of each lead (its remote id and content hash), by
/// dedupe key.
extension LeadStore: Ledger {
    /// The ledger's record of one lead at one destination.
    public struct LedgerEntry: Sendable, Equatable {
        public var remoteID: String
        public var contentHash: String
        /// The record's version at the destination as last written (nil: the API has none).
        public var remoteVersion: String? = nil

        public init(remoteID: String, contentHash: String, remoteVersion: String? = nil) {
            (self.remoteID, self.contentHash, self.remoteVersion) = (remoteID, contentHash, remoteVersion)
        }
    }

    /// The ledger name of the rows written to this database itself (whatever path it was opened by).
    public static let ownLedger = "sqlite"

    /// The ledger's entries written at or after `since` (every one when nil), whole.
    public func ledgerRows(since: String?) throws -> [LedgerRow] {
        try ledgerRows(since == nil ? "" : " WHERE updated_at >= ?", since.map { [$0] } ?? [])
    }

    public func ledgerRows(destination: String) throws -> [LedgerRow] {
        try ledgerRows(" WHERE destination = ?", [destination])
    }

    private func ledgerRows(_ condition: String, _ arguments: [String]) throws -> [LedgerRow] {
        try db.read { db in
            let sql = "SELECT " + LedgerSchema.names.map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ") + " FROM leadport_ledger" + condition
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).compactMap { row in
                LedgerRow(texts: (0..<LedgerSchema.names.count).map { row[$0] as String? })
            }
        }
    }

    /// Puts entries into the ledger, over any of the same keys.
    public func loadLedger(_ rows: [LedgerRow]) throws {
        try db.write { db in
            let sql = "INSERT OR REPLACE INTO leadport_ledger (" + LedgerSchema.names.joined(separator: ", ") + ") VALUES (" + LedgerSchema.names.map { _ in "?" }.joined(separator: ", ") + ")"
            let statement = try db.makeStatement(sql: sql)
            for row in rows {
                let values: [(any DatabaseValueConvertible)?] = zip(LedgerSchema.columns, row.texts).map { column, text in column.isInteger ? text.flatMap { Int($0) } : text }
                try statement.execute(arguments: StatementArguments(values))
            }
        }
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
}
