import Foundation
import GRDB
import GRDBSQLite
import LeadCore

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

    /// Runs a statement compiled once per connection (GRDB's statement cache), binding the
    /// values straight through SQLite's C API from one reused buffer (SQLITE_STATIC: no copy):
    /// GRDB's general binding boxes each value and SQLite copies each string, which together
    /// cost more instructions per insert than SQLite's own work.
    func run(_ sql: String, _ values: [String?]) throws {
        scratch.reset()
        for value in values { scratch.text(value) }
        try step(db.cachedStatement(sql: sql))
    }

    /// Runs `statement` with the values in the scratch buffer bound in order.
    func step(_ statement: Statement) throws {
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
    func runRows(_ head: String, _ tuple: String, _ tail: String, count: Int, _ bind: (Int, BindScratch) -> Void) throws {
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
        try insert(rows, FlyrColumns.newContact, into: "contacts", stamped: ["created_at", "updated_at"])
    }

    public func insertAddresses(_ rows: [NewAddress]) throws {
        try insert(rows, FlyrColumns.newAddress, into: "campaign_addresses", stamped: ["created_at"])
    }

    /// New rows of FLYR's `table`: each of `columns` as the description says, a constant written
    /// into the statement, and each of `stamped` the transaction's time (the server's tables
    /// default it; the embedded file's rows all carry their transaction's).
    private func insert<Row>(_ rows: [Row], _ columns: [FlyrColumns.Column<Row>], into table: String, stamped: [String]) throws {
        let names = (columns.map(\.name) + stamped).joined(separator: ", ")
        let places = columns.map { column in
            if case .constant(let text) = column.kind { return "'" + text + "'" }
            return "?"
        } + stamped.map { _ in "?" }
        // The bound columns read in place: iterating them copied each one's name, kind and
        // reader (retained and released) for every row, and an array of their readers alone
        // called each through a thunk.
        let bound = columns.filter { if case .constant = $0.kind { false } else { true } }
        let integers = bound.map { $0.kind == .integer }
        try bound.withUnsafeBufferPointer { bound in
            try runRows("INSERT OR FAIL INTO \(table) (\(names)) VALUES ", "(" + places.joined(separator: ",") + ")", "", count: rows.count) { i, b in
                // One copy of the row for all its columns: `rows[i]` in each column's call copied
                // the whole row (every string retained and released) once a column.
                let row = rows[i]
                for c in bound.indices {
                    if integers[c] {
                        b.integer(bound[c].value(row).flatMap { Int($0) } ?? 0)
                    } else {
                        b.text(bound[c].value(row))
                    }
                }
                for _ in stamped { b.text(now) }
            }
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
        let columns = address.columns + (address.coordinate.map { [(FlyrColumns.coordinate.name, $0)] } ?? [])
        let sets = columns.compactMap { c in policy.addressPolicy.sqlAssignment(current: c.column, new: "?").map { "\(c.column) = \($0)" } }
        guard !sets.isEmpty else { return true }  // never
        try run("UPDATE campaign_addresses SET " + sets.joined(separator: ", ") + " WHERE id = ?", columns.map(\.value) + [id])
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    public func nextSeq(campaign: String) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(seq), 0) + 1 FROM campaign_addresses WHERE campaign_id = ?"),
                         arguments: [campaign]) ?? 1
    }
}
