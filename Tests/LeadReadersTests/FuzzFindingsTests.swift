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
}
