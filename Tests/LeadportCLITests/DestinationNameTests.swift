import Foundation
import LeadTesting
import Testing

/// Issue 26 item 5: a destination's name or scheme in any case names it (`--to HubSpot`,
/// `--to SQLite:FILE`); the path after the colon keeps its case.
@Suite struct DestinationNameTests {
    @Test func aNameInAnyCaseNamesTheDestination() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("leads.csv")
        try "Name,Email\nAnn Lee,ann@example.com\n".write(to: list, atomically: true, encoding: .utf8)
        let embedded = try Leadport.run(["import", list.path, "--to", "SQLite:" + dir.appendingPathComponent("Leads.db").path], in: dir)
        #expect(embedded.status == 0, "\(embedded.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Leads.db").path))
        // Named, so its missing setting is what is said, not an unknown destination.
        let hubspot = try Leadport.run(["import", list.path, "--to", "HubSpot", "--dry-run"], in: dir, environment: ["HUBSPOT_TOKEN": ""])
        #expect(!hubspot.stderr.contains("unknown destination") && hubspot.stderr.contains("HUBSPOT_TOKEN"), "\(hubspot.stderr)")
    }
}
