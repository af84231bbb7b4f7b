import LeadCore
import Testing

@Suite struct SourceLocationTests {
    @Test func rendersWorkbookLocationWithSheetAndColumnLetters() {
        let location = SourceLocation(file: "leads.xlsx", sheet: "Contacts", row: 14, column: Column(index: 2, name: "Phone"))
        #expect(location.description == "leads.xlsx › Contacts › row 14 (C \"Phone\")")
    }

    @Test func rendersCSVLocationWithLineAndHeader() {
        let location = SourceLocation(file: "leads.csv", row: 14, column: Column(index: 3, name: "Phone"))
        #expect(location.description == "leads.csv:14 (\"Phone\")")
        #expect(SourceLocation(file: "a.csv", row: 2, column: Column(index: 0)).description == "a.csv:2 (column 1)")
        #expect(SourceLocation(file: "a.csv", row: 2).description == "a.csv:2")
    }

    @Test(arguments: [(0, "A"), (25, "Z"), (26, "AA"), (51, "AZ"), (52, "BA"), (701, "ZZ"), (702, "AAA"), (16383, "XFD")])
    func columnLetters(index: Int, letters: String) {
        #expect(Column.letters(for: index) == letters)
    }

    @Test func trimmedCellsDropOnlyTrailingEmptyCells() {
        let row = RawRow(location: SourceLocation(file: "f", row: 1), cells: ["", "a", "", "b", "", ""])
        #expect(Array(row.trimmedCells) == ["", "a", "", "b"])
        #expect(RawRow(location: SourceLocation(file: "f", row: 1), cells: ["", ""]).isBlank)
    }
}
