import Foundation
import LeadTesting
import Testing

/// Issue 13 item 3: `--to` given several times. The file is read and cleaned once; every row
/// gets one outcome at each destination (row events and the report name it); the summary
/// counts each; one destination failing does not stop the others, and its rows wait for the
/// next run.
@Suite(.serialized) struct SeveralDestinationsTests {
    /// The JSON-lines events of a run.
    static func events(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// Row events by destination: each destination's rows, by source row. A row reported
    /// twice to one destination fails the test.
    static func rows(_ events: [[String: Any]]) -> [String: [Int: String]] {
        var rows: [String: [Int: String]] = [:]
        for event in events where event["event"] as? String == "row" {
            let destination = event["destination"] as! String
            let row = event["row"] as! Int
            #expect(rows[destination]?[row] == nil, "row \(row) reported twice to \(destination)")
            rows[destination, default: [:]][row] = event["outcome"] as? String
        }
        return rows
    }

    @Test func theEmbeddedDatabasePostgresAndAWebhookEachGetEveryRow() throws {
        let db = try TestPostgres()
        let server = try LocalServer(script: "servers/scripted_http.py")
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 40) { k, cells in if k == 9 { cells = ["", "", "", "", "", "", ""] } }
        let embedded = "sqlite:" + t.dir.appendingPathComponent("leads.db").path
        let hook = "webhook:" + server.url("/hook?secret=s3cret-hook").absoluteString
        let environment = ["LEADPORT_WEBHOOK_SECRET": "s3cret-hook"]
        let report = t.dir.appendingPathComponent("report.csv")
        let export = t.dir.appendingPathComponent("processed.csv")
        let before = try hooks(server).count
        let first = try Leadport.run(["import", list.path, "--to", embedded, "--to", db.url, "--to", hook, "--campaign", "Spring farm",
                                      "--user", TestPostgres.user, "--report", report.path, "--export", export.path, "--progress", "jsonl"],
                                     environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let events = Self.events(first.stderr)
        let rows = Self.rows(events)
        #expect(rows.keys.count == 3, "\(rows.keys)")
        for (destination, outcomes) in rows {
            #expect(outcomes.count == 40, "\(destination): \(outcomes.count) rows")
            #expect(outcomes.values.filter { $0 == "created" }.count == 39 && outcomes[10] == "skipped", "\(destination)")
        }
        #expect(try db.int("SELECT count(*) FROM contacts") == 39)
        #expect(try hooks(server).count == before + 39)
        // The run's summary: the totals over all, and each destination's own.
        let finished = try #require(events.last { $0["event"] as? String == "run_finished" })
        #expect(finished["rows"] as? Int == 40 && finished["created"] as? Int == 3 * 39)
        let each = try #require(finished["destinations"] as? [String: [String: Any]])
        #expect(each.count == 3 && each.values.allSatisfy { $0["created"] as? Int == 39 && $0["skipped"] as? Int == 1 }, "\(each)")
        let started = try #require(events.first { $0["event"] as? String == "run_started" })
        #expect((started["destinations"] as? [String])?.count == 3)
        // The hook's secret path is named nowhere.
        let reportText = try String(contentsOf: report, encoding: .utf8)
        #expect(!first.stderr.contains("s3cret-hook") && !reportText.contains("s3cret-hook"))
        // The report has a line per row and destination; the processed sheet one line per row.
        let reported = try CSVRows.read(report).dropFirst()
        #expect(reported.count == 3 * 40)
        let processed = try CSVRows.read(export)
        let status = try #require(processed.first?.firstIndex(of: "_status"))
        // Row 10 (the blank one) is the sheet's tenth line below its header.
        #expect(processed.count == 41 && processed[1][status] == "created" && processed[9][status] == "skipped", "\(processed[1...].map { $0[status] })")

        // The same list again: nothing sent anywhere.
        let again = try Leadport.run(["import", list.path, "--to", embedded, "--to", db.url, "--to", hook, "--campaign", "Spring farm",
                                      "--user", TestPostgres.user, "--progress", "jsonl"], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        for (destination, outcomes) in Self.rows(Self.events(again.stderr)) {
            #expect(outcomes.values.filter { $0 == "unchanged" }.count == 39, "\(destination)")
        }
        #expect(try hooks(server).count == before + 39)
    }

    /// A destination that stops (a hook refusing the signature) stops alone: the others get
    /// every row, its rows are pending, the exit status says it failed, and the next run
    /// sends it exactly what it lacks.
    @Test func oneDestinationStoppingLeavesTheOthersGoingAndItsRowsForTheNextRun() throws {
        let server = try LocalServer(script: "servers/scripted_http.py")
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 12)
        let embedded = "sqlite:" + t.dir.appendingPathComponent("leads.db").path
        let hook = "webhook:" + server.url("/hook?secret=right").absoluteString
        let stopped = try Leadport.run(["import", list.path, "--to", hook, "--to", embedded, "--progress", "jsonl"],
                                       environment: ["LEADPORT_WEBHOOK_SECRET": "wrong"])
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("LEADPORT_WEBHOOK_SECRET"), "\(stopped.stderr)")
        let rows = Self.rows(Self.events(stopped.stderr))
        #expect(rows.keys.contains { $0.hasPrefix("sqlite:") } && rows.first { $0.key.hasPrefix("sqlite:") }?.value.count == 12)
        #expect(rows.first { $0.key.hasPrefix("webhook:") }?.value.values.allSatisfy { $0 == "pending" } == true, "every row is pending at the stopped hook: \(rows)")
        let finished = try #require(Self.events(stopped.stderr).last { $0["event"] as? String == "run_finished" })
        let each = try #require(finished["destinations"] as? [String: [String: Any]])
        #expect(each.first { $0.key.hasPrefix("webhook:") }?.value["stopped"] != nil, "\(each)")

        let fixed = try Leadport.run(["import", list.path, "--to", hook, "--to", embedded, "--progress", "jsonl"],
                                     environment: ["LEADPORT_WEBHOOK_SECRET": "right"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let again = Self.rows(Self.events(fixed.stderr))
        #expect(again.first { $0.key.hasPrefix("webhook:") }?.value.values.filter { $0 == "created" }.count == 12)
        #expect(again.first { $0.key.hasPrefix("sqlite:") }?.value.values.filter { $0 == "unchanged" }.count == 12)
    }

    /// A destination whose settings are missing stops alone, as one that refuses them does:
    /// `--to sqlite:… --to hubspot` without HUBSPOT_TOKEN still fills the embedded file, names
    /// the variable, leaves HubSpot's rows pending and exits 2 (a setting).
    @Test func aDestinationWithoutItsSettingsStopsAlone() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 9)
        let db = t.dir.appendingPathComponent("leads.db")
        let run = try Leadport.run(["import", list.path, "--to", "sqlite:" + db.path, "--to", "hubspot", "--progress", "jsonl"],
                                   environment: ["HUBSPOT_TOKEN": "", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(LocalServer.closedPort())"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("HUBSPOT_TOKEN"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: db.path))
        let rows = Self.rows(Self.events(run.stderr))
        #expect(rows.first { $0.key.hasPrefix("sqlite:") }?.value.values.filter { $0 == "created" }.count == 9, "\(rows)")
        #expect(rows["hubspot"]?.count == 9 && rows["hubspot"]?.values.allSatisfy { $0 == "pending" } == true, "\(rows)")
        let finished = try #require(Self.events(run.stderr).last { $0["event"] as? String == "run_finished" })
        let each = try #require(finished["destinations"] as? [String: [String: Any]])
        #expect((each["hubspot"]?["stopped"] as? String)?.contains("HUBSPOT_TOKEN") == true, "\(each)")
    }

    @Test func theSameDestinationTwiceOrTwoEmbeddedDatabasesAreRefused() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 2)
        let twice = try Leadport.run(["import", list.path, "--to", "webhook:http://127.0.0.1:9/x", "--to", "webhook:http://127.0.0.1:9/x"])
        #expect(twice.status == 2 && twice.stderr.contains("given twice"), "\(twice.stderr)")
        let two = try Leadport.run(["import", list.path, "--to", "sqlite:" + t.dir.appendingPathComponent("a.db").path,
                                    "--to", "sqlite:" + t.dir.appendingPathComponent("b.db").path])
        #expect(two.status == 2 && two.stderr.contains("one embedded database"), "\(two.stderr)")
    }

    func hooks(_ server: LocalServer) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("/hooks"))) as! [[String: Any]]
    }
}
