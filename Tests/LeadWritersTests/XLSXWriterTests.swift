import Foundation
import LeadReaders
import LeadTesting
import LeadWriters
import Testing

private func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-writer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

private func readBack(_ path: String, sheet: String? = nil) throws -> [[String]] {
    let reader = try openRowReader(path: path, options: RowReaderOptions(sheet: sheet))
    var rows: [[String]] = []
    while let row = try reader.next() { rows.append(row.cells) }
    return rows
}

/// What openpyxl, a reader LeadPort does not share code with, makes of a workbook.
private struct OpenpyxlView: Decodable {
    struct Sheet: Decodable {
        var freeze: String?
        var filter: String?
        var rows: [[Cell]]
    }

    /// `[value, data_type, number_format, bold]`.
    struct Cell: Decodable {
        var value: String?
        var number: Double?
        var type: String
        var format: String
        var bold: Bool

        init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            if let n = try? c.decode(Double.self) {
                number = n
            } else {
                value = try c.decodeNil() ? nil : try c.decode(String.self)
            }
            type = try c.decode(String.self)
            format = try c.decode(String.self)
            bold = try c.decode(Bool.self)
        }
    }

    var sheets: [String]
    var content: [String: Sheet]

    static func of(_ path: String) throws -> OpenpyxlView {
        let result = try Leadport.run(program: URL(fileURLWithPath: "python3"), [Fixture.url("verify/openpyxl_dump.py").path, path])
        #expect(result.status == 0, "openpyxl could not read the workbook: \(result.stderr)")
        return try JSONDecoder().decode(OpenpyxlView.self, from: Data(result.stdout.utf8))
    }
}

@Suite struct XLSXWriterTests {
    @Test func textStaysTextAndDatesAreRealDatesForAnIndependentReader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.xlsx").path
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Leads", header: ["zip", "phone", "date", "row", "note"])
        try writer.write([.text("02134"), .text("+16175550123"), .date("2024-03-01"), .number(5), .text("=1+1")])
        try writer.write([.text("00501-1234"), .text(""), .date("not a date"), .number(2.5), .text("a & b <c>")])
        try writer.close()

        let view = try OpenpyxlView.of(path)
        #expect(view.sheets == ["Leads"])
        let sheet = try #require(view.content["Leads"])
        #expect(sheet.freeze == "A2")
        #expect(sheet.filter == "A1:E3")
        #expect(sheet.rows[0].allSatisfy { $0.bold })
        let first = sheet.rows[1]
        #expect(first[0].value == "02134" && first[0].type == "s" && first[0].format == "@")
        #expect(first[1].value == "+16175550123" && first[1].type == "s")
        #expect(first[2].value == "2024-03-01" && first[2].type == "d" && first[2].format == "yyyy\\-mm\\-dd")
        #expect(first[3].number == 5 && first[3].type == "n")
        // Never a formula: an inline string is text whatever it starts with.
        #expect(first[4].value == "=1+1" && first[4].type == "s")
        let second = sheet.rows[2]
        #expect(second[0].value == "00501-1234")
        #expect(second[1].value == nil)
        #expect(second[2].value == "not a date" && second[2].type == "s")
        #expect(second[3].number == 2.5)
        #expect(second[4].value == "a & b <c>")
    }

    @Test func awkwardTextRoundTripsThroughLeadPortsOwnReader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("awkward.xlsx").path
        let awkward = [
            "  leading and trailing spaces  ", "line one\r\nline two", "bell\u{7}and\u{1}nul-ish", "literal _x0041_ stays",
            "\"quotes\" & 'apostrophes' <tags>", "Zoë Ñúñez 😀 日本", "_x005F_",
        ]
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Awkward", header: awkward.indices.map { "c\($0)" })
        try writer.write(awkward.map(SheetCell.text))
        try writer.close()
        let rows = try readBack(path)
        #expect(rows.count == 2)
        #expect(rows[1] == awkward)
    }

    @Test func aCellOverExcelsLimitIsCutAndCounted() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("huge.xlsx").path
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Huge", header: ["text"])
        try writer.write([.text(String(repeating: "é", count: 40_000))])
        try writer.write([.text(String(repeating: "a", count: 32_767))])
        try writer.close()
        #expect(writer.truncatedCells == 1)
        let rows = try readBack(path)
        #expect(rows[1][0].count == 32_767)
        #expect(rows[2][0].count == 32_767)
    }

    @Test func rowsPastTheSheetLimitContinueInANewSheetWithTheHeader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("long.xlsx").path
        let writer = try XLSXWriter(path: path, rowLimit: 3)
        try writer.startSheet("List", header: ["n"])
        for n in 1...5 { try writer.write([.number(Double(n))]) }
        try writer.close()
        let view = try OpenpyxlView.of(path)
        #expect(view.sheets == ["List", "List (2)", "List (3)"])
        #expect(try readBack(path, sheet: "List") == [["n"], ["1"], ["2"]])
        #expect(try readBack(path, sheet: "List (2)") == [["n"], ["3"], ["4"]])
        #expect(try readBack(path, sheet: "List (3)") == [["n"], ["5"]])
    }

    @Test func sheetNamesAreMadeAcceptableToExcelAndUnique() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("names.xlsx").path
        let writer = try XLSXWriter(path: path)
        for name in ["leads/2024: [west]?", "LEADS_2024_ _WEST__", "a very long sheet name that Excel would refuse", "'quoted'", ""] {
            try writer.startSheet(name, header: ["x"])
        }
        try writer.close()
        let view = try OpenpyxlView.of(path)
        #expect(view.sheets == ["leads_2024_ _west__", "LEADS_2024_ _WEST__ (2)", "a very long sheet name that Exc", "quoted", "Sheet"])
    }

    @Test func anEmptyWorkbookStillOpens() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("empty.xlsx").path
        try XLSXWriter(path: path).close()
        #expect(try OpenpyxlView.of(path).sheets == ["Sheet1"])
    }

    @Test func noTemporaryFileOutlivesTheWriter() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let writer = try XLSXWriter(path: dir.appendingPathComponent("abandoned.xlsx").path)
            try writer.startSheet("A", header: ["x"])
            try writer.write([.text("y")])
            try writer.startSheet("B", header: ["x"])
            // Dropped without close(), as when an import fails part-way.
        }
        do {
            let writer = try XLSXWriter(path: dir.appendingPathComponent("closed.xlsx").path)
            try writer.startSheet("A", header: ["x"])
            try writer.close()
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        // The abandoned workbook's placeholder goes too: no half-written file to mistake for a result.
        #expect(left == ["closed.xlsx"])
    }

    @Test func anUnwritablePathFailsBeforeAnyRowIsWritten() throws {
        #expect(throws: WriterError.self) { _ = try XLSXWriter(path: "/nonexistent-dir/out.xlsx") }
        #expect(throws: WriterError.self) { _ = try openTableWriter(path: "/tmp/out.ods") }
    }
}
