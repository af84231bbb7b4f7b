import Foundation
import LeadCore

/// One lead's write, and settling a create whose answer was lost.
///
/// monday.com has no idempotency key and no upsert, so a `create_item` whose answer was lost
/// (a dropped connection, a time-out, a 500, 502 or 504) may or may not have made the item. It
/// is never sent again blindly: the item is looked up by its dedupe value, and only when no
/// item holds it is the create sent again (at most `createAttempts` times in all). An update
/// (`change_multiple_column_values`) writes the same values however often it is sent, and
/// `Retry` sends it again by itself.
extension MondayDestination {
    static let createAttempts = 4

    func write(_ lead: OutboundLead, board: String, layout: MondayLayout) throws(MondayError) -> DeliveryResult {
        let payload = MondayItemPayload(lead: lead.lead)
        let dedupe = layout.dedupe
        guard let key = payload[dedupe.field] else {
            return .rejected(reason: "no \(dedupe.field) for the column \"\(dedupe.column.title)\" that monday.com items are found again by, so the row cannot be sent safely: "
                             + "fill it in the list, or choose a field every row has with destinations.monday.dedupe_column")
        }
        if lead.action == .update, let id = lead.remoteID {
            if let result = try change(id, payload, over: takeRead(id), board: board, layout: layout) { return result }
            // The item is gone from the board (deleted, or the board changed): the one holding
            // the dedupe value is the lead's, else a new one is made.
            if let item = try find(key, board: board, layout: layout),
               let result = try change(item.id, payload, over: item, board: board, layout: layout) {
                return result
            }
        }
        return try create(payload, key: key, board: board, layout: layout)
    }

    /// `change_multiple_column_values` with what the field policies let through; nil when the
    /// item is not on the board.
    private func change(_ id: String, _ payload: MondayItemPayload, over item: MondayItem?, board: String, layout: MondayLayout) throws(MondayError) -> DeliveryResult? {
        let (name, fields) = updating(payload, over: item, layout)
        let sent = fields.filter { layout.columns[$0.key] != nil }
        if name == nil, sent.isEmpty { return .updated(remoteID: id) }
        switch try api.change(board: board, item: id, values: layout.columnValues(sent, name: name, country: payload["country"])) {
        case .item(let written): return .updated(remoteID: written)
        case .refused(let reason): return .rejected(reason: reason)
        case .missing: return nil
        }
    }

    private func create(_ payload: MondayItemPayload, key: String, board: String, layout: MondayLayout) throws(MondayError) -> DeliveryResult {
        let values = layout.columnValues(payload.fields, name: nil, country: payload["country"])
        var attempt = 1
        while true {
            do throws(MondayError) {
                switch try api.create(board: board, name: payload.name, values: values) {
                case .item(let id): return .created(remoteID: id)
                case .refused(let reason): return .rejected(reason: reason)
                case .missing: return .rejected(reason: "monday.com did not find board \(board)")
                }
            } catch where error.kind == .answerLost {
                if let item = try find(key, board: board, layout: layout) { return .created(remoteID: item.id) }
                guard attempt < Self.createAttempts else { throw error }
                attempt += 1
            }
        }
    }

    /// The newest item holding `key` in the dedupe column (a lost create made it last).
    func find(_ key: String, board: String, layout: MondayLayout) throws(MondayError) -> MondayItem? {
        let field = layout.dedupe.field
        return try api.items(board: board, column: layout.dedupe.column.id, values: [key])
            .filter { layout.fields(of: $0)[field]?.caseInsensitiveCompare(key) == .orderedSame }
            .max { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
    }

    /// The item `prepare` read for the field policies, forgotten as it is taken.
    private func takeRead(_ id: String) -> MondayItem? { lock.withLock { read.removeValue(forKey: id) } }
}
