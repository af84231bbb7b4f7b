import Foundation
import LeadCore

/// A campaign's rows already at a FLYR destination, by what they can be recognised by: an
/// address by its house number, street and ZIP; a contact by its email, else its phone.
public struct FlyrIndex: Sendable {
    public private(set) var addresses: [String: String] = [:]
    public private(set) var contacts: [String: String] = [:]

    public init() {}

    public var isEmpty: Bool { addresses.isEmpty && contacts.isEmpty }

    /// `12 N MAIN ST APT 4|02134`: upper case, spaces squeezed, the ZIP's first five digits.
    public static func addressKey(house: String?, street: String?, postal: String?) -> String? {
        let line = [house, street].compactMap { $0 }.joined(separator: " ")
            .uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !line.isEmpty else { return nil }
        return line + "|" + String((postal ?? "").prefix(5))
    }

    public static func contactKeys(email: String?, phone: String?) -> [String] {
        var keys: [String] = []
        if let email, !email.isEmpty { keys.append("email:" + email.lowercased()) }
        if let phone, !phone.isEmpty { keys.append("phone:" + phone.filter(\.isNumber)) }
        return keys
    }

    public mutating func addAddress(id: String, house: String?, street: String?, postal: String?) {
        if let key = Self.addressKey(house: house, street: street, postal: postal), addresses[key] == nil { addresses[key] = id }
    }

    /// `name`: the contact's full name, which with its phone recognises a person whose email
    /// changed in the list since (`person:`).
    public mutating func addContact(id: String, email: String?, phone: String?, name: String? = nil) {
        for key in Self.contactKeys(email: email, phone: phone) + [Self.personKey(phone: phone, name: name)].compactMap({ $0 }) where contacts[key] == nil {
            contacts[key] = id
        }
    }

    /// `person:DIGITS|full name` (lower case, spaces squeezed), both given.
    static func personKey(phone: String?, name: String?) -> String? {
        let digits = (phone ?? "").filter(\.isNumber)
        let name = (name ?? "").lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return digits.count >= 7 && !name.isEmpty ? "person:" + digits + "|" + name : nil
    }

    /// The contact with `c`'s phone and name whose email is not `c`'s: the same person, whose
    /// email changed in the list since their row was written.
    func rekeyed(_ c: ContactRecord) -> String? {
        // An empty campaign (the first import into it) has no one to find: no key is made.
        guard !contacts.isEmpty, let email = c.email, !email.isEmpty, contacts["email:" + email.lowercased()] == nil else { return nil }
        return Self.personKey(phone: c.phone, name: c.fullName).flatMap { contacts[$0] }
    }

    func address(_ a: AddressRecord) -> String? {
        Self.addressKey(house: a.houseNumber, street: a.streetName, postal: a.postalCode).flatMap { addresses[$0] }
    }

    func contact(_ c: ContactRecord) -> String? {
        // The email decides when there is one: two people may share a phone.
        if let email = c.email, !email.isEmpty { return contacts["email:" + email.lowercased()] }
        return Self.contactKeys(email: nil, phone: c.phone).first.flatMap { contacts[$0] }
    }
}

/// What the destinations that hold FLYR's tables write for a lead: the contact's columns and
/// the campaign address's, hashed for the ledger, in `FlyrColumns`' order (the address's
/// position after its text columns). A column added after ledgers held these hashes (the
/// status, the position) is mixed, after its name, only when it has a value: a lead without
/// one hashes as before, and a position added to a list later is written to the addresses it made.
enum FlyrPayload {
    static func hash(contact: ContactRecord?, address: AddressRecord?) -> String {
        var h = FNV64()
        h.mix(contact == nil ? nil : "contact")
        if let c = contact {
            for field in FlyrColumns.contact { mix(field, of: c, into: &h) }
        }
        h.mix(address == nil ? nil : "address")
        if let a = address {
            for field in FlyrColumns.address { mix(field, of: a, into: &h) }
            mix(FlyrColumns.coordinate, of: a, into: &h)
        }
        return String(h.value, radix: 16)
    }

    private static func mix<Record>(_ field: FlyrColumns.Field<Record>, of record: Record, into h: inout FNV64) {
        let value = field.value(record)
        guard field.optionalInHash else { return h.mix(value) }
        if let value {
            h.mix(field.name)
            h.mix(value)
        }
    }
}

/// `prepare` for the destinations that hold FLYR's tables (PostgreSQL and Supabase): new leads
/// get ids fixed by the destination, the campaign and their key, and leads whose rows the
/// campaign already has (put there by the FLYR app, another machine's import, or a run killed
/// before it recorded what it had sent) take those rows' ids instead of new ones. A lead all
/// of whose rows are there is an update of them when they hold other values than it would
/// write (under the field policies), and is left alone when they hold the same.
public final class FlyrPlanner {
    public typealias Read = (_ table: String, _ columns: [String], _ ids: [String]) throws -> [String: [String: String]]
    private let ledgerName: String
    private let load: (String) throws -> FlyrIndex
    private let read: Read
    /// A new row's id (`contact` or `address`); by default fixed by the lead (`FlyrID.stable`).
    private let newID: ((OutboundLead, String) -> String)?
    private var index: (campaign: String, rows: FlyrIndex)?

    /// `load` reads a campaign's rows, once per campaign and only when a batch has new leads;
    /// `read` the values of rows found there.
    public init(ledgerName: String, load: @escaping (String) throws -> FlyrIndex, read: @escaping Read, newID: ((OutboundLead, String) -> String)? = nil) {
        self.ledgerName = ledgerName
        self.load = load
        self.read = read
        self.newID = newID
    }

    public func prepare(_ leads: inout [OutboundLead], campaign: String?, policy: DestinationPolicy) throws {
        guard leads.contains(where: { $0.action == .create }) else { return }
        var known = FlyrIndex()
        if let campaign {
            if index?.campaign != campaign { index = (campaign, try load(campaign)) }
            known = index!.rows
        }
        let scope = campaign ?? ""
        for k in leads.indices where leads[k].action == .create {
            // The rows once (a cast each time they are asked for); their records copied only
            // to be looked up in a campaign that has rows.
            let rows = leads[k].flyr
            rows.createsAddress = false
            rows.createsContact = false
            if rows.hasAddress {
                if !known.addresses.isEmpty, let found = known.address(rows.address!) {
                    rows.addressID = found
                } else {
                    rows.addressID = newID?(leads[k], "address") ?? FlyrID.stable(ledgerName, scope, leads[k].key, "address")
                    rows.createsAddress = true
                }
            }
            if rows.hasContact {
                if campaign != nil, !known.contacts.isEmpty, let found = known.contact(rows.contact!) {
                    rows.contactID = found
                } else if campaign != nil, !known.contacts.isEmpty, let found = known.rekeyed(rows.contact!) {
                    // The campaign's contact under the lead's old email: updated with the new.
                    rows.contactID = found
                    leads[k].matched = "matched by phone and name to the campaign's contact \(found): its dedupe key changed"
                } else {
                    rows.contactID = newID?(leads[k], "contact") ?? FlyrID.stable(ledgerName, scope, leads[k].key, "contact")
                    rows.createsContact = true
                }
            }
            leads[k].settleFlyrID()
            leads[k].alreadyThere = !rows.createsAddress && !rows.createsContact
            // A contact (or, for addresses alone, an address) already in the campaign: create_only skips it.
            leads[k].found = rows.hasContact ? !rows.createsContact : rows.hasAddress && !rows.createsAddress
        }
        // Rows found whole: an update where they differ from what the lead would write.
        let found = leads.indices.filter { leads[$0].action == .create && leads[$0].alreadyThere }
        guard !found.isEmpty else { return }
        var updates = found.map { k in
            var lead = leads[k]
            lead.action = .update
            return lead
        }
        let snapshots = try FlyrPlan.snapshots(updates, policy: policy, read: read)
        for (n, k) in found.enumerated() where !snapshots[n].changed.isEmpty {
            updates[n].alreadyThere = false
            leads[k] = updates[n]
        }
    }
}

/// A plan's view of FLYR's rows (`Destination+Plan`), shared by every destination that holds
/// FLYR's tables (PostgreSQL, Supabase, and the embedded database): fields are named
/// `contacts.COLUMN` and `campaign_addresses.COLUMN`, and written as those destinations write
/// them — a new lead's new rows whole; a changed lead's rows column by column, as the mapping's
/// policies say (`contactColumns`, `addressPolicy`); rows found already in the campaign are
/// left as they are.
public enum FlyrPlan {
    public static let contactColumns = FlyrColumns.contact.map(\.name)

    /// `read(table, columns, ids)` gives the rows of `table` with those ids, by id (only the
    /// rows of changed leads are read).
    public static func snapshots(_ leads: [OutboundLead], policy: DestinationPolicy,
                                 read: (_ table: String, _ columns: [String], _ ids: [String]) throws -> [String: [String: String]]) throws -> [FieldSnapshot] {
        let contactIDs = leads.compactMap { $0.action == .update && $0.flyr.hasContact ? $0.flyr.contactID : nil }
        let addressIDs = leads.compactMap { $0.action == .update && $0.flyr.hasAddress ? $0.flyr.addressID : nil }
        let contacts = contactIDs.isEmpty ? [:] : try read("contacts", contactColumns, contactIDs)
        let addresses = addressIDs.isEmpty ? [:] : try read("campaign_addresses", AddressRecord.columnNames, addressIDs)
        let contactPolicy = Dictionary(uniqueKeysWithValues: policy.contactColumns.map { ("contacts." + $0.column, $0.policy) })
        return leads.map { lead in
            var before: [String: String]?
            var after: [String: String] = [:]
            func part(_ new: [String: String?], held: [String: String]?, creating: Bool, policy fieldPolicy: (String) -> FieldPolicy) {
                if creating {
                    after.merge(FieldSnapshot.creating(new).after) { $1 }
                } else if let held {
                    let update = FieldSnapshot.updating(held, with: new, policy: fieldPolicy)
                    before = (before ?? [:]).merging(update.before ?? [:]) { $1 }
                    after.merge(update.after) { $1 }
                } else {
                    // Changed, but its row is gone from the destination: what would be sent is
                    // what it has now (nothing to read).
                    after.merge(FieldSnapshot.updating([:], with: new, policy: fieldPolicy).after) { $1 }
                }
            }
            if let contact = lead.flyr.contact, lead.action == .update ? lead.flyr.contactID != nil : lead.flyr.createsContact {
                let new = Dictionary(uniqueKeysWithValues: contact.columns.map { ("contacts." + $0.key, $0.value) })
                let held = lead.flyr.contactID.flatMap { contacts[$0] }.map { Dictionary(uniqueKeysWithValues: $0.map { ("contacts." + $0.key, $0.value) }) }
                part(new, held: held, creating: lead.action == .create, policy: { contactPolicy[$0] ?? .overwrite })
            }
            if let address = lead.flyr.address, lead.action == .update ? lead.flyr.addressID != nil : lead.flyr.createsAddress {
                let new = Dictionary(uniqueKeysWithValues: address.columns.map { ("campaign_addresses." + $0.column, $0.value) })
                let held = lead.flyr.addressID.flatMap { addresses[$0] }.map { Dictionary(uniqueKeysWithValues: $0.map { ("campaign_addresses." + $0.key, $0.value) }) }
                part(new, held: held, creating: lead.action == .create, policy: { _ in policy.addressPolicy })
            }
            return FieldSnapshot(before: before, after: after)
        }
    }
}

/// What LeadPort wrote of a FLYR row, as one hash (the ledger's `remote_version` for FLYR's
/// tables): `leadport undo` reads the row again, and removes it only when the same columns hash
/// the same — when no person changed them since. Written `HASH:MASK`, the mask naming the
/// columns written with a value (the others, left to the database's defaults, are not compared).
public enum FlyrVersion {
    /// Columns, in the order of the mask's bits: `FlyrColumns.contact`, then `FlyrColumns.address`.
    static let columns: [String] = FlyrColumns.contact.map { "contacts." + $0.name } + FlyrColumns.address.map { "campaign_addresses." + $0.name }

    /// The version of a contact and address as written (nil parts: not written by this lead).
    /// Worked out for every row an import creates, on the thread that records them: values
    /// are taken straight from the records, with no dictionary or copy made.
    public static func of(contact: ContactRecord?, address: AddressRecord?) -> String {
        // One pass: a column's bit is set and its name and value hashed as it is read, with no
        // array of values made (the hash takes the written columns in the mask's order either
        // way); the names' bytes are laid out once, in `columnBytes`.
        columnBytes.withUnsafeBufferPointer { names in
            columnEnds.withUnsafeBufferPointer { ends in
                var version = Hashing(names: names, ends: ends)
                // Each record unwrapped once (`flatMap(field.value)` copied the whole record for
                // each of its columns), and the columns read in place (iterating them copied each
                // one's name and both its closures for every row; an array of their readers
                // alone called each through a thunk).
                if let contact {
                    FlyrColumns.contact.withUnsafeBufferPointer { fields in
                        for k in fields.indices { version.take(fields[k].value(contact)) }
                    }
                } else {
                    version.skip(FlyrColumns.contact.count)
                }
                if let address {
                    FlyrColumns.address.withUnsafeBufferPointer { fields in
                        for k in fields.indices { version.take(fields[k].value(address)) }
                    }
                }
                return hex(version.hash.value, version.mask)
            }
        }
    }

    /// The hash and mask as the columns are taken in order. (A struct's own state: a nested
    /// function's captured variables were checked for exclusive access at every use.)
    private struct Hashing {
        let names: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>
        var hash = FNV64()
        var mask: UInt64 = 0
        var k = 0

        init(names: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int>) { (self.names, self.ends) = (names, ends) }

        /// The next column: written (its bit set, its name and value hashed) when it is not
        /// blank, judged from the bytes the hash reads.
        mutating func take(_ value: String?) {
            defer { k += 1 }
            guard var value else { return }
            value.withUTF8 { bytes in
                guard !FlyrVersion.isBlank(bytes) else { return }
                mask |= 1 << UInt64(k)
                hash.mix(bytes: UnsafeBufferPointer(rebasing: names[(k == 0 ? 0 : ends[k - 1])..<ends[k]]))
                hash.mix(bytes: bytes)
            }
        }

        /// Column `column` as written, whatever it holds: its bit set, its name and value hashed.
        mutating func add(_ value: String, at column: Int) {
            var value = value
            mask |= 1 << UInt64(column)
            hash.mix(bytes: UnsafeBufferPointer(rebasing: names[(column == 0 ? 0 : ends[column - 1])..<ends[column]]))
            value.withUTF8 { hash.mix(bytes: $0) }
        }

        mutating func skip(_ count: Int) { k += count }
    }

    /// `columns`' names, their UTF-8 bytes one after another, and where each ends.
    private static let columnBytes: [UInt8] = columns.flatMap { Array($0.utf8) }
    private static let columnEnds: [Int] = {
        var end = 0
        return columns.map { end += $0.utf8.count; return end }
    }()

    /// `HASH:MASK` in lower-case hexadecimal without leading zeros, as `String(_:radix: 16)`
    /// writes each, in one string made once.
    static func hex(_ hash: UInt64, _ mask: UInt64) -> String {
        String(unsafeUninitializedCapacity: 33) { out in
            var n = 0
            func put(_ v: UInt64) {
                var shift = 60
                while shift > 0 && (v >> UInt64(shift)) & 0xF == 0 { shift -= 4 }
                while shift >= 0 {
                    let d = UInt8((v >> UInt64(shift)) & 0xF)
                    out[n] = d < 10 ? 0x30 + d : 0x57 + d
                    n += 1
                    shift -= 4
                }
            }
            put(hash)
            out[n] = UInt8(ascii: ":")
            n += 1
            put(mask)
            return n
        }
    }

    /// Whether rows as read (`contacts` and `campaign_addresses` columns by name; nil: that
    /// table's row is not there or was not written) still hold what `version` says was written.
    public static func holds(_ version: String?, contact: [String: String]?, address: [String: String]?) -> Bool {
        guard let version, let colon = version.lastIndex(of: ":"), let mask = UInt64(version[version.index(after: colon)...], radix: 16) else { return false }
        let values = FlyrPlan.contactColumns.map { contact?[$0] } + AddressRecord.columnNames.map { address?[$0] }
        // A table written from must be there.
        let wroteContact = mask & ((1 << UInt64(FlyrPlan.contactColumns.count)) - 1) != 0
        if wroteContact != (contact != nil) || (mask >> UInt64(FlyrPlan.contactColumns.count) != 0) != (address != nil) { return false }
        // A column the run left empty that holds something now was filled by someone since
        // (but for the status a new contact is given when the list has none: `new`).
        let contactColumns = FlyrPlan.contactColumns.count
        let status = FlyrPlan.contactColumns.firstIndex(of: "status")
        for (k, value) in values.enumerated() where mask & (1 << UInt64(k)) == 0 && !isBlank(value) {
            if k == status, value == "new" { continue }
            if k < contactColumns ? contact != nil : address != nil { return false }
        }
        let hash = columnBytes.withUnsafeBufferPointer { names in
            columnEnds.withUnsafeBufferPointer { ends in
                var written = Hashing(names: names, ends: ends)
                for (k, value) in values.enumerated() where mask & (1 << UInt64(k)) != 0 { written.add(value ?? "", at: k) }
                return written.hash.value
            }
        }
        return String(hash, radix: 16) == String(version[..<colon])
    }

    /// A value counts as written only when it is not blank (a blank cell is never sent).
    fileprivate static func isBlank(_ value: String?) -> Bool {
        guard var value else { return true }
        return value.withUTF8(isBlank)
    }

    /// Spaces and tabs alone, or nothing.
    fileprivate static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { $0 != 0x20 && $0 != 0x09 }
    }
}

/// `leadport undo` for FLYR's tables (the embedded database, PostgreSQL): a created row is
/// deleted and an updated one given back the values it had, each only when it still holds what
/// LeadPort wrote; one a person changed since is left alone, and said so.
public enum FlyrUndo {
    public struct Access {
        /// The rows of a table with these ids: column → value (a column without one left out).
        public var read: (_ table: String, _ columns: [String], _ ids: [String]) throws -> [String: [String: String]]
        public var delete: (_ table: String, _ ids: [String]) throws -> Void
        /// Sets columns of one row (nil: NULL).
        public var set: (_ table: String, _ id: String, _ values: [(column: String, value: String?)]) throws -> Void

        public init(read: @escaping (_ table: String, _ columns: [String], _ ids: [String]) throws -> [String: [String: String]],
                    delete: @escaping (_ table: String, _ ids: [String]) throws -> Void,
                    set: @escaping (_ table: String, _ id: String, _ values: [(column: String, value: String?)]) throws -> Void) {
            (self.read, self.delete, self.set) = (read, delete, set)
        }
    }

    public static func undo(_ items: [UndoItem], dryRun: Bool, _ access: Access) throws -> [UndoResult] {
        let ids = items.map { FlyrID.split($0.remoteID) }
        let contacts = try access.read("contacts", FlyrPlan.contactColumns, ids.compactMap(\.contact))
        let addresses = try access.read("campaign_addresses", AddressRecord.columnNames, ids.compactMap(\.address))
        return try zip(items, ids).map { item, id in
            let contact = id.contact.flatMap { contacts[$0] }, address = id.address.flatMap { addresses[$0] }
            if item.created {
                guard contact != nil || address != nil else { return .undone("already gone") }
                // Which of its rows the lead created, by the version of what was written.
                let parts: [(contact: [String: String]?, address: [String: String]?)] = [(contact, nil), (nil, address), (contact, address)]
                guard let made = parts.first(where: { ($0.contact != nil || $0.address != nil) && FlyrVersion.holds(item.version, contact: $0.contact, address: $0.address) }) else {
                    return .changedSince("its row no longer holds what LeadPort wrote: someone changed it since")
                }
                if !dryRun {
                    if made.contact != nil, let c = id.contact { try access.delete("contacts", [c]) }
                    if made.address != nil, let a = id.address { try access.delete("campaign_addresses", [a]) }
                }
                return .undone(made.contact != nil && made.address != nil ? "contact and address deleted" : made.contact != nil ? "contact deleted" : "address deleted")
            }
            // An update: given back its values when it still holds what was written.
            var now: [String: String] = [:]
            for (column, value) in contact ?? [:] { now["contacts." + column] = value }
            for (column, value) in address ?? [:] { now["campaign_addresses." + column] = value }
            guard contact != nil || address != nil else { return .changedSince("its row was deleted since") }
            let moved = item.after.keys.filter { now[$0] != item.after[$0] }.sorted()
            guard moved.isEmpty else {
                return .changedSince("changed since: " + moved.map { "\($0) is \"\(now[$0] ?? "")\", LeadPort wrote \"\(item.after[$0] ?? "")\"" }.joined(separator: "; "))
            }
            if !dryRun {
                for (table, rowID) in [("contacts", id.contact), ("campaign_addresses", id.address)] {
                    guard let rowID else { continue }
                    let values = item.after.keys.sorted().filter { $0.hasPrefix(table + ".") }.map { (column: String($0.dropFirst(table.count + 1)), value: item.before[$0]) }
                    if !values.isEmpty { try access.set(table, rowID, values) }
                }
            }
            return .undone("restored: " + item.after.keys.sorted().map { "\($0) \"\(item.before[$0] ?? "")\"" }.joined(separator: ", "))
        }
    }
}
