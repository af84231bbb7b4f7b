import Foundation
import HTTPKit
import LeadCore

/// Updates of FLYR contacts through PostgREST under the mapping's field policies. A bulk upsert
/// (`merge-duplicates`) sets every column its `columns=` names, to null where a row has no
/// value; so the changed contacts go in groups that send the same columns, each column only
/// where the lead has a value (a blank cell wipes nothing) and its policy lets it through, and
/// `full_name` always (the row's own where the lead's is not sent).
/// `fill_blank` (and `append`: a column holds one value) needs the current row, read first
/// (`id=in.(…)`, 100 ids a request).
extension SupabaseDestination {
    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: kind, fieldPolicies: Set(FieldPolicy.allCases), options: [])
        self.policy = policy
    }

    func update(_ changed: [OutboundLead], user: String) throws {
        // The current rows, for fill_blank, and for `full_name` (NOT NULL, so in every upsert:
        // PostgreSQL checks the row proposed for insertion before it finds the conflict) where
        // the lead's is not to be sent.
        let reading = !policy.overwritesAll || changed.contains { ($0.contact?.fullName ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        let current = reading ? try currentContacts(changed.compactMap(\.contactID)) : [:]
        var groups: [[String]: [(OutboundLead, [String: String])]] = [:]
        for lead in changed {
            guard let id = lead.contactID, let c = lead.contact else { continue }
            let values: [String: String?] = ["full_name": c.fullName, "phone": c.phone, "email": c.email, "address": c.address, "notes": c.notes]
            var sent: [String: String] = [:]
            for (column, fieldPolicy) in policy.contactColumns {
                guard let value = values[column] ?? nil, !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                switch fieldPolicy {
                case .overwrite: sent[column] = value
                case .never: continue
                case .fillBlank, .append:
                    // A row not read (gone since) keeps what it may hold.
                    guard let row = current[id], (row[column] ?? "").trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                    sent[column] = value
                }
            }
            if sent["full_name"] == nil { sent["full_name"] = current[id]?["full_name"] ?? c.fullName }
            groups[policy.contactColumns.map(\.column).filter { sent[$0] != nil }, default: []].append((lead, sent))
        }
        for (columns, members) in groups.sorted(by: { $0.key.joined(separator: ",") < $1.key.joined(separator: ",") }) where !columns.isEmpty {
            let body = "[" + members.map { lead, sent in
                var o = JSONObject()
                o.set("id", lead.contactID)
                o.set("user_id", user)
                for column in columns { o.set(column, sent[column]) }
                return o.text
            }.joined(separator: ",") + "]"
            try insert("contacts", columns: (["id", "user_id"] + columns).joined(separator: ","), body: body, merge: true)
        }
    }

    /// The contacts' columns an update may write, by id.
    private func currentContacts(_ ids: [String]) throws -> [String: [String: String]] {
        var found: [String: [String: String]] = [:]
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(start + 100, ids.count)]
            let page = rows(try request("GET", "contacts", query: [("select", "id,full_name,phone,email,address,notes"), ("id", "in.(" + chunk.joined(separator: ",") + ")")]))
            for row in page {
                guard let id = row["id"] as? String else { continue }
                found[id] = row.compactMapValues { $0 as? String }
            }
            start += chunk.count
        }
        return found
    }
}
