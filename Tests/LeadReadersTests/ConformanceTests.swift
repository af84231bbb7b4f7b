import Foundation
import LeadCore
@testable import LeadReaders
import LeadTesting
import Testing

/// Issue 12 item 4: files other readers read differently, and the limits of a survey.
@Suite struct ConformanceTests {
    private func rows(_ path: String, sheet: String? = nil) throws -> [[String]] {
        let reader = try openRowReader(path: path, options: RowReaderOptions(sheet: sheet))
        var rows: [[String]] = []
        while let row = try reader.next() { rows.append(Array(row.trimmedCells)) }
        return rows
    }

    @Test func aZipWithTwoPartsOfOneNameReadsTheLastOne() throws {
        let path = Fixture.url("xlsx/duplicate-part-names-last-wins.xlsx").path
        #expect(try rows(path)[1] == ["Ann (replaced)", "ann@example.com"])
    }

    @Test(arguments: ["empty-named.xlsx", "cut-to-12-bytes.xlsx", "ole2-header-only.xls", "few-text-bytes-named.xls"])
    func fileTooSmallForAWorkbookIsRefusedNamingIt(file: String) throws {
        let path = Fixture.url("bad/\(file)").path
        #expect {
            _ = try openRowReader(path: path, displayName: file)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(file + ": ") && text.contains("far too small to be a workbook") || text.contains("the file is empty")
        }
    }

    @Test func anEmptyCSVIsStillAnEmptyCSV() throws {
        #expect(try rows(Fixture.url("csv/empty.csv").path) == [])
    }

    @Test func csvTextNamedAsAWorkbookReadsAsCSVWithANote() throws {
        let path = Fixture.url("xlsx/csv-text-named.xlsx").path
        let reader = try openRowReader(path: path, displayName: "leads.xlsx")
        #expect(reader.description.format == .csv)
        #expect(reader.description.note == "leads.xlsx is not a workbook but CSV text; reading it as CSV")
        #expect(readerNote(path: path, displayName: "leads.xlsx") == reader.description.note)
        #expect(readerNote(path: Fixture.url("csv/utf8-plain.csv").path) == nil)
        #expect(readerNote(path: Fixture.url("xlsx/title-rows-above-header.xlsx").path) == nil)
        #expect(try rows(path) == [["Name", "Email"], ["Ann", "ann@example.com"], ["Bob", "bob@example.com"]])
    }

    /// Rows out of order, a column given twice and ISO dates that are empty: `count()` (cat
    /// --format count, inspect's sizes) must agree with the rows read.
    @Test(arguments: [
        #"<row r="5"><c r="A5"><v>1</v></c></row><row r="3"><c r="A3"><v>2</v></c></row>"#,
        #"<row r="2"><c r="A2"><v>1</v></c></row><row r="2"><c r="B2"><v>2</v></c></row>"#,
        #"<row r="1"><c r="B1"><v>1</v></c><c r="B1"><v>2</v></c><c r="A1" t="s"><v>1</v></c><c r="A1"><v>3</v></c></row>"#,
        #"<row r="1"><c r="A1" t="d"><v>T00:00:00</v></c><c r="B1" t="d"><v>Z</v></c></row><row r="2"><c><v>1</v></c></row>"#,
        #"<row r="1"><c r="B1"><v>1</v></c><c r="XFD1"><v>2</v></c><c r="B1"><v>3</v></c></row><row r="2"><c r="CZ2"><v>4</v></c></row>"#,
    ])
    func countAgreesWithRowsOnDegenerateSheets(sheetData: String) throws {
        let strings = SharedStrings(limit: 1 << 20, file: "t.xlsx")
        try push("<sst><si><t>a</t></si><si><t></t></si></sst>", to: strings)
        func handler() -> SheetHandler {
            SheetHandler(strings: strings, kinds: [.number], date1904: false, file: "t.xlsx", sheet: "S", maxCellBytes: 1 << 10)
        }
        let xml = "<worksheet><sheetData>\(sheetData)</sheetData></worksheet>"
        let reading = handler()
        try push(xml, to: reading)
        let counting = handler()
        counting.countOnly = true
        try push(xml, to: counting)
        #expect(CellCount(rows: counting.countedRows, cells: counting.countedCells) == reading.outputCount)
    }

    /// A row with a long run of empty cells is kept as its cells and padded when handed over:
    /// the same row a dense one would be, a later cell of a column winning.
    @Test func aSparseRowIsPaddedAsADenseRowWouldBe() throws {
        let strings = SharedStrings(limit: 1 << 20, file: "t.xlsx")
        let handler = SheetHandler(strings: strings, kinds: [.number], date1904: false, file: "t.xlsx", sheet: "S", maxCellBytes: 1 << 10)
        try push(#"<worksheet><sheetData><row r="1"><c r="B1"><v>1</v></c><c r="XFD1"><v>2</v></c><c r="B1"><v>3</v></c></row></sheetData></worksheet>"#, to: handler)
        guard case .sparse(let location, let cells)? = handler.output.first else {
            Issue.record("the row was not kept sparse")
            return
        }
        let row = SheetHandler.Output.padded(location, cells)
        #expect(row.cells.count == 16_384)
        #expect(row.cells[1] == "3" && row.cells[16_383] == "2")
        #expect(row.cells.filter { !$0.isEmpty }.count == 2)
    }

    private func push(_ xml: String, to handler: XMLHandler) throws {
        let parser = XMLPushParser(handler: handler, part: "part", file: "t.xlsx")
        try Array(xml.utf8).withUnsafeBytes { try parser.feed($0) }
        try parser.finish()
    }
}

/// A survey sizes a sheet within limits; the whole workbook within a total time.
@Suite struct SurveyTests {
    static let farApart = Fixture.url("xlsx/many-sheets-cells-far-apart.xlsx").path

    @Test func sizesSheetsWithCellsFarApartWithoutReadingTheirBlankRows() throws {
        let surveys = try surveyEverySheet(of: try openRowReader(path: Self.farApart), limits: SurveyLimits(cells: .max, seconds: 60, totalSeconds: 600))
        #expect(surveys.count == 54)
        #expect(surveys[0] == SheetSurvey(rows: 4, cells: 8, columns: 2, complete: true))
        #expect(surveys[1] == SheetSurvey(rows: 300, cells: 600, columns: 16_384, complete: true))
        #expect(surveys[20] == SheetSurvey(rows: 1_048_576, cells: 2, columns: 16_384, complete: true))
        #expect(surveys[40] == surveys[20])
        #expect(surveys[52] == SheetSurvey(rows: 0, cells: 0, columns: 0, complete: true))  // its part is missing
    }

    @Test func aSurveyStopsAtItsCellLimitAndSaysSo() throws {
        let reader = try openRowReader(path: Self.farApart, options: RowReaderOptions(sheet: "Wide 1"))
        let survey = try reader.survey(limits: SurveyLimits(cells: 10, seconds: 60, totalSeconds: 60))
        #expect(!survey.complete)
        #expect(survey.cells >= 10)  // checked between chunks of the sheet's XML
    }

    @Test func sheetsAfterTheTotalTimeAreNotSurveyed() throws {
        let surveys = try surveyEverySheet(of: try openRowReader(path: Self.farApart), limits: SurveyLimits(cells: .max, seconds: 1, totalSeconds: 0))
        #expect(surveys.count == 54 && surveys.allSatisfy { $0 == nil })
    }

    @Test func aCSVSurveyCountsLikeCount() throws {
        let path = Fixture.url("csv/ragged-rows.csv").path
        let survey = try openRowReader(path: path).survey(limits: SurveyLimits())
        let count = try openRowReader(path: path).count()
        #expect(survey.complete && survey.rows == count.rows && survey.cells == count.cells)
        #expect(try surveyEverySheet(of: try openRowReader(path: path), limits: SurveyLimits()) == [])
    }
}
