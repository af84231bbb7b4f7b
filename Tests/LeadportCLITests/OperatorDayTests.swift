import Foundation
import LeadTesting
import Testing

/// Issue 26, the operator's day, through the built binary: run ids where people look, a cron
/// line that works under cron, counters that tell the truth, warnings before harm.
@Suite(.serialized) struct OperatorDayTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-operator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    }

    static func events(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static let leads = "Name,Email,Phone\nAnn Lee,ann@example.com,6175550101\nBo Diaz,bo@example.com,6175550102\n"

    /// Item 1: the import's summary ends with its run id; `status` lists the import (with each
    /// destination's counts) beside the sync jobs; `undo` finds a sync job's run through the
    /// folder's default ledger, where `status` found it, though the run is kept in the job's
    /// `sqlite:` file.
    @Test func runIdsAreWherePeopleLook() throws {
        try write("leads.csv", Self.leads)
        let imported = try Leadport.run(["import", "leads.csv", "--to", "sqlite:leads.db", "--progress", "none"], in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        let last = imported.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("recorded as run "), "\(imported.stderr)")
        let run = String(last.dropFirst("recorded as run ".count))
        #expect(UUID(uuidString: run) != nil, "\(last)")
        let status = try Leadport.run(["status", "--ledger", "leads.db", "--json"], in: dir)
        let imports = Self.object(status.stdout)["imports"] as? [[String: Any]] ?? []
        #expect(status.status == 0 && imports.first?["run_id"] as? String == run && imports.first?["kind"] as? String == "import", "\(status.stdout) \(status.stderr)")
        let at = (imports.first?["destinations"] as? [[String: Any]])?.first
        #expect(at?["to"] as? String == "sqlite:leads.db" && at?["created"] as? Int == 2, "\(String(describing: at))")
        let text = try Leadport.run(["status", "--ledger", "leads.db"], in: dir)
        #expect(text.status == 0 && text.stdout.contains(run) && !text.stdout.contains("no sync job"), "\(text.stdout)")
        let undo = try Leadport.run(["undo", run, "--ledger", "leads.db", "--dry-run", "--json"], in: dir)
        #expect(undo.status == 0 && Self.object(undo.stdout)["run_id"] as? String == run, "\(undo.stdout) \(undo.stderr)")

        // A sync whose ledger is the folder's default, its job writing into sqlite:flyr.db.
        try write("inbox/a.csv", Self.leads)
        try write("sync.yaml", "jobs:\n  - name: inbox\n    source: {files: inbox}\n    to: [sqlite:flyr.db]\n")
        let night = try Leadport.run(["sync", "--config", "sync.yaml", "--progress", "jsonl"], in: dir)
        #expect(night.status == 0, "\(night.stderr)")
        let finished = Self.events(night.stderr).first { $0["event"] as? String == "run_finished" }
        let syncRun = finished?["run_id"] as? String ?? "none"
        let listed = try Leadport.run(["status", "--json"], in: dir)
        let job = (Self.object(listed.stdout)["jobs"] as? [[String: Any]])?.first
        let lastRun = ((job?["destinations"] as? [[String: Any]])?.first?["last_run"] as? [String: Any])?["run_id"] as? String
        #expect(lastRun == syncRun, "\(listed.stdout)")
        let found = try Leadport.run(["undo", syncRun, "--dry-run", "--json"], in: dir)
        #expect(found.status == 0 && Self.object(found.stdout)["run_id"] as? String == syncRun, "\(found.stdout) \(found.stderr)")
        // Undone for real, the job that made it reads its sources whole again (its state is in
        // the default ledger, not in flyr.db).
        let done = try Leadport.run(["undo", syncRun, "--json"], in: dir)
        #expect(done.status == 0 && (Self.object(done.stdout)["sync_jobs_reset"] as? [String]) == ["inbox"], "\(done.stdout) \(done.stderr)")
    }

    /// Item 2: the printed crontab line, run as cron runs it (`env -i sh -c`), finds the config
    /// file in use (through LEADPORT_CONFIG) and the installed binary, and syncs into the
    /// HubSpot double.
    @Test func theCronLineWorksUnderCron() throws {
        let double = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        try write("inbox/a.csv", Self.leads)
        try write("sync.yaml", "ledger: ledger.db\njobs:\n  - name: crm\n    source: {files: inbox}\n    to: [hubspot]\n")
        try write("settings.yaml", "HUBSPOT_TOKEN: pat-na1-00000000-0000-4000-8000-000000000000\nHUBSPOT_BASE_URL: http://127.0.0.1:\(double.port)\n")
        chmod(path("settings.yaml"), 0o600)
        // An installed leadport on PATH (a script that runs the build's): the line names it.
        try FileManager.default.createDirectory(atPath: path("bin"), withIntermediateDirectories: true)
        try write("bin/leadport", "#!/bin/sh\nexec '\(Leadport.binary.path)' \"$@\"\n")
        chmod(path("bin/leadport"), 0o755)
        let environment = ["LEADPORT_CONFIG": path("settings.yaml"), "PATH": path("bin") + ":/usr/bin:/bin"]
        let cron = try Leadport.run(["sync", "--config", "sync.yaml", "--print-cron", "0 2 * * *"], in: dir, environment: environment)
        #expect(cron.status == 0, "\(cron.stderr)")
        let config = URL(fileURLWithPath: path("settings.yaml")).standardizedFileURL.resolvingSymlinksInPath().path
        #expect(cron.stdout.contains("# Credentials (HUBSPOT_TOKEN, …) and the configuration's $VARs come from \(config)") && !cron.stdout.contains("~/.config"), "\(cron.stdout)")
        let line = cron.stdout.split(separator: "\n").first { !$0.hasPrefix("#") }.map(String.init) ?? ""
        #expect(line.contains("LEADPORT_CONFIG=\(config) ") && line.contains(path("bin/leadport") + " sync "), "\(line)")
        let command = line.split(separator: " ", maxSplits: 5).last.map(String.init) ?? ""
        let ran = try Leadport.run(program: URL(fileURLWithPath: "/usr/bin/env"), ["-i", "sh", "-c", command], in: URL(fileURLWithPath: "/"))
        #expect(ran.status == 0, "\(ran.stderr) \((try? String(contentsOfFile: path("logs/cron.log"), encoding: .utf8)) ?? "")")
        let summary = Self.object((try? String(contentsOfFile: path("logs/last-sync.json"), encoding: .utf8)) ?? "")
        #expect(summary["status"] as? Int == 0, "\(summary) \((try? String(contentsOfFile: path("logs/cron.log"), encoding: .utf8)) ?? "")")
        let contacts = try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? []
        #expect(contacts.count == 2)

        // The systemd service carries the same, and the build's own binary is said to be one.
        // A setting given in this shell goes with it, a secret given only here is named, not copied.
        let shell = ["LEADPORT_CONFIG": path("settings.yaml"), "PATH": "/usr/bin:/bin", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(double.port)", "FUB_API_KEY": "fub-secret-1"]
        let units = try Leadport.run(["sync", "--config", "sync.yaml", "--print-systemd"], in: dir, environment: shell)
        #expect(units.stdout.contains("Environment=LEADPORT_CONFIG=\(config)\n") && units.stdout.contains("Environment=HUBSPOT_BASE_URL=http://127.0.0.1:\(double.port)\n"), "\(units.stdout)")
        #expect(units.stdout.contains("build's own binary, which `make clean` deletes") && !units.stdout.contains("pat-na1"), "\(units.stdout)")
        #expect(units.stdout.contains("Set only in this shell, which cron does not have: FUB_API_KEY") && !units.stdout.contains("fub-secret-1"), "\(units.stdout)")
    }

    /// Item 3: with two destinations each row is counted once (the bar never passes its
    /// total), and the summaries give each destination's counts, never their sum; `1 row`.
    @Test func countersTellTheTruth() throws {
        let double = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        let environment = ["HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(double.port)"]
        var list = "Name,Email,Phone\n"
        for k in 0..<30 { list += "Person \(k),p\(k)@example.com,61755501\(String(format: "%02d", k))\n" }
        try write("thirty.csv", list)
        let dry = try Leadport.run(["import", "thirty.csv", "--to", "sqlite:a.db", "--to", "hubspot", "--dry-run", "--progress", "jsonl"], in: dir, environment: environment)
        #expect(dry.status == 0, "\(dry.stderr.suffix(500))")
        let finished = Self.events(dry.stderr).first { $0["event"] as? String == "run_finished" }
        let at = finished?["destinations"] as? [String: [String: Any]] ?? [:]
        #expect(finished?["rows"] as? Int == 30 && at["hubspot"]?["created"] as? Int == 30 && at["sqlite:a.db"]?["created"] as? Int == 30, "\(String(describing: finished))")
        let said = try Leadport.run(["import", "thirty.csv", "--to", "sqlite:a.db", "--to", "hubspot", "--dry-run", "--progress", "none"], in: dir, environment: environment)
        let lines = said.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("dry run, nothing written: 30 rows in ") && $0.hasSuffix(", each row at each of 2 destinations:") }, "\(said.stderr)")
        #expect(lines.contains { $0.hasPrefix("  hubspot: created 30, ") } && lines.contains { $0.hasPrefix("  sqlite:a.db: created 30, ") } && !said.stderr.contains("created 60"), "\(said.stderr)")
        // The bar: rows done at both, each destination's beside them.
        let bar = try Leadport.run(["import", "thirty.csv", "--to", "sqlite:a.db", "--to", "hubspot", "--progress", "bar"], in: dir, environment: environment)
        #expect(bar.status == 0 && bar.stderr.contains("30/30 rows") && bar.stderr.contains("hubspot 30/30") && !bar.stderr.contains("60/30"), "\(bar.stderr)")
        // One row is a row.
        try write("one.csv", "Name,Email\nAnn Lee,ann@example.com\n")
        let one = try Leadport.run(["import", "one.csv", "--to", "sqlite:b.db", "--progress", "plain"], in: dir)
        #expect(one.stderr.contains("→ sqlite:b.db: 1 row\n") && one.stderr.contains("\n1 row in ") && !one.stderr.contains("1 rows"), "\(one.stderr)")
    }
}
