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

    /// The staged tree (so the tarball, the .deb and `make install`) carries
    /// share/leadport/installed-files, every file of it, and share/leadport/uninstall.sh, which
    /// removes a tarball unpacked into a prefix and leaves the prefix's other files alone.
    @Test func aTarballInstallCarriesItsListAndUninstaller() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-stage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let stage = work.appendingPathComponent("leadport-x"), prefix = work.appendingPathComponent("prefix")
        let shipped = ["bin/leadport", "share/leadport/mappings/a.yaml", "share/man/man1/leadport.1", "share/doc/leadport/cli.md"]
        for (root, files) in [(stage, shipped), (prefix, ["share/man/man1/other.1"])] {
            for file in files {
                let url = root.appendingPathComponent(file)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.utf8).write(to: url)
            }
        }
        let make = try Leadport.run(program: URL(fileURLWithPath: "/usr/bin/make"), ["-s", "stage-manifest", "STAGE=" + stage.path], in: Fixture.root)
        #expect(make.status == 0, "\(make.stderr)")
        let list = try String(contentsOf: stage.appendingPathComponent("share/leadport/installed-files"), encoding: .utf8)
        #expect(list == (shipped + ["share/leadport/installed-files", "share/leadport/uninstall.sh"]).sorted().joined(separator: "\n") + "\n")

        // As `tar -xzf … -C PREFIX --strip-components=1` would, then the shipped uninstall.sh.
        let tar = try Leadport.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", "tar -C \"$0\" -cf - . | tar -C \"$1\" -xf -", stage.path, prefix.path])
        #expect(tar.status == 0, "\(tar.stderr)")
        let uninstall = try Leadport.run(program: prefix.appendingPathComponent("share/leadport/uninstall.sh"), [])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: prefix.path).filter { path in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path, isDirectory: &folder) && !folder.boolValue
        }
        #expect(left == ["share/man/man1/other.1"], "\(uninstall.stdout)")
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/leadport").path))
    }
}
