import LeadCore

/// A ledger: what each destination holds of each lead (its remote id and content hash), by
/// destination and dedupe key. `LeadStore` keeps one in its SQLite file, `SharedLedger` in
/// PostgreSQL for workers on several machines, and `InMemoryLedger` (LeadTesting) in a
/// dictionary for tests. Every one holds the columns `LedgerSchema` lists.
public protocol Ledger: AnyObject, Sendable {
    /// The entries of `destination` for these keys, by key (keys it lacks are left out).
    func ledger(destination: String, keys: [String]) throws -> [String: LeadStore.LedgerEntry]
    /// Every entry of `destination`, whole.
    func ledgerRows(destination: String) throws -> [LedgerRow]
    /// Puts entries in, over any of the same destination and key.
    func loadLedger(_ rows: [LedgerRow]) throws
}

/// The ledger's table, written once: the columns every ledger keeps, in order, with their
/// types, and its key. The SQLite file reached this shape through its migrations (history
/// that stays as it was); PostgreSQL's table is made from this list.
public enum LedgerSchema {
    public struct Column: Sendable, Equatable {
        public var name: String
        public var isInteger: Bool
        public var isRequired: Bool
    }

    public static let table = "leadport_ledger"

    public static let columns: [Column] = [
        Column(name: "destination", isInteger: false, isRequired: true),
        Column(name: "dedupe_key", isInteger: false, isRequired: true),
        Column(name: "remote_id", isInteger: false, isRequired: true),
        Column(name: "content_hash", isInteger: false, isRequired: true),
        Column(name: "run_id", isInteger: false, isRequired: true),
        Column(name: "source_file", isInteger: false, isRequired: false),
        Column(name: "source_sheet", isInteger: false, isRequired: false),
        Column(name: "source_row", isInteger: true, isRequired: false),
        Column(name: "updated_at", isInteger: false, isRequired: false),
        Column(name: "row_hash", isInteger: false, isRequired: false),
        Column(name: "remote_version", isInteger: false, isRequired: false),
        Column(name: "created_run", isInteger: false, isRequired: false),
    ]

    public static let names = columns.map(\.name)

    public static let primaryKey = ["destination", "dedupe_key"]

    /// `CREATE TABLE IF NOT EXISTS` for PostgreSQL.
    public static var postgresTable: String {
        "CREATE TABLE IF NOT EXISTS \(table) (\n  "
            + columns.map { "\($0.name) \($0.isInteger ? "integer" : "text")\($0.isRequired ? " NOT NULL" : "")" }.joined(separator: ", ")
            + ",\n  PRIMARY KEY (\(primaryKey.joined(separator: ", "))));"
    }
}

/// One ledger entry whole, as ledgers copy entries between them (`sync --worker`: a worker's
/// own SQLite ledger and the shared one).
public struct LedgerRow: Sendable, Equatable {
    public var destination: String
    public var dedupeKey: String
    public var remoteID: String
    public var contentHash: String
    public var runID: String
    public var sourceFile: String?
    public var sourceSheet: String?
    /// 1-based.
    public var sourceRow: Int?
    /// When it was written, as `LeadStore.timestamp()` writes it.
    public var updatedAt: String?
    public var rowHash: String?
    public var remoteVersion: String?
    /// The run that created the record, when a run of LeadPort did.
    public var createdRun: String?

    public init(destination: String, dedupeKey: String, remoteID: String, contentHash: String, runID: String, sourceFile: String? = nil, sourceSheet: String? = nil,
                sourceRow: Int? = nil, updatedAt: String? = nil, rowHash: String? = nil, remoteVersion: String? = nil, createdRun: String? = nil) {
        (self.destination, self.dedupeKey, self.remoteID, self.contentHash, self.runID) = (destination, dedupeKey, remoteID, contentHash, runID)
        (self.sourceFile, self.sourceSheet, self.sourceRow, self.updatedAt) = (sourceFile, sourceSheet, sourceRow, updatedAt)
        (self.rowHash, self.remoteVersion, self.createdRun) = (rowHash, remoteVersion, createdRun)
    }

    /// From the columns' text, in `LedgerSchema.columns` order (as a ledger's SELECT of
    /// `LedgerSchema.names` gives them); nil when a required one is missing.
    public init?(texts: [String?]) {
        guard texts.count == LedgerSchema.names.count else { return nil }
        let value = Dictionary(uniqueKeysWithValues: zip(LedgerSchema.names, texts))
        guard let destination = value["destination"] ?? nil, let key = value["dedupe_key"] ?? nil, let remoteID = value["remote_id"] ?? nil,
              let hash = value["content_hash"] ?? nil, let run = value["run_id"] ?? nil else { return nil }
        self.init(destination: destination, dedupeKey: key, remoteID: remoteID, contentHash: hash, runID: run, sourceFile: value["source_file"] ?? nil,
                  sourceSheet: value["source_sheet"] ?? nil, sourceRow: (value["source_row"] ?? nil).flatMap { Int($0) }, updatedAt: value["updated_at"] ?? nil,
                  rowHash: value["row_hash"] ?? nil, remoteVersion: value["remote_version"] ?? nil, createdRun: value["created_run"] ?? nil)
    }

    /// The columns' text, in `LedgerSchema.columns` order.
    public var texts: [String?] {
        let value: [String: String?] = [
            "destination": destination, "dedupe_key": dedupeKey, "remote_id": remoteID, "content_hash": contentHash, "run_id": runID,
            "source_file": sourceFile, "source_sheet": sourceSheet, "source_row": sourceRow.map(String.init), "updated_at": updatedAt,
            "row_hash": rowHash, "remote_version": remoteVersion, "created_run": createdRun,
        ]
        return LedgerSchema.names.map { value[$0] ?? nil }
    }
}
