import Foundation
import LeadWriters
import Testing

/// The formula guard (OWASP's CSV-injection advice) is for text a spreadsheet would run; a plain
/// number it reads as a number, and a `'` before it would make it text (a longitude of
/// `-121.434879` came out as `'-121.434879`).
@Suite struct CSVWriterTests {
    private func written(_ cells: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-csv-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVWriter(path: path)
        try writer.write(cells)
        try writer.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func plainNumbersKeepTheirSign() throws {
        #expect(try written(["-121.434879", "-5", "-1.5e3", "-0.25", "37.7749"]) == "-121.434879,-5,-1.5e3,-0.25,37.7749\r\n")
    }

    @Test func formulasAndTextStillGuarded() throws {
        #expect(try written(["=SUM(A1:A2)", "-2+3", "+16175550100", "@cmd", "-", "-1.", "-.5x", "-1e"]) ==
                "'=SUM(A1:A2),'-2+3,'+16175550100,'@cmd,'-,-1.,'-.5x,'-1e\r\n")
    }
}
