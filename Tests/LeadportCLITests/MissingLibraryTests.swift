import Foundation
import LeadTesting
import Testing

/// The libraries a command opens on first use (libzip, libxml2, libqrencode), hidden from the
/// binary: each command that needs one stops before it writes anything, with one line naming the
/// file the user gave and the Debian package to install. A library is hidden by mounting
/// /dev/null over it in a mount namespace of the test's own (`unshare -m`), which needs the right to
/// make one; where that is refused (an unprivileged container), the suite does not run.
private let canHideLibraries: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    return (try? Leadport.run(program: URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "true"]))?.status == 0
}()

@Suite(.enabled(if: canHideLibraries)) struct MissingLibraryTests {
    private let dir: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-missing-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// `leadport arguments…` with the shared objects named `library.so*` hidden.
    private func run(hiding library: String, _ arguments: [String]) throws -> Leadport.Result {
        let script = #"""
        for f in /lib/*/"$0".so* /usr/lib/*/"$0".so*; do [ -f "$f" ] && mount --bind /dev/null "$f"; done
        exec "$@"
        """#
        return try Leadport.run(program: URL(fileURLWithPath: "/usr/bin/unshare"),
                                ["-m", "sh", "-c", script, library, Leadport.binary.path] + arguments,
                                environment: ["XDG_CONFIG_HOME": "/nonexistent/leadport-tests"])
    }

    private func list() throws -> String {
        let path = dir.appendingPathComponent("list.csv").path
        try "Name,Email,Address,City,State,ZIP\nAnn Lee,ann@example.com,12 Main St,Boston,MA,02134\nBob Ray,bob@example.com,9 Elm Ave,Newark,NJ,07102\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aWorkbookExportWithoutLibzipStopsBeforeAnyRowIsWritten() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("leads.db").path
        let export = dir.appendingPathComponent("cleaned.xlsx").path
        let result = try run(hiding: "libzip", ["import", try list(), "--to", "sqlite:" + db, "--export", export, "--progress", "none"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "leadport: \(export): cannot write workbooks: libzip is not installed (Debian: apt install libzip4)\n")
        let contacts = try Leadport.run(program: URL(fileURLWithPath: "python3"),
                                        ["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM contacts').fetchone()[0])", db])
        #expect(contacts.stdout == "0\n", "\(contacts.stdout)\(contacts.stderr)")
        #expect(!FileManager.default.fileExists(atPath: export))
    }

    @Test(arguments: [("libzip", "libzip4"), ("libxml2", "libxml2")])
    func aWorkbookIsNotReadWithoutItsLibraries(library: String, package: String) throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try run(hiding: library, ["cat", "fixtures/xlsx/messy-open-house-leads.xlsx", "--format", "count"])
        #expect(result.status == 1)
        #expect(result.stderr == "leadport: fixtures/xlsx/messy-open-house-leads.xlsx: cannot read workbooks: \(library) is not installed (Debian: apt install \(package))\n")
        // A CSV needs neither.
        #expect(try run(hiding: library, ["cat", try list(), "--format", "count"]).status == 0)
    }

    @Test func aPrintRunWithoutLibqrencodeStopsBeforeItsOutputIsMade() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("leads.db").path
        #expect(try Leadport.run(["import", try list(), "--to", "sqlite:" + db, "--campaign", "Spring farm", "--progress", "none"]).status == 0)
        let out = dir.appendingPathComponent("print").path
        let result = try run(hiding: "libqrencode", ["export", "vdp", "Spring farm", "--to", "sqlite:" + db, "--out", out])
        #expect(result.status == 1)
        #expect(result.stderr == "leadport: cannot make QR codes: libqrencode is not installed (Debian: apt install libqrencode4)\n")
        #expect(!FileManager.default.fileExists(atPath: out))
        // With the library there, the same folder is free for the run.
        #expect(try Leadport.run(["export", "vdp", "Spring farm", "--to", "sqlite:" + db, "--out", out]).status == 0)
    }
}
