import Foundation
import GRDB
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
        let none = try Leadport.run(["status", "--ledger", "none.db"], in: dir)
        #expect(none.status == 2 && none.stderr.hasPrefix("leadport: none.db: no ledger here: no import or sync has run") && none.stderr.split(separator: "\n").count == 1, "\(none.stderr)")
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

    /// Item 4 (a): settings that look like LeadPort's but are not, in the environment and in
    /// the config file, are named with the one meant, as warnings (events in JSON lines).
    @Test func mistypedSettingsAreNamed() throws {
        try write("one.csv", "Name,Email\nAnn Lee,ann@example.com\n")
        try write("settings.yaml", "HUBSPOT_BASE_URI: http://127.0.0.1:9\nFLYR_DATABASE_URL: postgres://x\n")
        chmod(path("settings.yaml"), 0o600)
        let environment = ["HUBSPOT_URL": "http://127.0.0.1:9", "LEADPORT_CONFIG": path("settings.yaml")]
        let run = try Leadport.run(["import", "one.csv", "--to", "sqlite:a.db", "--progress", "jsonl"], in: dir, environment: environment)
        let warnings = Self.events(run.stderr).filter { $0["event"] as? String == "warning" && $0["code"] as? String == "unknown_setting" }.compactMap { $0["message"] as? String }
        #expect(run.status == 0 && warnings.count == 2, "\(run.stderr)")
        #expect(warnings.contains { $0.hasPrefix("HUBSPOT_URL: ") && $0.contains("the environment") && $0.contains("did you mean HUBSPOT_BASE_URL?") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("HUBSPOT_BASE_URI: ") && $0.contains("settings.yaml") && $0.contains("did you mean HUBSPOT_BASE_URL?") }, "\(warnings)")
        let plain = try Leadport.run(["import", "one.csv", "--to", "sqlite:a.db", "--progress", "none"], in: dir, environment: environment)
        #expect(plain.stderr.contains("leadport: HUBSPOT_URL: not a setting LeadPort reads (in the environment)"), "\(plain.stderr)")
        // A sync says it once, before its jobs, as an event too.
        try write("inbox/a.csv", Self.leads)
        try write("sync.yaml", "jobs:\n  - name: inbox\n    source: {files: inbox}\n    to: [sqlite:flyr.db]\n")
        let sync = try Leadport.run(["sync", "--config", "sync.yaml", "--progress", "jsonl"], in: dir, environment: environment)
        let said = Self.events(sync.stderr).filter { $0["event"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(sync.status == 0 && said.count == 2 && said.contains { $0.hasPrefix("HUBSPOT_URL: ") }, "\(sync.stderr)")
    }

    /// Item 4 (b), (c): Follow Up Boss's live events are announced in a dry run and a first run,
    /// with the setting that sends them as history; notes that HubSpot would not receive are
    /// said once a run.
    @Test func destinationsSayWhatTheyWillDo() throws {
        let fub = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "300"])
        let hubspot = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        var environment = ["FUB_API_KEY": "fub-test-key", "FUB_BASE_URL": "http://127.0.0.1:\(fub.port)",
                           "HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(hubspot.port)"]
        try write("owners.csv", "Name,Email,Notes\nAnn Lee,ann@example.com,cold owner\nBo Diaz,bo@example.com,absentee\n")
        func warnings(_ arguments: [String]) throws -> [[String: Any]] {
            let run = try Leadport.run(["import", "owners.csv", "--progress", "jsonl"] + arguments, in: dir, environment: environment)
            #expect(run.status == 0, "\(run.stderr.suffix(500))")
            return Self.events(run.stderr).filter { $0["event"] as? String == "warning" }
        }
        let dry = try warnings(["--to", "followupboss", "--dry-run"])
        #expect(dry.count == 1 && dry.first?["code"] as? String == "live_events" && (dry.first?["message"] as? String ?? "").contains("FUB_HISTORICAL"), "\(dry)")
        #expect(try warnings(["--to", "followupboss"]).contains { $0["code"] as? String == "live_events" })
        // The second run to it sends only changes: said no more.
        #expect(try warnings(["--to", "followupboss"]).isEmpty)
        environment["FUB_HISTORICAL"] = "2024-01-31"
        #expect(try warnings(["--to", "followupboss", "--dry-run"]).isEmpty)

        let notes = try warnings(["--to", "hubspot"])
        #expect(notes.count == 1 && notes.first?["code"] as? String == "field_not_sent" && notes.first?["destination"] as? String == "hubspot"
                && (notes.first?["message"] as? String ?? "").contains("HUBSPOT_NOTES_PROPERTY"), "\(notes)")
        environment["HUBSPOT_NOTES_PROPERTY"] = "lead_notes"
        #expect(try warnings(["--to", "hubspot", "--ledger", "other.db", "--dry-run"]).isEmpty)
    }

    /// Item 4 (d): a person excluded after an import is skipped, and the run says the
    /// destination holds them still (the row's reason with the record, and a warning).
    @Test func excludedPeopleAlreadySentAreNamed() throws {
        try write("leads.csv", Self.leads)
        let first = try Leadport.run(["import", "leads.csv", "--to", "sqlite:leads.db", "--progress", "none"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        try write("dnc.txt", "bo@example.com\n")
        let again = try Leadport.run(["import", "leads.csv", "--to", "sqlite:leads.db", "--exclude", "dnc.txt", "--progress", "jsonl", "--report", "report.csv"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        let events = Self.events(again.stderr)
        let bo = events.first { $0["event"] as? String == "row" && $0["row"] as? Int == 3 }
        #expect(bo?["outcome"] as? String == "skipped" && (bo?["reason"] as? String ?? "").hasPrefix("excluded (dnc.txt); sqlite:leads.db already holds them (")
                && bo?["remote_id"] as? String != nil, "\(String(describing: bo))")
        let warning = events.first { $0["event"] as? String == "warning" && $0["code"] as? String == "excluded_already_sent" }
        #expect((warning?["message"] as? String ?? "").contains("1 person on the --exclude lists is there already") && (warning?["message"] as? String ?? "").contains("row 3"),
                "\(String(describing: warning))")
        let ann = events.first { $0["event"] as? String == "row" && $0["row"] as? Int == 2 }
        #expect(ann?["outcome"] as? String == "unchanged", "\(String(describing: ann))")
    }

    /// Item 4 (e): an enrichment whose key is refused leaves `--export` as it was, for
    /// `enrich` and for `import --enrich`, instead of a sheet of `pending` rows.
    @Test func aRefusedKeyLeavesTheExportAsItWas() throws {
        let double = try LocalServer(script: "servers/openai_double.py", arguments: ["--lifetime", "300", "--rpm", "500", "--tpm", "200000"])
        try write("leads.csv", Self.leads)
        try write("enrich.yaml", "model: gpt-4o-mini\ninstructions: Say how warm each lead is.\nfields:\n  status: {enum: [hot, warm, cold, new], maps_to: status}\n")
        var environment = ["OPENAI_BASE_URL": double.url("/v1").absoluteString, "OPENAI_API_KEY": "sk-double-0000", "LEADPORT_CONFIG": "", "HOME": dir.path]
        let good = try Leadport.run(["enrich", "leads.csv", "--spec", "enrich.yaml", "--export", "out.csv", "--progress", "none"], in: dir, environment: environment)
        #expect(good.status == 0, "\(good.stderr)")
        let before = try String(contentsOfFile: path("out.csv"), encoding: .utf8)
        #expect(before.contains(",enriched,"), "\(before)")
        environment["OPENAI_API_KEY"] = "sk-wrong-1234"
        let refused = try Leadport.run(["enrich", "leads.csv", "--spec", "enrich.yaml", "--export", "out.csv", "--no-cache", "--progress", "none"], in: dir, environment: environment)
        #expect(refused.status == 2 && refused.stderr.contains("--export out.csv was not written") && !refused.stderr.contains("processed sheet written"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: path("out.csv"), encoding: .utf8) == before)
        let imported = try Leadport.run(["import", "leads.csv", "--enrich", "enrich.yaml", "--no-cache", "--export", "processed.csv", "--to", "sqlite:x.db", "--progress", "none"],
                                        in: dir, environment: environment)
        #expect(imported.status == 2 && !FileManager.default.fileExists(atPath: path("processed.csv")), "\(imported.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".partial-") }
        #expect(left.isEmpty, "\(left)")
    }

    /// Item 5: an --exclude list that cannot be used is said in one line, without the usage.
    @Test func anExcludeErrorIsOneLine() throws {
        try write("leads.csv", Self.leads)
        try write("names.csv", "Name\nAnn\n")
        let run = try Leadport.run(["import", "leads.csv", "--to", "sqlite:a.db", "--exclude", "names.csv"], in: dir)
        #expect(run.status == 2 && run.stderr.hasPrefix("leadport: --exclude names.csv: ") && !run.stderr.contains("USAGE") && !run.stderr.contains("Usage"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    /// An empty sheet (or file) says so, and where the list may be, rather than "could not tell
    /// which columns hold names…", which would send the user to write a mapping for a sheet with
    /// nothing in it. A database the refused run made is not left behind; one it found is kept.
    @Test func anEmptySheetSaysThereIsNothingToImportAndWhereTheListIs() throws {
        try write("leads.csv", Self.leads)
        let workbook = Fixture.url("xlsx/empty-first-sheet-openpyxl.xlsx").path
        let first = try Leadport.run(["import", workbook, "--to", "sqlite:a.db"], in: dir)
        #expect(first.status == 2 && first.stderr.contains("there is nothing to import: its sheet \"Notes\" (1 of 2) holds no cells with text")
                && first.stderr.contains("--sheet"), "\(first.stderr)")
        #expect(!first.stderr.contains("could not tell"), "\(first.stderr)")
        let second = try Leadport.run(["import", workbook, "--sheet", "Leads", "--to", "sqlite:a.db", "--progress", "jsonl"], in: dir)
        #expect(second.status == 0 && second.stderr.contains("\"outcome\":\"created\""), "\(second.stderr)")
        try write("empty.csv", "\n,,,\n  ,\t\n")
        let csv = try Leadport.run(["import", "empty.csv", "--to", "sqlite:b.db"], in: dir)
        #expect(csv.status == 2 && csv.stderr.contains("empty.csv: there is nothing to import: it holds no cells with text"), "\(csv.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("b.db")) && !FileManager.default.fileExists(atPath: path("b.db-wal")))
        // Standard input cannot be read twice (the columns' plan, then the rows).
        let stdin = try Leadport.run(["import", "-", "--to", "sqlite:c.db"], in: dir, stdin: Data(Self.leads.utf8))
        #expect(stdin.status == 2 && stdin.stderr.contains("not from standard input (-)") && !stdin.stderr.contains("nothing to import"), "\(stdin.stderr)")
        let preset = try Leadport.run(["import", "empty.csv", "--preset", "generic-leads", "--to", "sqlite:b.db"], in: dir)
        #expect(preset.status == 2 && preset.stderr.contains("there is nothing to import"), "\(preset.stderr)")
        // A mapping by column letters (a list without a header) says the same, not that a column is missing.
        try write("letters.yaml", "columns:\n  A: full_name\n  B: email\n")
        let mapped = try Leadport.run(["import", "empty.csv", "--mapping", "letters.yaml", "--to", "sqlite:b.db"], in: dir)
        #expect(mapped.status == 2 && mapped.stderr.contains("empty.csv: there is nothing to import") && !mapped.stderr.contains("column"), "\(mapped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("b.db")))
        func contacts() throws -> Int? { try DatabaseQueue(path: path("a.db")).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts") } }
        let held = try contacts()
        let kept = try Leadport.run(["import", "empty.csv", "--to", "sqlite:a.db"], in: dir)
        let after = try contacts()
        #expect(kept.status == 2 && (held ?? 0) > 0 && after == held, "\(kept.stderr)")
        // Beside a list with rows, an empty one is passed over with a warning: nothing is lost.
        let both = try Leadport.run(["import", "empty.csv", "leads.csv", "--to", "sqlite:e.db", "--progress", "jsonl"], in: dir)
        let events = both.stderr.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(both.status == 0 && events.contains { $0["event"] as? String == "warning" && $0["code"] as? String == "empty_list"
                    && ($0["message"] as? String)?.contains("empty.csv: there is nothing to import") == true }, "\(both.stderr)")
        #expect(events.filter { $0["event"] as? String == "row" && $0["outcome"] as? String == "created" }.count == 2, "\(both.stderr)")
        #expect(!both.stderr.contains("ragged_row"), "\(both.stderr)")
        // A workbook's empty sheet beside a list is not passed over: its list may be on another sheet.
        let sheets = try Leadport.run(["import", workbook, "leads.csv", "--to", "sqlite:f.db"], in: dir)
        #expect(sheets.status == 2 && sheets.stderr.contains("--sheet"), "\(sheets.stderr)")
        // `inspect` reads standard input once, but a mapping's plan reads it again.
        let inspected = try Leadport.run(["inspect", "-", "--preset", "generic-leads"], in: dir, stdin: Data(Self.leads.utf8))
        #expect(inspected.status == 2 && inspected.stderr.contains("standard input cannot be"), "\(inspected.stderr)")
        // Blank rows above a list do not count as its head: 250 of them, and its row is read.
        try write("blank-head.csv", String(repeating: ",,\n", count: 250) + "Name,Email\nAnn Lee,ann@example.com\n")
        let below = try Leadport.run(["import", "blank-head.csv", "--to", "sqlite:d.db", "--progress", "jsonl"], in: dir)
        let belowRows = Self.events(below.stderr).filter { $0["event"] as? String == "row" }
        #expect(below.status == 0 && belowRows.map { $0["row"] as? Int } == [252] && belowRows.first?["outcome"] as? String == "created", "\(below.stderr.suffix(500))")
        // Past 10,000 blank rows: said as what was looked at.
        try write("blank-sheet.csv", String(repeating: ",,\n", count: 10_001) + "Name,Email\nAnn Lee,ann@example.com\n")
        let late = try Leadport.run(["import", "blank-sheet.csv", "--to", "sqlite:e.db"], in: dir)
        #expect(late.status == 2 && late.stderr.contains("holds no cells with text in its first 10000 rows"), "\(late.stderr)")
    }

    /// A default phone region libphonenumber does not know would make every phone written
    /// without `+` "not a phone number" while the run exits 0: it is refused before anything is
    /// read or written, naming the code meant for the usual slips.
    @Test func anUnknownPhoneRegionIsRefused() throws {
        try write("leads.csv", Self.leads)
        let run = try Leadport.run(["import", "leads.csv", "--to", "sqlite:a.db", "--region", "XX"], in: dir)
        #expect(run.status == 2 && run.stderr.contains("--region: \"XX\" is not a phone region"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.db").path))
        let normalize = try Leadport.run(["normalize", "phone", "--region", "UK"], in: dir, stdin: Data("020 7219 3000\n".utf8))
        #expect(normalize.status == 2 && normalize.stderr.contains("\"UK\" is not a phone region: did you mean GB?") && normalize.stdout.isEmpty, "\(normalize.stderr)")
        let gb = try Leadport.run(["normalize", "phone", "--region", "gb"], in: dir, stdin: Data("020 7219 3000\n".utf8))
        #expect(gb.status == 0 && gb.stdout.contains("\"e164\":\"+442072193000\""), "\(gb.stdout)")
    }
}
