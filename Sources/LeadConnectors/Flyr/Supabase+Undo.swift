import Foundation

/// `leadport undo` over Supabase's REST API: FLYR's tables as for PostgreSQL (`FlyrUndo`), a
/// created row deleted and an updated one given back its values, each only while it holds what
/// the run wrote.
extension SupabaseDestination {
    public var undoesUpdates: Bool { true }

    public func writtenVersion(_ lead: OutboundLead) -> String? { FlyrVersion.of(lead) }

    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        try fatal {
            try FlyrUndo.undo(items, dryRun: dryRun, FlyrUndo.Access(read: { [self] in try currentRows($0, $1, ids: $2) }, delete: { [self] table, ids in
                for start in stride(from: 0, to: ids.count, by: 100) {
                    let chunk = ids[start..<min(start + 100, ids.count)]
                    _ = try request("DELETE", table, query: [("id", "in.(" + chunk.joined(separator: ",") + ")")])
                }
            }, set: { [self] table, id, values in
                var body: [String: Any] = [:]
                for (column, value) in values { body[column] = value ?? NSNull() }
                if table == "contacts" { body["updated_at"] = ISO8601DateFormatter().string(from: Date()) }
                let text = String(data: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), encoding: .utf8) ?? "{}"
                _ = try request("PATCH", table, query: [("id", "eq." + id)], body: text)
            }))
        }
    }
}
