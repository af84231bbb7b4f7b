/// One row as read, before any mapping or normalisation.
///
/// Readers never drop a row silently: recoverable problems (a ragged row, bytes that were
/// not valid in the detected encoding) are recorded in `issues` and the row is still
/// returned. `location` is set before the row leaves the reader.
public struct RawRow: Sendable, Equatable {
    public var location: SourceLocation
    /// Cell text in canonical form (see `leadport cat` in docs/cli.md). A CSV row keeps
    /// every field it had; an XLSX row ends at its last non-empty cell.
    public var cells: [String]
    public var issues: [LeadIssue]
    /// The indices of the cells that a workbook stored as numbers shown as numbers (not dates
    /// or times), in order: a processed workbook writes them as numbers again. Empty for CSV.
    public var numericCells: [Int]

    public init(location: SourceLocation, cells: [String], issues: [LeadIssue] = [], numericCells: [Int] = []) {
        self.location = location
        self.cells = cells
        self.issues = issues
        self.numericCells = numericCells
    }

    /// True when every cell is empty (a blank line, `,,,`, or a row of empty styled cells).
    public var isBlank: Bool { cells.allSatisfy(\.isEmpty) }

    /// True when some cell holds more than white space: the row says something (a title, a
    /// header, a lead), as planning and inspecting look for above a list.
    public var hasText: Bool { cells.contains { $0.contains { !$0.isWhitespace } } }

    /// The cells without the empty ones at the end: the form `cat` prints.
    public var trimmedCells: ArraySlice<String> {
        var end = cells.endIndex
        while end > cells.startIndex, cells[end - 1].isEmpty { end -= 1 }
        return cells[cells.startIndex..<end]
    }
}
