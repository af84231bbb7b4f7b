import Foundation
import LeadCore
@testable import LeadReaders
import LeadTesting
import Testing

/// Golden files for workbooks: `<file>.jsonl` for the first sheet, `<file>.sheet-<S>.jsonl` for others.
private func goldenCases() -> [(String, String?)] {
    Fixture.all(in: "golden", extensions: ["jsonl"]).map(\.lastPathComponent).compactMap { name in
        guard name.contains(".xlsx") else { return nil }
        let stem = String(name.dropLast(".jsonl".count))
        if let range = stem.range(of: ".sheet-") {
            return (String(stem[..<range.lowerBound]), String(stem[range.upperBound...]))
        }
        return (stem, nil)
    }
}

private func read(_ reader: any RowReader) throws -> [RawRow] {
    var rows: [RawRow] = []
    while let row = try reader.next() { rows.append(row) }
    return rows
}

@Suite struct XLSXRowReaderTests {
    @Test(arguments: goldenCases())
    func rowsMatchTheExpectedOutput(file: String, sheet: String?) throws {
        let suffix = sheet.map { ".sheet-\($0)" } ?? ""
        let expected = try String(contentsOf: Fixture.url("golden/\(file)\(suffix).jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        let reader = try openRowReader(path: Fixture.url("xlsx/\(file)").path, options: RowReaderOptions(sheet: sheet))
        #expect(try read(reader).map { Array($0.trimmedCells) } == expected)
    }

    @Test(arguments: goldenCases())
    func countAgreesWithTheRowsRead(file: String, sheet: String?) throws {
        let path = Fixture.url("xlsx/\(file)").path
        let rows = try read(try openRowReader(path: path, options: RowReaderOptions(sheet: sheet)))
        let cells = rows.reduce(0) { $0 + $1.cells.filter { !$0.isEmpty }.count }
        #expect(try openRowReader(path: path, options: RowReaderOptions(sheet: sheet)).count() == CellCount(rows: rows.count, cells: cells))
    }

    @Test func rowsCarrySheetAndRowNumber() throws {
        let reader = try openRowReader(path: Fixture.url("xlsx/no-r-attributes-sparse.xlsx").path, displayName: "sparse.xlsx")
        let rows = try read(reader)
        #expect(rows.map(\.location.row) == [1, 2, 3, 4, 5])
        #expect(rows.map(\.location.recordIndex) == [0, 1, 2, 3, 4])
        #expect(rows[3].location.description == "sparse.xlsx › S › row 4")
    }

    @Test func listsEverySheetWithStateAndKind() throws {
        let reader = try openRowReader(path: Fixture.url("xlsx/hidden-and-chart-sheets.xlsx").path)
        let sheets = reader.description.sheets
        #expect(sheets.map(\.name) == ["Visible", "Secret", "Chart", "Last"])
        #expect(sheets.map(\.state) == ["visible", "hidden", "visible", "visible"])
        #expect(sheets.map(\.kind) == [.worksheet, .worksheet, .chartsheet, .worksheet])
    }

    @Test func unknownSheetListsTheSheetsThereAre() {
        #expect {
            try openRowReader(path: Fixture.url("xlsx/hidden-and-chart-sheets.xlsx").path, displayName: "w.xlsx",
                              options: RowReaderOptions(sheet: "9"))
        } throws: { error in
            (error as? ReaderError)?.description == "w.xlsx: no sheet 9; the workbook has 4: 1 \"Visible\", 2 \"Secret\", 3 \"Chart\", 4 \"Last\""
        }
    }

    @Test func cellLargerThanTheLimitIsRefusedWithItsCell() throws {
        var options = RowReaderOptions()
        options.maxCellBytes = 8
        let reader = try openRowReader(path: Fixture.url("xlsx/inline-strings-constant-memory.xlsx").path, displayName: "w.xlsx", options: options)
        #expect {
            try read(reader)
        } throws: { error in
            (error as? ReaderError)?.description == "w.xlsx › Sheet1 › row 2 (B): a cell is larger than the 8-byte limit"
        }
    }

    @Test func sharedStringTableLargerThanTheLimitIsRefused() throws {
        var options = RowReaderOptions()
        options.maxSharedStringBytes = 10
        #expect(throws: ReaderError.self) {
            try openRowReader(path: Fixture.url("xlsx/rich-text-escapes-formulas-xlsxwriter.xlsx").path, options: options).next()
        }
    }
}

@Suite struct ExcelValuesTests {
    @Test(arguments: [
        (3.0, "3"), (2.5, "2.5"), (0.1, "0.1"), (1234567.891, "1234567.891"), (0.0000001, "0.0000001"),
        (-0.0, "0"), (1e16, "10000000000000000"), (-1.5e-10, "-0.00000000015"), (0.30000000000000004, "0.30000000000000004"),
        (123456789.0, "123456789"), (1e21, "1000000000000000000000"),
    ])
    func canonicalNumbers(value: Double, text: String) {
        #expect(ExcelValues.canonical(value) == text)
    }

    @Test(arguments: [
        (45352.0, NumberKind.date, false, "2024-03-01"), (45352.5729166667, .dateTime, false, "2024-03-01T13:45:00"),
        // Excel shows what the format asks for: the date alone, or the time alone, whatever the value holds.
        (45352.5729166667, .date, false, "2024-03-01"), (45352.9999884259, .date, false, "2024-03-01"),
        (45352.5729166667, .time, false, "13:45:00"), (1.5, .time, false, "12:00:00"), (45352.0, .dateTime, false, "2024-03-01"),
        (43890.5729166667, .date, true, "2024-03-01"), (43890.5729166667, .time, true, "13:45:00"),
        (43890.5729166667, .dateTime, true, "2024-03-01T13:45:00"),
        (1.0, .date, false, "1900-01-01"), (59.0, .date, false, "1900-02-28"), (60.0, .date, false, "1900-02-29"),
        (61.0, .date, false, "1900-03-01"), (0.0, .date, true, "1904-01-01"), (43891.0, .date, true, "2024-03-02"),
        (0.5729166667, .time, false, "13:45:00"), (1.5, .duration, false, "36:00:00"), (0.999999999, .time, false, "00:00:00"),
        (2958465.0, .date, false, "9999-12-31"),
    ])
    func temporalValues(value: Double, kind: NumberKind, date1904: Bool, text: String) {
        #expect(ExcelValues.temporal(value, kind: kind, date1904: date1904) == text)
    }

    @Test func negativeOrOutOfRangeDatesAreNotDates() {
        #expect(ExcelValues.temporal(-1, kind: .date, date1904: false) == nil)
        #expect(ExcelValues.temporal(2958466, kind: .date, date1904: false) == nil)
    }

    @Test(arguments: [
        ("General", NumberKind.number), ("0.00", .number), ("m/d/yyyy", .date), ("[$-409]mmmm d, yyyy", .date),
        ("h:mm AM/PM", .time), ("mm:ss", .time), ("[h]:mm:ss", .duration), ("0.00\" days\"", .number),
        ("[Red]#,##0", .number), ("0.00E+00", .number), ("\\d0", .number), ("mmm", .date), ("yyyy-mm-dd hh:mm", .dateTime),
        ("m/d/yy h:mm", .dateTime), ("h:mm:ss", .time), ("[$-409]h:mm:ss AM/PM", .time), ("dddd, mmmm d, yyyy", .date),
        ("_(* #,##0_)", .number), ("dd/mm/yyyy;@", .date),
    ])
    func formatCodes(code: String, kind: NumberKind) {
        #expect(NumberKind.classify(formatCode: code) == kind)
    }

    /// Formats of zeros (Excel's ZIP Code, ZIP+4 and Social Security formats) give a whole
    /// number its leading zeros; any other character, a hyphen not between zeros, or a single
    /// zero leaves the number as stored. Sections: the one a positive number shows in, or
    /// conditions choosing among patterns. A code longer than Excel allows, or with more zeros
    /// than an identifier has, is not a padding.
    @Test(arguments: [
        ("00000", [5]), ("00000\\-0000", [5, 4]), ("000-00-0000", [3, 2, 4]), ("00", [2]), ("00000\"-\"0000", [5, 4]),
        ("00000;-00000", [5]), ("00000;@", [5]), ("[<=99999]00000;00000-0000", [5]), ("[>99999]00000-0000;00000", [5, 4]),
        ("0", nil), ("#####", nil), ("00000-", nil), ("-00000", nil), ("00--00", nil), ("00000\\", nil), ("0000\\ 0", nil),
        ("00.00", nil), ("#,##0", nil), ("\"ZIP \"00000", nil), ("", nil), ("00000\"-0000", nil),
        // Tags that change no digit: a locale (Excel's ZIP Code format as some locales write it), a colour.
        ("[$-409]00000", [5]), ("[$-en-US]00000-0000", [5, 4]), ("[Red]00000", [5]), ("[Color12][$-409]00000", [5]),
        ("[Bold]00000", nil), ("[h]00000", nil), ("[$-409]", nil), ("00000;;", [5]), (";;", nil), ("00000;;[$-409]", [5]),
        ("[Red][<=99999]00000;00000-0000", [5]), ("[<=99999][Blue]00000;[Red]00000-0000", [5]),
        ("#,##0;00000", nil), ("[<=99999]00000;#,##0", nil), ("@", nil),
        (String(repeating: "0", count: 30), Array(repeating: 30, count: 1)), (String(repeating: "0", count: 31), nil),
        (String(repeating: "00-", count: 100) + "0", nil), (String(repeating: "0", count: 10_000_000), nil),
    ] as [(String, [Int]?)])
    func zeroPaddingFormats(code: String, groups: [Int]?) {
        #expect(ZeroPadding(formatCode: code)?.groups == groups)
    }

    @Test func zeroPaddedText() {
        func text(_ code: String, _ stored: String) -> String? {
            Array(stored.utf8).withUnsafeBufferPointer { ZeroPadding(formatCode: code)!.text($0) }
        }
        #expect(text("00000", "2134") == "02134")
        #expect(text("00000", "123456") == "123456")
        #expect(text("00000-0000", "21341234") == "02134-1234")
        #expect(text("000-00-0000", "78051120") == "078-05-1120")
        #expect(text("00000-0000", "5011234") == "00501-1234")
        // A five-digit ZIP (or less) under ZIP+4: Excel's `00009-0210` is no one's ZIP.
        #expect(text("00000-0000", "90210") == nil && text("00000-0000", "7102") == nil)
        #expect(text("00000-0000", "123456") == "00012-3456")
        // Other groups are padded as Excel pads them (SSN area numbers 001–009 are real).
        #expect(text("000-00-0000", "1234567") == "001-23-4567" && text("000-00-0000", "5") == "000-00-0005")
        #expect(text("00000\"-\"0000", "21341234") == "02134-1234" && text("00000;@", "2134") == "02134")
        // The usual recipe for a column of ZIPs and ZIP+4s: each number in the section its size chooses.
        let recipe = "[<=99999]00000;00000-0000"
        #expect(text(recipe, "2134") == "02134" && text(recipe, "90210") == "90210" && text(recipe, "21341234") == "02134-1234")
        // Zero in the third section when there is one; a number no condition takes stays the number.
        #expect(text("00000;-00000;000", "0") == "000" && text("[<100]00;[>1000]00000", "500") == nil)
        // Whole numbers however the writer spelt them.
        #expect(text("00000", "2134.0") == "02134" && text("00000", "2.134E3") == "02134" && text("00000", "-0") == "00000" && text("00000", "0") == "00000")
        #expect(text("000-00-0000", "1.2345678E7") == "012-34-5678")
        #expect(text("00000", "2134.5") == nil && text("00000", "-2134") == nil && text("00000", "") == nil && text("00000", "1E20") == nil)
        // An empty zero section shows zero as nothing, and the rest padded; a locale tag changes nothing.
        #expect(text("00000;;", "0") == "" && text("00000;;", "2134") == "02134" && text("[$-409]00000", "501") == "00501")
        #expect(text("[Red][<=99999]00000;00000-0000", "2134") == "02134" && text("[<=99999][Blue]00000;[Red]00000-0000", "21341234") == "02134-1234")
    }

    @Test func builtInFormatIDs() {
        #expect((14...17).allSatisfy { NumberKind.builtIn($0) == .date } && NumberKind.builtIn(22) == .dateTime)
        #expect([18, 19, 20, 21, 45, 47].allSatisfy { NumberKind.builtIn($0) == .time })
        #expect(NumberKind.builtIn(46) == .duration)
        #expect([0, 1, 2, 9, 10, 23, 44, 49].allSatisfy { NumberKind.builtIn($0) == .number })
    }

    @Test func escapesDecode() {
        #expect(String(decoding: OOXMLEscapes.decode(Array("a_x000D__x000A_b".utf8)), as: UTF8.self) == "a\r\nb")
        #expect(String(decoding: OOXMLEscapes.decode(Array("_x005F_x0041_".utf8)), as: UTF8.self) == "_x0041_")
        #expect(String(decoding: OOXMLEscapes.decode(Array("_xD83D__xDE00_".utf8)), as: UTF8.self) == "😀")
        #expect(String(decoding: OOXMLEscapes.decode(Array("_x12_ _xZZZZ_".utf8)), as: UTF8.self) == "_x12_ _xZZZZ_")
    }
}
