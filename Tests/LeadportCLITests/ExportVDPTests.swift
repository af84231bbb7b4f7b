import Foundation
import GRDB
import LeadTesting
import Testing

/// `leadport export vdp` through the binary: slugs made once and kept in `qr_codes`, every
/// address in the manifest, and every PNG decoded back to its URL by zbar.
struct VDPExportRun {
    let t: RemoteImport

    init() throws { t = try RemoteImport() }

    func remove() { t.remove() }

    /// An embedded file with "Spring farm" of `count` addresses: its `sqlite:` destination.
    func imported(count: Int) throws -> String {
        let db = "sqlite:" + t.dir.appendingPathComponent("leads.db").path
        #expect(try t.run(try t.list("leads.csv", count: count), to: db, user: nil).result.status == 0)
        return db
    }

    /// `leadport export vdp CAMPAIGN --to DEST --out DIR --progress jsonl` and the manifest's rows (header first).
    func export(_ campaign: String = "Spring farm", to destination: String, extra: [String] = []) throws -> (result: Leadport.Result, rows: [[String]], dir: URL) {
        let dir = t.dir.appendingPathComponent("vdp-\(UUID().uuidString)")
        let result = try Leadport.run(["export", "vdp", campaign, "--to", destination, "--out", dir.path, "--progress", "jsonl"] + extra)
        let manifest = dir.appendingPathComponent("vdp-manifest.csv")
        let rows = FileManager.default.fileExists(atPath: manifest.path) ? try CSVRows.read(manifest) : []
        return (result, rows, dir)
    }

    /// What zbar reads in each row's image: the row's URL, for every row with an image.
    static func expectImagesDecode(_ rows: [[String]], in dir: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let zbar = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Issue.record("zbarimg is missing, so the QR images cannot be checked: `make deps` installs it (Debian's zbar-tools)", sourceLocation: sourceLocation)
            return
        }
        for row in rows.dropFirst() where !row[6].isEmpty {
            let decoded = try Leadport.run(program: URL(fileURLWithPath: zbar), ["--raw", "-q", dir.appendingPathComponent(row[6]).path])
            #expect(decoded.status == 0, "zbarimg \(row[6]): \(decoded.stderr)", sourceLocation: sourceLocation)
            #expect(decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == row[5], "\(row[6])", sourceLocation: sourceLocation)
        }
    }

    /// address id → slug, from a manifest.
    static func slugs(_ rows: [[String]]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: rows.dropFirst().filter { !$0[4].isEmpty }.map { ($0[9], $0[4]) })
    }
}

@Suite(.serialized) struct ExportVDPTests {
    static let header = ["sequence", "salutation", "delivery_line", "last_line", "slug", "qr_url", "image", "outcome", "reason", "address_id"]

    @Test func embeddedFileGetsSlugsOnceAndEveryImageDecodes() throws {
        let run = try VDPExportRun()
        defer { run.remove() }
        let db = run.t.dir.appendingPathComponent("leads.db").path
        let list = try run.t.list("leads.csv", count: 3)
        #expect(try run.t.run(list, to: "sqlite:" + db, user: nil).result.status == 0)
        // An address with no street: listed, not dropped, and given no code.
        try DatabaseQueue(path: db).write { db in
            try db.execute(sql: """
                INSERT INTO campaign_addresses (id, campaign_id, locality, region, postal_code, seq, source)
                SELECT 'no-street', id, 'Boston', 'MA', '02134', 4, 'import_list' FROM campaigns WHERE name = 'Spring farm'
                """)
        }

        let first = try run.export(to: "sqlite:" + db)
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(first.rows.first == Self.header)
        #expect(first.rows.count == 5)
        #expect(first.rows.dropFirst().map { $0[0] } == ["1", "2", "3", "4"])
        #expect(first.rows[1][1] == "Person 1 Lee")
        #expect(first.rows[1][2] == "1 MAIN ST")
        #expect(first.rows[1][3] == "BOSTON MA 02134")
        #expect(first.rows.dropFirst(1).prefix(3).allSatisfy { $0[7] == "created" && $0[4].count == 8 && $0[5] == "https://flyrpro.app/q/" + $0[4] })
        #expect(first.rows[4][7] == "skipped" && first.rows[4][4].isEmpty && first.rows[4][6].isEmpty && first.rows[4][8].contains("no delivery line"))
        #expect(first.rows[1][6] == "qr/00001-\(first.rows[1][4]).png")
        try VDPExportRun.expectImagesDecode(first.rows, in: first.dir)
        #expect(FileManager.default.fileExists(atPath: first.dir.appendingPathComponent("README.txt").path))
        let events = first.result.stderr.split(separator: "\n")
        #expect(events.filter { $0.contains("\"event\":\"row\"") }.count == 4)
        #expect(events.filter { $0.contains("\"event\":\"row\"") }.last?.contains("\"reason\":\"no delivery line") == true)
        #expect(events.filter { $0.contains("null") }.isEmpty, "\(events)")
        #expect(events.last?.contains("\"event\":\"run_finished\"") == true && events.last?.contains("\"created\":3") == true)
        let codes = { try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM qr_codes") ?? -1 } }
        #expect(try codes() == 3)

        // Again: the same slugs, nothing written.
        let second = try run.export(to: "sqlite:" + db)
        #expect(second.result.status == 0, "\(second.result.stderr)")
        #expect(VDPExportRun.slugs(second.rows) == VDPExportRun.slugs(first.rows))
        #expect(second.rows.dropFirst().prefix(3).allSatisfy { $0[7] == "unchanged" })
        #expect(try codes() == 3)

        // A new address in the campaign gets a new slug; the others keep theirs.
        let more = try run.t.list("more.csv", count: 4)
        #expect(try run.t.run(more, to: "sqlite:" + db, user: nil).result.status == 0)
        let third = try run.export(to: "sqlite:" + db)
        #expect(third.result.status == 0, "\(third.result.stderr)")
        let slugs = VDPExportRun.slugs(third.rows)
        #expect(slugs.count == 4)
        #expect(slugs.filter { VDPExportRun.slugs(first.rows)[$0.key] == $0.value }.count == 3)
        #expect(third.rows.filter { $0[7] == "created" }.count == 1)
        #expect(Set(slugs.values).count == 4)
        #expect(try codes() == 4)
        try VDPExportRun.expectImagesDecode(third.rows, in: third.dir)
    }

    @Test func postgresGetsSlugsOnceAndEveryImageDecodes() throws {
        let db = try TestPostgres()
        let run = try VDPExportRun()
        defer { run.remove() }
        let list = try run.t.list("leads.csv", count: 25)
        #expect(try run.t.run(list, to: db.url).result.status == 0)
        let campaign = try db.connection.execute("SELECT id FROM campaigns WHERE name = 'Spring farm'").first?.first ?? nil
        try db.connection.execute("INSERT INTO campaign_addresses (campaign_id, postal_code, seq, source) VALUES ($1::uuid, '02134', 26, 'import_list')", [campaign])

        // By id this time.
        let first = try run.export(campaign ?? "", to: db.url)
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(first.rows.count == 27)
        #expect(first.rows.filter { $0[7] == "created" }.count == 25)
        #expect(first.rows.last?[7] == "skipped")
        #expect(try db.int("SELECT count(*) FROM qr_codes") == 25)
        #expect(try db.int("SELECT count(DISTINCT address_id) FROM qr_codes WHERE campaign_id = $1::uuid AND qr_url = 'https://flyrpro.app/q/' || slug", [campaign]) == 25)
        try VDPExportRun.expectImagesDecode(first.rows, in: first.dir)

        let second = try run.export(to: db.url, extra: ["--base-url", "https://example.com/s/"])
        #expect(second.result.status == 0, "\(second.result.stderr)")
        #expect(VDPExportRun.slugs(second.rows) == VDPExportRun.slugs(first.rows))
        #expect(second.rows.filter { $0[7] == "unchanged" }.count == 25)
        #expect(second.rows.dropFirst().filter { !$0[4].isEmpty }.allSatisfy { $0[5] == "https://example.com/s/" + $0[4] })
        #expect(try db.int("SELECT count(*) FROM qr_codes") == 25)
        try VDPExportRun.expectImagesDecode(second.rows, in: second.dir)
    }

    @Test func supabaseGetsSlugsOnceThroughTheRESTAPI() throws {
        let db = try TestPostgres()
        let double = try LocalServer(script: "servers/postgrest_double.py", arguments: ["--db", db.url])
        let run = try VDPExportRun()
        defer { run.remove() }
        let token = try JSONSerialization.jsonObject(with: Data(contentsOf: double.url("/_double/token?role=service_role"))) as? [String: Any]
        let environment = ["SUPABASE_URL": double.url("").absoluteString, "SUPABASE_SERVICE_ROLE_KEY": token?["token"] as? String ?? ""]
        #expect(try run.t.run(try run.t.list("leads.csv", count: 12), to: "supabase", environment: environment).result.status == 0)

        let export = { (dir: URL) throws -> Leadport.Result in try Leadport.run(["export", "vdp", "Spring farm", "--to", "supabase", "--out", dir.path], environment: environment) }
        let firstDir = run.t.dir.appendingPathComponent("first"), secondDir = run.t.dir.appendingPathComponent("second")
        let first = try export(firstDir)
        #expect(first.status == 0, "\(first.stderr)")
        let rows = try CSVRows.read(firstDir.appendingPathComponent("vdp-manifest.csv"))
        #expect(rows.count == 13 && rows.dropFirst().allSatisfy { $0[7] == "created" })
        #expect(try db.int("SELECT count(*) FROM qr_codes") == 12)
        try VDPExportRun.expectImagesDecode(rows, in: firstDir)

        let second = try export(secondDir)
        #expect(second.status == 0, "\(second.stderr)")
        let again = try CSVRows.read(secondDir.appendingPathComponent("vdp-manifest.csv"))
        #expect(VDPExportRun.slugs(again) == VDPExportRun.slugs(rows) && again.dropFirst().allSatisfy { $0[7] == "unchanged" })
        #expect(try db.int("SELECT count(*) FROM qr_codes") == 12)
    }

    @Test func zipHoldsTheManifestReadmeAndImages() throws {
        let run = try VDPExportRun()
        defer { run.remove() }
        let db = run.t.dir.appendingPathComponent("leads.db").path
        #expect(try run.t.run(try run.t.list("leads.csv", count: 2), to: "sqlite:" + db, user: nil).result.status == 0)
        let zip = run.t.dir.appendingPathComponent("print.zip")
        let result = try Leadport.run(["export", "vdp", "Spring farm", "--to", "sqlite:" + db, "--zip", zip.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 addresses of \"Spring farm\""))
        let listing = try Leadport.run(program: URL(fileURLWithPath: "python3"), ["-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", zip.path])
        let names = listing.stdout.split(separator: "\n").map(String.init)
        #expect(names.prefix(2) == ["README.txt", "vdp-manifest.csv"], "\(listing.stderr)")
        #expect(names.dropFirst(2).count == 2 && names.dropFirst(2).allSatisfy { $0.hasPrefix("qr/0000") && $0.hasSuffix(".png") })
    }

    @Test func unknownCampaignAndMissingFileSayWhatToDo() throws {
        let run = try VDPExportRun()
        defer { run.remove() }
        let db = run.t.dir.appendingPathComponent("leads.db").path
        let missing = try run.export(to: "sqlite:" + db)
        #expect(missing.result.status == 2)
        #expect(missing.result.stderr.contains("does not exist") && missing.result.stderr.contains("--to sqlite:FILE"))
        #expect(!FileManager.default.fileExists(atPath: db))
        #expect(try run.t.run(try run.t.list("leads.csv", count: 1), to: "sqlite:" + db, user: nil).result.status == 0)
        let unknown = try run.export("Autumn farm", to: "sqlite:" + db)
        #expect(unknown.result.status == 2)
        #expect(unknown.result.stderr.contains("no campaign named \"Autumn farm\""), "\(unknown.result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: unknown.dir.path), "nothing is written for an unknown campaign")
        // Supabase's settings missing: named, as for import.
        let supabase = try run.export(to: "supabase")
        #expect(supabase.result.status == 2 && supabase.result.stderr.contains("SUPABASE_URL"), "\(supabase.result.stderr)")
    }

    @Test func folderNotEmptyIsAUsageProblem() throws {
        let run = try VDPExportRun()
        defer { run.remove() }
        let db = try run.imported(count: 1)
        let dir = run.t.dir.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: dir.appendingPathComponent("old.png"))
        let result = try Leadport.run(["export", "vdp", "Spring farm", "--to", db, "--out", dir.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "leadport: \(dir.path): the folder is not empty; give a new or empty folder with --out, so that no image of an earlier run is mixed in\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["old.png"])
    }

    /// An output that cannot be written is named, with what to do, before the destination is
    /// even opened (here it does not exist): exit status 2, and nothing left behind.
    @Test func unwritableOutputsAreRefusedFirst() throws {
        let run = try VDPExportRun()
        defer { run.remove() }
        let missing = "sqlite:" + run.t.dir.appendingPathComponent("none.db").path
        let noFolder = run.t.dir.appendingPathComponent("no-such-dir")
        let file = run.t.dir.appendingPathComponent("afile")
        try Data("x".utf8).write(to: file)
        let cases: [([String], String)] = [
            (["--zip", noFolder.appendingPathComponent("a.zip").path],
             "\(noFolder.path)/a.zip: the folder \(noFolder.path) does not exist; create it first, or give --zip a file in an existing folder"),
            (["--out", file.path], "\(file.path): is a file, not a folder; give --out a new or empty folder (or --zip FILE.zip for a ZIP)"),
            (["--out", file.appendingPathComponent("sub").path], "\(file.path)/sub: cannot be made: \(file.path) is a file, not a folder; give --out a folder elsewhere"),
            (["--zip", run.t.dir.path], "\(run.t.dir.path): is a folder; give --zip the ZIP file to write, as in \(run.t.dir.path)/print.zip (or --out DIR for a folder of files)"),
        ]
        for (args, message) in cases {
            let result = try Leadport.run(["export", "vdp", "Spring farm", "--to", missing] + args)
            #expect(result.status == 2, "\(args): \(result.stderr)")
            #expect(result.stderr == "leadport: \(message)\n", "\(args)")
        }
        #expect(!FileManager.default.fileExists(atPath: noFolder.path))
        #expect(try String(contentsOf: file, encoding: .utf8) == "x")
    }

    /// The slug is a path segment of its own: a / is added to a base URL's path without one,
    /// and a base URL with a query is followed by the slug as it is.
    @Test func baseURLWithoutTrailingSlashGetsOne() throws {
        let run = try VDPExportRun()
        defer { run.remove() }
        let db = try run.imported(count: 1)
        for (given, used) in [("https://ex.com/q", "https://ex.com/q/"), ("https://ex.com", "https://ex.com/"),
                              ("https://ex.com/q/", "https://ex.com/q/"), ("https://ex.com/scan?code=", "https://ex.com/scan?code=")] {
            let export = try run.export(to: db, extra: ["--base-url", given])
            #expect(export.result.status == 0, "\(export.result.stderr)")
            #expect(export.rows.count == 2 && export.rows[1][5] == used + export.rows[1][4], "\(given): \(export.rows)")
        }
    }

    /// Each style docs/cli.md lists is accepted; jsonl's stderr is JSON lines only, ending with
    /// run_finished (as import's), the others end with the summary line.
    @Test func everyProgressStyleEndsWithTheSummary() throws {
        let run = try VDPExportRun()
        defer { run.remove() }
        let db = try run.imported(count: 2)
        let jsonl = try run.export(to: db)
        #expect(jsonl.result.status == 0, "\(jsonl.result.stderr)")
        let lines = jsonl.result.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] }, "\(lines)")
        let last = try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any]
        #expect(last?["event"] as? String == "run_finished" && last?["rows"] as? Int == 2 && last?["created"] as? Int == 2)
        for style in ["auto", "bar", "plain", "none"] {
            let result = try Leadport.run(["export", "vdp", "Spring farm", "--to", db, "--out", run.t.dir.appendingPathComponent(style).path, "--progress", style])
            #expect(result.status == 0, "\(style): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").last?.hasPrefix("2 addresses of \"Spring farm\" in ") == true, "\(style): \(result.stderr)")
        }
    }
}
