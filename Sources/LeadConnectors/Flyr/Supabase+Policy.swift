import Foundation
import HTTPKit
import LeadCore

/// Updates of FLYR rows through PostgREST under the mapping's field policies. A bulk upsert
/// (`merge-duplicates`) sets every column its `columns=` names, to null where a row has no
/// value; so the changed rows go in groups that send the same columns, each column only where
/// the lead has a value (a blank cell wipes nothing) and its policy lets it through.
/// `fill_blank` (and `append`: a column holds one value) needs the current rows, read first
/// (`id=in.(…)`, 100 ids a request).
extension SupabaseDestination {
    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: kind, fieldPolicies: Set(FieldPolicy.allCases), options: [])
        self.policy = policy
    }

    /// The changed contacts, with `full_name` in every group (NOT NULL: PostgreSQL checks the
    /// row proposed for insertion before it finds the conflict), the row's own where the lead's
    /// is not sent.
    func update(_ changed: [OutboundLead], user: String) throws {
        let leads = changed.filter { $0.flyr.contactID != nil && $0.flyr.contact != nil }
        let blankName = leads.contains { $0.flyr.contact!.fullName.trimmingCharacters(in: .whitespaces).isEmpty }
        let current = !policy.overwritesAll || blankName ? try currentRows("contacts", policy.contactColumns.map(\.column), ids: leads.map { $0.flyr.contactID! }) : [:]
        let rows = leads.map { lead -> Row in
            let id = lead.flyr.contactID!
            let values = lead.flyr.contact!.columns
            var row = Row(id: id, fixed: [("user_id", user)], sent: Self.sent(policy.contactColumns.map { ($0.column, values[$0.column] ?? nil, $0.policy) }, current: current[id]))
            if row.sent["full_name"] == nil { row.sent["full_name"] = current[id]?["full_name"] ?? lead.flyr.contact!.fullName }
            return row
        }
        try upsert("contacts", rows, order: policy.contactColumns.map(\.column))
    }

    /// The changed campaign addresses, every part following the policy of `address`.
    func update(addresses changed: [OutboundLead], campaign: String) throws {
        let leads = changed.filter { $0.flyr.addressID != nil && $0.flyr.address != nil }
        let order = AddressRecord.columnNames + [FlyrColumns.coordinate.name]
        let current = policy.addressPolicy == .overwrite ? [:] : try currentRows("campaign_addresses", order, ids: leads.map { $0.flyr.addressID! })
        let rows = leads.map { lead in
            let a = lead.flyr.address!
            return Row(id: lead.flyr.addressID!, fixed: [("campaign_id", campaign)],
                       sent: Self.sent((a.columns + [(FlyrColumns.coordinate.name, a.coordinate)]).map { ($0.column, $0.value, policy.addressPolicy) }, current: current[lead.flyr.addressID!]))
        }
        try upsert("campaign_addresses", rows, order: order)
    }

    /// One row of an update: its id, the columns every row of the table carries, and those its
    /// values and policies let through.
    struct Row {
        var id: String
        var fixed: [(String, String)]
        var sent: [String: String]
    }

    /// The columns a row sends: each with a value, as its policy says over the row as read
    /// (nil: not read, or gone, and then only what `overwrite` sends).
    static func sent(_ columns: [(column: String, value: String?, policy: FieldPolicy)], current: [String: String]?) -> [String: String] {
        var sent: [String: String] = [:]
        for (column, value, fieldPolicy) in columns {
            guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            switch fieldPolicy {
            case .overwrite: sent[column] = value
            case .never: continue
            case .fillBlank, .append:
                if let row = current, (row[column] ?? "").trimmingCharacters(in: .whitespaces).isEmpty { sent[column] = value }
            }
        }
        return sent
    }

    /// One merged upsert per set of columns sent (in `order`); rows that send nothing are not sent.
    private func upsert(_ table: String, _ rows: [Row], order: [String]) throws {
        var groups: [[String]: [Row]] = [:]
        for row in rows { groups[order.filter { row.sent[$0] != nil }, default: []].append(row) }
        for (columns, members) in groups.sorted(by: { $0.key.joined(separator: ",") < $1.key.joined(separator: ",") }) where !columns.isEmpty {
            let fixed = members[0].fixed.map(\.0)
            let body = "[" + members.map { row in
                var o = JSONObject()
                o.set("id", row.id)
                for (column, value) in row.fixed { o.set(column, value) }
                for column in columns {
                    // jsonb: the coordinate goes as the object it is, not as a string.
                    if column == "coordinate", let json = row.sent[column] { o.set(column, json: json) } else { o.set(column, row.sent[column]) }
                }
                return o.text
            }.joined(separator: ",") + "]"
            try insert(table, columns: (["id"] + fixed + columns).joined(separator: ","), body: body, merge: true)
        }
    }

    /// For a plan: the changed leads' rows as read, and what would be written over them.
    public func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? {
        try fatal { try FlyrPlan.snapshots(leads, policy: policy) { table, columns, ids in try currentRows(table, columns, ids: ids) } }
    }

    /// `columns` of the rows of `table` with these ids, by id.
    func currentRows(_ table: String, _ columns: [String], ids: [String]) throws -> [String: [String: String]] {
        var found: [String: [String: String]] = [:]
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(start + 100, ids.count)]
            let page = rows(try request("GET", table, query: [("select", (["id"] + columns).joined(separator: ",")), ("id", "in.(" + chunk.joined(separator: ",") + ")")]))
            for row in page {
                guard let id = row["id"] as? String else { continue }
                // A jsonb column (the coordinate) read as its JSON text.
                found[id] = row.compactMapValues { value in
                    if let text = value as? String { return text }
                    guard value is [String: Any], let data = try? JSONSerialization.data(withJSONObject: value) else { return nil }
                    return String(decoding: data, as: UTF8.self)
                }
            }
            start += chunk.count
        }
        return found
    }
}
