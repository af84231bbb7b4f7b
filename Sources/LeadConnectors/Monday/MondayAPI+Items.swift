import Foundation

/// The board's columns, items found by a column's values, and the two writes.
extension MondayAPI {
    /// The board's columns, in order; a board the token cannot see (or none) is a
    /// configuration problem naming where the board came from.
    func columns(board: String, from origin: String) throws(MondayError) -> [MondayColumn] {
        let answer = try call("query ($board: [ID!]) { boards(ids: $board) { id name columns { id title type } } }", ["board": [board]], replayable: true)
        guard let found = (answer.data["boards"] as? [[String: Any]])?.first else {
            let why = answer.errors.first.map { ": " + $0.description } ?? ""
            throw MondayError(.configuration, "board \(board) (\(origin)) is not on this monday.com account, or the token's user cannot see it\(why): check \(origin)")
        }
        return (found["columns"] as? [[String: Any]] ?? []).compactMap { column in
            guard let id = column["id"] as? String else { return nil }
            return MondayColumn(id: id, title: column["title"] as? String ?? id, type: column["type"] as? String ?? "text")
        }
    }

    /// Every item of `board` whose `column` holds one of `values`, 500 a page.
    func items(board: String, column: String, values: [String]) throws(MondayError) -> [MondayItem] {
        let fields = "cursor items { id name column_values { id text } }"
        var answer = try call("query ($board: ID!, $column: String!, $values: [String]!) { items_page_by_column_values(limit: 500, board_id: $board, "
                              + "columns: [{column_id: $column, column_values: $values}]) { \(fields) } }",
                              ["board": board, "column": column, "values": values], replayable: true)
        var field = "items_page_by_column_values"
        var found: [MondayItem] = []
        while true {
            if let refused = answer.errors.first { throw MondayError(.gaveUp, "monday.com refused the look-up by \(column): \(refused)") }
            guard let page = answer.data[field] as? [String: Any] else { break }
            found += (page["items"] as? [[String: Any]] ?? []).compactMap(MondayItem.init(json:))
            guard let cursor = page["cursor"] as? String else { break }
            answer = try call("query ($cursor: String!) { next_items_page(limit: 500, cursor: $cursor) { \(fields) } }", ["cursor": cursor], replayable: true)
            field = "next_items_page"
        }
        return found
    }

    /// What a write came to.
    enum Written: Equatable {
        case item(id: String)
        /// `change_multiple_column_values` on an item that is not on the board (deleted, moved).
        case missing
        /// monday.com refused the values, with its reason.
        case refused(String)
    }

    /// `create_item`: sent once; a lost answer throws `answerLost`.
    func create(board: String, name: String, values: String) throws(MondayError) -> Written {
        let answer = try call("mutation ($board: ID!, $name: String!, $values: JSON) { create_item(board_id: $board, item_name: $name, column_values: $values, "
                              + "create_labels_if_missing: true) { id } }", ["board": board, "name": name, "values": values], replayable: false)
        return Self.written(answer, "create_item")
    }

    /// `change_multiple_column_values`: the same values twice change nothing, so it is sent
    /// again after a lost answer like a read.
    func change(board: String, item: String, values: String) throws(MondayError) -> Written {
        let answer = try call("mutation ($board: ID!, $item: ID!, $values: JSON!) { change_multiple_column_values(board_id: $board, item_id: $item, "
                              + "column_values: $values, create_labels_if_missing: true) { id } }", ["board": board, "item": item, "values": values], replayable: true)
        if answer.errors.contains(where: { $0.code == "InvalidItemIdException" || $0.code == "ResourceNotFoundException" }) { return .missing }
        return Self.written(answer, "change_multiple_column_values")
    }

    private static func written(_ answer: Answer, _ field: String) -> Written {
        if let id = ((answer.data[field] as? [String: Any])?["id"]).map({ "\($0)" }), answer.errors.isEmpty { return .item(id: id) }
        let reasons = answer.errors.map(\.description).joined(separator: "; ")
        return .refused(reasons.isEmpty ? "monday.com answered \(field) without an item" : reasons)
    }
}
