import Foundation
import LeadCore
@testable import LeadReaders
import LeadTesting
import Testing

/// Inputs the fuzz targets (fuzz/Sources, docs/fuzzing.md) found a defect with, kept in
/// fixtures/fuzz/ under the defect's name. A target's first byte is its settings byte.
@Suite struct FuzzFindingsTests {
    private func feed(_ bytes: [UInt8], to handler: XMLHandler) -> Bool {
        let parser = XMLPushParser(handler: handler, part: "xl/sharedStrings.xml", file: "f.xlsx")
        do {
            try bytes.withUnsafeBytes { try parser.feed($0) }
            try parser.finish()
            return true
        } catch {
            return false
        }
    }

    /// `shared-strings`: an `<si>` inside the text of another, with `_xHHHH_` escapes after
    /// it, made the outer item's escape decoding cut the bytes below an offset already
    /// recorded; reading a string then trapped on a reversed range.
    @Test func nestedStringItemsKeepOffsetsGrowing() throws {
        let input = try Data(contentsOf: Fixture.url("fuzz/shared-strings-nested-si-offsets-shrink.bin"))
        let table = SharedStrings(limit: 1 << 20, file: "f.xlsx")
        _ = feed(Array(input.dropFirst()), to: table)
        #expect(zip(table.offsets, table.offsets.dropFirst()).allSatisfy { $0 <= $1 })
        for k in 0..<table.count { _ = table.string(k) }

        let nested = SharedStrings(limit: 1 << 20, file: "f.xlsx")
        #expect(feed(Array("<sst><si><t>a</t><si><t>b_x0041_</t></si><t>c_x0042_</t></si><si><t>d</t></si></sst>".utf8), to: nested))
        #expect((0..<nested.count).map { nested.string($0) } == ["abAcB", "d"])
    }
    /// `sheet-xml`: an inline string (`<is>`) straight under a row, outside any cell, took
    /// itself for a cell's and cut the text from a start left over from the row before, past its
    /// end: a trap. It is now no cell's, and the row reads as its cells say.
    @Test func anInlineStringOutsideACellIsNoCells() throws {
        let handler = SheetHandler(strings: SharedStrings(limit: 1 << 20, file: "f.xlsx"), kinds: [], date1904: false, file: "f.xlsx", sheet: "S", maxCellBytes: 1 << 12)
        let xml = #"<worksheet><sheetData><row r="1"><c><v>3</v></c><c><v>4</v></c></row><row r="2"><is><t>five</t></is></row><row r="3"><c t="inlineStr"><is><t>six</t></is></c></row></sheetData></worksheet>"#
        let parser = XMLPushParser(handler: handler, part: "xl/worksheets/sheet1.xml", file: "f.xlsx")
        try Array(xml.utf8).withUnsafeBytes { try parser.feed($0) }
        try parser.finish()
        var cells: [[String]] = []
        for output in handler.output { if case .row(let row) = output { cells.append(row.cells) } }
        #expect(cells == [["3", "4"], ["six"]], "\(cells)")

        // The fuzzer's own input (its first byte is the target's settings byte) reads or fails
        // with an error, never a trap.
        let input = try Data(contentsOf: Fixture.url("fuzz/sheet-xml-inline-string-outside-a-cell.bin"))
        let found = SheetHandler(strings: SharedStrings(limit: 1 << 20, file: "f.xlsx"), kinds: [], date1904: false, file: "f.xlsx", sheet: "S", maxCellBytes: 1 << 12)
        let fuzzed = XMLPushParser(handler: found, part: "xl/worksheets/sheet1.xml", file: "f.xlsx")
        _ = try? Array(input.dropFirst()).withUnsafeBytes { try fuzzed.feed($0) }
        _ = try? fuzzed.finish()
    }
}
