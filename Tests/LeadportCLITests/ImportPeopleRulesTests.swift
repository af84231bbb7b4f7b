import Foundation
import LeadTesting
import Testing

/// Issue 12 items 6 and 9 through `import`: an email that needs repair is flagged and not
/// stored (its repair kept only as the suggestion), and a date written with a time keeps its
/// calendar date.
@Suite struct ImportPeopleRulesTests {
    @Test func aRepairableEmailIsFlaggedNotStoredAndADateWithATimeKeepsItsDate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-people-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("list.csv")
        try """
            Name,Email,Signed Up
            Ann Lee,ann lee@example.com,9/19/2014 2:35 PM
            Mr. and Mrs. Craig Courville,craig@example.com,"July 11, 1988"
            """.write(to: csv, atomically: true, encoding: .utf8)
        let export = dir.appendingPathComponent("out.csv")
        let result = try Leadport.run(["import", csv.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path,
                                       "--export", export.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CSVRows.read(export)
        let header = rows[0]
        // The cleaned column, named `NAME (cleaned)` where the list has its own `Email`.
        func cell(_ row: Int, _ name: String) -> String? { (header.firstIndex(of: name + " (cleaned)") ?? header.firstIndex(of: name)).map { rows[row][$0] } }
        #expect(cell(1, "email") == "")
        #expect(cell(1, "email_suggestion") == "annlee@example.com")
        #expect(cell(1, "issues")?.contains("a space in the address") == true)
        #expect(cell(1, "date") == "2014-09-19")
        #expect(cell(2, "email") == "craig@example.com")
        #expect(cell(2, "date") == "1988-07-11")
        #expect([cell(2, "first_name"), cell(2, "last_name")] == ["Craig", "Courville"])
    }
}
