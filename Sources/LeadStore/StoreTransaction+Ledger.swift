import Foundation
import GRDB
import LeadCore

/// The ledger's and the undo history's writes, in the transaction of the rows they record.
extension StoreTransaction {
    /// Records ledger entries. Entries for keys the ledger lacks are plain inserts; `replacing`
    /// entries overwrite what the ledger holds for their keys. (An upsert of many rows makes
    /// SQLite keep a statement journal, so only the few changed leads of a rerun take that way.)
    public func record(_ entries: [LedgerRecord], replacing: Bool = false) throws {
        // Where the records a run creates begin, noted before its first (`ledger_floor`; the
        // undo's look-up): inside the write, so no one else's delete can move the end of the
        // ledger between the two.
        var floored: Set<String> = []
        for entry in entries where entry.created && floored.insert(entry.run).inserted {
            try run("UPDATE leadport_runs SET ledger_floor = (SELECT coalesce(max(rowid), 0) FROM leadport_ledger) WHERE id = ? AND ledger_floor IS NULL", [entry.run])
        }
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
                // Each field read in place: `let e = entries[i]` copied the record (every string
                // retained and released) on the delivery thread.
                b.text(entries[i].destination); b.text(entries[i].key); b.text(entries[i].remoteID); b.text(entries[i].hash); b.text(entries[i].run)
                b.text(entries[i].source.file); b.text(entries[i].source.sheet); b.integer(entries[i].source.row); b.text(now); b.text(entries[i].rowHash)
                b.text(entries[i].remoteVersion); b.text(entries[i].created ? entries[i].run : nil)
            }
    }

    public func record(destination: String, key: String, remoteID: String, hash: String, run: String, source: SourceLocation) throws {
        try record([LedgerRecord(destination: destination, key: key, remoteID: remoteID, hash: hash, run: run, source: source)], replacing: true)
    }

    /// What updates replaced (`leadport undo`): each record's fields before and as written.
    public func recordHistory(_ entries: [HistoryRecord]) throws {
        guard !entries.isEmpty else { return }
        try runRows("INSERT INTO leadport_history (run_id, destination, dedupe_key, remote_id, before, after, previous_hash) VALUES", "(?,?,?,?,?,?,?)", "", count: entries.count) { i, b in
            let e = entries[i]
            b.text(e.run); b.text(e.destination); b.text(e.key); b.text(e.remoteID); b.text(e.before); b.text(e.after); b.text(e.previousHash)
        }
    }
}

/// What the ledger keeps for one lead at one destination.
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
