import Foundation
import LeadCore

/// The mapping's section for monday.com (`destinations: {monday: {…}}`):
///
/// | option | meaning | default |
/// | --- | --- | --- |
/// | `board` | the board's id | `MONDAY_BOARD_ID` |
/// | `columns: {field: "Column"}` | the column a field goes to, by its id or its title | each field to the column titled like it (`Email`, `Phone`, `Company`, …) |
/// | `dedupe_column` | the field whose column items are found again by | `email` |
///
/// A field named in `columns` must be a column of the board (or the run stops before the
/// first row, listing the board's columns); a field left to its default title is sent only
/// when the board has such a column.
public struct MondayMapping: Sendable, Equatable {
    public var board: String?
    /// Field → a column's id or title.
    public var columns: [String: String] = [:]
    public var dedupe = "email"

    public init(board: String? = nil, columns: [String: String] = [:], dedupe: String = "email") {
        (self.board, self.columns, self.dedupe) = (board, columns, dedupe)
    }

    /// The title each field's column has unless the mapping says otherwise.
    static let defaultTitles: [String: String] = [
        "email": "Email", "phone": "Phone", "mobile": "Mobile", "company": "Company", "address": "Address", "city": "City", "state": "State",
        "zip": "Zip", "country": "Country", "status": "Status", "notes": "Notes", "source": "Source",
    ]

    static let options: Set<String> = ["board", "columns", "dedupe_column"]

    /// The section's options read over `self`.
    func reading(_ options: [String: PolicyOption]) throws(MondayError) -> MondayMapping {
        var read = self
        func text(_ key: String) throws(MondayError) -> String? {
            switch options[key] {
            case nil: return nil
            case .text(let value)?: return value.trimmingCharacters(in: .whitespaces).isEmpty ? nil : value.trimmingCharacters(in: .whitespaces)
            case .table?: throw MondayError(.configuration, "destinations.monday.\(key) is a table; give one value")
            }
        }
        if let board = try text("board") {
            try MondayConfig.checkBoard(board, from: "destinations.monday.board")
            read.board = board
        }
        switch options["columns"] {
        case .table(let table)?:
            for (field, column) in table {
                guard MondayItemPayload.fieldNames.contains(field) else {
                    throw MondayError(.configuration, "destinations.monday.columns names \"\(field)\", which is not a field monday.com is sent; expected one of: \(MondayItemPayload.fieldNames.joined(separator: ", "))")
                }
                read.columns[field] = column
            }
        case .text?: throw MondayError(.configuration, "destinations.monday.columns is a table of field: \"Column title or id\", as in {email: \"Work email\", phone: phone_mk2b}")
        case nil: break
        }
        if let dedupe = try text("dedupe_column") {
            guard MondayItemPayload.fieldNames.contains(dedupe) else {
                throw MondayError(.configuration, "destinations.monday.dedupe_column is \"\(dedupe)\"; give the field whose column finds an item again, one of: \(MondayItemPayload.fieldNames.joined(separator: ", "))")
            }
            read.dedupe = dedupe
        }
        return read
    }

    /// Each field's column on a board with `columns`: by the id or title the mapping gives
    /// (an id first, then a title in any case), else by the field's default title.
    func layout(_ columns: [MondayColumn], board: String) throws(MondayError) -> MondayLayout {
        func named(_ name: String) -> MondayColumn? {
            columns.first { $0.id == name } ?? columns.first { $0.title.caseInsensitiveCompare(name) == .orderedSame }
        }
        let listing = columns.filter { $0.type != "name" }.map { "\"\($0.title)\" (\($0.id), \($0.type))" }.joined(separator: ", ")
        var found: [String: MondayColumn] = [:]
        for field in MondayItemPayload.fieldNames {
            if let name = self.columns[field] {
                guard let column = named(name) else {
                    throw MondayError(.configuration, "board \(board) has no column \"\(name)\" for \(field) (destinations.monday.columns); its columns: \(listing)")
                }
                found[field] = column
            } else if let title = Self.defaultTitles[field], let column = named(title) {
                found[field] = column
            }
        }
        guard let dedupeColumn = found[dedupe] else {
            throw MondayError(.configuration, "board \(board) has no column for \(dedupe), which items are found again by: add a column titled \"\(Self.defaultTitles[dedupe] ?? dedupe)\" to the board, "
                              + "or name one in destinations.monday.columns, or choose another field with destinations.monday.dedupe_column; its columns: \(listing)")
        }
        return MondayLayout(columns: found, dedupe: (dedupe, dedupeColumn))
    }
}
