import Foundation
import LeadSync
import Testing

/// Where a table's watermark moves after a run: to the last settled row every destination
/// took, told apart by its id from the rows sharing its `updated_at`.
@Suite struct WatermarkTests {
    let keys = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-keys-\(UUID().uuidString)").path

    /// Positions as `TableExport.write` lists them: updated, id, settled.
    func write(_ rows: [(String, String, String)]) throws {
        try rows.map { "\($0.0)\t\($0.1)\t\($0.2)\n" }.joined().write(toFile: keys, atomically: true, encoding: .utf8)
    }

    @Test func rowsSharingATimestampAreToldApartByTheirId() throws {
        let tie = "2026-11-27 02:00:00+00"
        try write([(tie, "7", "t"), (tie, "8", "t"), (tie, "9", "t"), ("2026-11-27 02:00:01+00", "3", "t")])
        // Row 3 not taken yet: the mark stops inside the tie, after id 8, so 9 is read again.
        #expect(try TableExport.watermark(keys: keys, through: 2) == TableExport.Watermark(updated: tie, id: "8"))
        #expect(try TableExport.watermark(keys: keys, through: 4) == TableExport.Watermark(updated: "2026-11-27 02:00:01+00", id: "3"))
        #expect(try TableExport.watermark(keys: keys, through: 0) == nil)
    }

    @Test func theMarkStopsBeforeRowsNotYetSettled() throws {
        try write([("2026-11-27 02:00:00+00", "1", "t"), ("2026-11-27 02:00:00+00", "2", "f"), ("2026-11-27 02:00:00+00", "3", "t")])
        #expect(try TableExport.watermark(keys: keys, through: 3) == TableExport.Watermark(updated: "2026-11-27 02:00:00+00", id: "1"))
    }

    @Test func theStateKeepsTheMarkAsText() {
        let mark = TableExport.Watermark(updated: "2026-11-27 02:00:00.5+00", id: "a\tb")
        #expect(TableExport.Watermark(text: mark.text) == mark)
        #expect(TableExport.Watermark(text: "no tab") == nil)
    }
}
