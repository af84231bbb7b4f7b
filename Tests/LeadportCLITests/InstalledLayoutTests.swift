import Foundation
import LeadTesting
import Testing

/// `make install` and `make dist` put the binary in PREFIX/bin and the presets in
/// PREFIX/share/leadport/mappings; the binary must find them there with no repository around it
/// and no LEADPORT_MAPPINGS.
@Suite struct InstalledLayoutTests {
    @Test func presetsAreFoundInShareBesideTheInstalledBinary() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-installed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let bin = prefix.appendingPathComponent("bin")
        let presets = prefix.appendingPathComponent("share/leadport/mappings")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Leadport.binary, to: bin.appendingPathComponent("leadport"))
        // A preset no repository has: found only if the installed folder is the one read.
        try """
            description: "Only in the installed layout"
            target: contacts
            columns:
              "Who": full_name
              "Tel": phone
            """.write(to: presets.appendingPathComponent("installed-only.yaml"), atomically: true, encoding: .utf8)
        let work = prefix.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try "Who,Tel\nAnn Lee,(617) 555-0100\n".write(to: work.appendingPathComponent("list.csv"), atomically: true, encoding: .utf8)

        let result = try Leadport.run(program: URL(fileURLWithPath: "/usr/bin/env"),
                                      ["-u", "LEADPORT_MAPPINGS", bin.appendingPathComponent("leadport").path,
                                       "import", "list.csv", "--preset", "installed-only", "--to", "sqlite:out.db",
                                       "--report", "report.csv", "--progress", "none"],
                                      in: work, environment: ["XDG_CONFIG_HOME": "/nonexistent/leadport-tests"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try CSVRows.read(work.appendingPathComponent("report.csv"))
        let header = try #require(report.first)
        let outcome = try #require(header.firstIndex(of: "outcome"))
        #expect(report.dropFirst().map { $0[outcome] } == ["created"])
    }
}
