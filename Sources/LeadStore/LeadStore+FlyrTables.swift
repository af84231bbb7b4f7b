import Foundation
import GRDB
import LeadCore

/// FLYR's own tables: campaigns, their addresses and contacts, as plans and undo read and write them.
extension LeadStore {
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
        "contacts": Set(FlyrColumns.contact.map(\.name)),
        "campaign_addresses": Set(FlyrColumns.address.map(\.name)),
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
                                                            contacts: [(id: String, email: String?, phone: String?, name: String?)]) {
        try db.read { db in
            (try Row.fetchAll(db, sql: "SELECT id, house_number, street_name, postal_code FROM campaign_addresses WHERE campaign_id = ?", arguments: [campaign])
                .map { ($0[0], $0[1], $0[2], $0[3]) },
             try Row.fetchAll(db, sql: "SELECT id, email, phone, full_name FROM contacts WHERE campaign_id = ?", arguments: [campaign]).map { ($0[0], $0[1], $0[2], $0[3]) })
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
}
