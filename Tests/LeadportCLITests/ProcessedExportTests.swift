import Foundation
import LeadTesting
import Testing

/// The processed spreadsheet as a person opens it: each header names one column, numbers stay
/// numbers, and the formula guard touches only what a spreadsheet would run.
@Suite struct ProcessedExportTests {
    let owners = "fixtures/xlsx/owner-columns-named-like-ours-openpyxl.xlsx"

    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private func importing(_ file: String, export: URL, in dir: URL) throws -> Leadport.Result {
        let mapping = dir.appendingPathComponent("mapping.yaml")
        try "columns: {Name: full_name, street: address, city: city, state: state, zip: zip}\n".write(to: mapping, atomically: true, encoding: .utf8)
        return try Leadport.run(["import", file, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--progress", "none",
                                 "--mapping", mapping.path, "--export", export.path])
    }

    @Test func eachHeaderNamesOneColumn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = dir.appendingPathComponent("processed.csv")
        let run = try importing(owners, export: export, in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let header = try #require(try CSVRows.read(export).first)
        let folded = header.map { $0.lowercased() }
        #expect(Set(folded).count == header.count, "repeated headers: \(header)")
        for name in ["street", "city", "state", "zip"] {
            #expect(header.contains(name) && header.contains(name + " (cleaned)"), "\(header)")
        }
    }

    @Test func aNegativeNumberIsNotGuardedAsAFormula() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = dir.appendingPathComponent("processed.csv")
        #expect(try importing(owners, export: export, in: dir).status == 0)
        let rows = try CSVRows.read(export)
        let longitude = try #require(rows[0].firstIndex(of: "Longitude"))
        #expect(rows[1][longitude] == "-121.434879")
        #expect(rows[2][longitude] == "-71.0589")
    }

    /// openpyxl, which shares no code with LeadPort, reads the processed workbook's cells.
    @Test func aWorkbooksNumbersStayNumbers() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = dir.appendingPathComponent("processed.xlsx")
        #expect(try importing(owners, export: export, in: dir).status == 0)
        let script = """
            import json, sys, openpyxl
            ws = openpyxl.load_workbook(sys.argv[1]).active
            rows = [[c.value for c in r] for r in ws.iter_rows()]
            print(json.dumps({"header": rows[0], "first": [[type(v).__name__, v] for v in rows[1]]}))
            """
        let python = try Leadport.run(program: URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, export.path])
        #expect(python.status == 0, "\(python.stderr)")
        let view = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        let header = try #require(view["header"] as? [String])
        let first = try #require(view["first"] as? [[Any]])
        func cell(_ name: String) -> [Any] { first[header.firstIndex(of: name)!] }
        #expect(cell("Latitude")[0] as? String == "float" && cell("Latitude")[1] as? Double == 38.581572)
        #expect(cell("Longitude")[0] as? String == "float" && cell("Longitude")[1] as? Double == -121.434879)
        #expect(cell("Units")[0] as? String == "int")
        // A ZIP keeps its text (and its leading zero, in the second row).
        #expect(cell("zip")[0] as? String == "str")
    }

    @Test func anEmptyWorkbookIsRefusedWithOneMessage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("owners.xlsx")
        try Data().write(to: empty)
        let run = try Leadport.run(["import", empty.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--progress", "none"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("empty") && !run.stderr.contains("CSV"), "\(run.stderr)")
    }
}
