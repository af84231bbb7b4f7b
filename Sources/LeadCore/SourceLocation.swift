/// Where a row or a value came from, in the form a user would search for it.
///
/// Rows and lines are 1-based (a CSV record's first physical line, an XLSX sheet row);
/// `recordIndex` is 0-based and counts records as the reader returned them.
/// Rendered once, by `description`: `leads.xlsx › Contacts › row 14 (C "Phone")` for a
/// workbook and `leads.csv:14 ("Phone")` for a text file.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it on the command line, not an absolute path.
    public var file: String
    /// The sheet name; nil for CSV.
    public var sheet: String?
    /// 1-based physical row: the CSV line where the record starts, or the XLSX row number.
    public var row: Int
    /// 0-based ordinal of the record among those the reader returned.
    public var recordIndex: Int
    /// The column, when the location is about one cell.
    public var column: Column?

    public init(file: String, sheet: String? = nil, row: Int, recordIndex: Int = 0, column: Column? = nil) {
        self.file = file
        self.sheet = sheet
        self.row = row
        self.recordIndex = recordIndex
        self.column = column
    }

    /// The same location narrowed to one column.
    public func with(column: Column?) -> SourceLocation {
        var copy = self
        copy.column = column
        return copy
    }

    public var description: String {
        var text: String
        if let sheet {
            text = "\(file) › \(sheet) › row \(row)"
        } else {
            text = "\(file):\(row)"
        }
        if let column { text += " (\(column.rendered(spreadsheet: sheet != nil)))" }
        return text
    }
}

/// A column of the input: its 0-based index and, once the header is known, its name.
public struct Column: Hashable, Sendable {
    /// 0-based position in the row.
    public var index: Int
    /// The header text, when the file has a header row.
    public var name: String?

    public init(index: Int, name: String? = nil) {
        self.index = index
        self.name = name
    }

    /// Excel's letters for the column: 0 → `A`, 25 → `Z`, 26 → `AA`.
    public var letters: String { Column.letters(for: index) }

    public static func letters(for index: Int) -> String {
        var n = index + 1
        var scalars: [Character] = []
        while n > 0 {
            let rem = (n - 1) % 26
            scalars.append(Character(Unicode.Scalar(UInt8(65 + rem))))
            n = (n - 1) / 26
        }
        return String(scalars.reversed())
    }

    func rendered(spreadsheet: Bool) -> String {
        switch (spreadsheet, name) {
        case (true, let name?): return "\(letters) \"\(name)\""
        case (true, nil): return letters
        case (false, let name?): return "\"\(name)\""
        case (false, nil): return "column \(index + 1)"
        }
    }
}
