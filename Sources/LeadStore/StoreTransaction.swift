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
