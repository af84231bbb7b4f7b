import Foundation
import LeadTesting
import Testing

/// `leadport enrich` and `import --enrich` (issue 14), the real binary against the OpenAI
/// double: every row ends enriched, skipped, rejected (with why) or pending; answers are cached
/// in the ledger; a budget stops the run cleanly; what is excluded is never sent.
@Suite(.serialized) struct EnrichCommandTests {
    let double: LocalServer
    let dir: URL

    init() throws {
        double = try LocalServer(script: "servers/openai_double.py", arguments: ["--lifetime", "300", "--rpm", "500", "--tpm", "200000"])
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-enrich-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The spec of docs/enrich.md's example, with `extra` lines.
    func spec(_ extra: String = "", rows: Int = 3) throws -> String {
        try write("enrich.yaml", """
            model: gpt-4o-mini
            instructions: Say how likely each lead is to list their home this year, and give their first name.
            fields:
              status: {enum: [hot, warm, cold, new], description: "how warm the lead is", maps_to: status}
              first_name: {type: string, description: "the person's first name", maps_to: first_name}
              score: {type: integer, description: "0 to 100"}
            rows_per_request: \(rows)
            exclude: [Notes]
            \(extra)
            """)
    }

    var environment: [String: String] {
        ["OPENAI_BASE_URL": double.url("/v1").absoluteString, "OPENAI_API_KEY": "sk-double-0000", "LEADPORT_CONFIG": "", "HOME": dir.path]
    }

    func leadport(_ arguments: [String]) throws -> (result: Leadport.Result, events: [[String: Any]]) {
        let result = try Leadport.run(arguments + ["--progress", "jsonl"], in: dir, environment: environment)
        let events = result.stderr.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        return (result, events)
    }

    func stats() throws -> [String: Any] { try double.control("/_double/stats") }
    func requests() throws -> Int { try stats()["requests"] as? Int ?? -1 }

    /// Rows of the processed sheet by `_source_row`, each as header → cell.
    func processed(_ name: String) throws -> [Int: [String: String]] {
        let rows = try CSVRows.read(URL(fileURLWithPath: path(name)))
        guard let header = rows.first else { return [:] }
        var byRow: [Int: [String: String]] = [:]
        for row in rows.dropFirst() {
            var cells: [String: String] = [:]
            // A header named twice (the spec's first_name beside the list's own) keeps the first.
            for (k, name) in header.enumerated() where cells[name] == nil { cells[name] = k < row.count ? row[k] : "" }
            if let n = Int(cells["_source_row"] ?? "") { byRow[n] = cells }
        }
        return byRow
    }

    /// The messy open-house workbook (a title, a note and a blank row over the header, written by
    /// openpyxl): every row is accounted for, the answers land in their own rows, the Notes
    /// column is never sent, and a rerun is answered from the cache without a request.
    @Test func theProcessedSheetHasEveryRowAndARerunCostsNothing() throws {
        let spec = try spec()
        let list = Fixture.url("xlsx/messy-open-house-leads.xlsx").path
        let first = try leadport(["enrich", list, "--spec", spec, "--export", "processed.csv", "--ledger", "cache.db"])
        #expect(first.result.status == 0, "\(first.result.stderr.suffix(800))")
        let sheet = try processed("processed.csv")
        let rows = first.events.filter { $0["event"] as? String == "row" }
        #expect(rows.count == sheet.count && !sheet.isEmpty, "\(rows.count) events, \(sheet.count) rows")
        // Every data row, blank ones included, once: the workbook's rows 5 to 13.
        #expect(Set(sheet.keys) == Set(5...13), "\(sheet.keys.sorted())")
        #expect(sheet[12]?["_status"] == "skipped" && sheet[12]?["_reason"] == "blank row", "\(String(describing: sheet[12]))")
        // Each answer is the double's for that row's own content (`/_double/predict`).
        let sent = try double.control("/_double/requests?limit=200")["requests"] as? [[String: Any]] ?? []
        var bodies = ""
        for request in sent { bodies += String(data: try JSONSerialization.data(withJSONObject: request["body"] ?? [:]), encoding: .utf8) ?? "" }
        #expect(!bodies.contains("hot lead") && !bodies.contains("same person as row"), "the Notes column was sent")
        #expect(bodies.contains("John.Smith@Gmail.com"))
        for (row, cells) in sheet where cells["_status"] == "enriched" {
            #expect(["hot", "warm", "cold", "new"].contains(cells["status"] ?? ""), "row \(row): \(cells)")
            #expect(Int(cells["score"] ?? "") != nil, "row \(row): \(cells)")
        }
        #expect(sheet[5]?["Name"] == "SMITH, JOHN A" && sheet[5]?["_status"] == "enriched")
        let finished = first.events.last { $0["event"] as? String == "run_finished" }
        #expect(finished?["enriched"] as? Int == sheet.values.filter { $0["_status"] == "enriched" }.count)
        #expect((finished?["requests"] as? Int ?? 0) >= 3 && (finished?["prompt_tokens"] as? Int ?? 0) > 0)

        let before = try requests()
        let again = try leadport(["enrich", list, "--spec", spec, "--export", "again.csv", "--ledger", "cache.db"])
        #expect(again.result.status == 0)
        #expect(try requests() == before, "a rerun sent requests")
        let cached = again.events.filter { $0["event"] as? String == "row" && $0["outcome"] as? String == "enriched" }
        #expect(!cached.isEmpty && cached.allSatisfy { $0["cached"] as? Bool == true })
        let rerun = try processed("again.csv")
        for (row, cells) in sheet { #expect(rerun[row]?["status"] == cells["status"] && rerun[row]?["score"] == cells["score"], "row \(row)") }

        // --no-cache asks again.
        let forced = try leadport(["enrich", list, "--spec", spec, "--report", "report.csv", "--ledger", "cache.db", "--no-cache"])
        #expect(forced.result.status == 0)
        #expect(try requests() > before)
    }

    /// A budget too small for the list: the run stops before passing it, exit 1 naming max_cost;
    /// the rest is pending in the events and the sheet; the next run (a larger budget) sends
    /// only those rows.
    @Test func aBudgetStopsCleanlyAndTheNextRunDoesOnlyThePendingRows() throws {
        var csv = "Name,Email,Phone\n"
        for k in 1...60 { csv += "Person \(k),p\(k)@example.com,617555\(String(format: "%04d", k))\n" }
        let list = try write("leads.csv", csv)
        let small = try spec("max_cost: 0.003\nprices: {input: 1.0, output: 1.0}", rows: 10)
        let dry = try leadport(["enrich", list, "--spec", small, "--ledger", "cache.db", "--dry-run"])
        let sentByDryRun = try requests()
        #expect(dry.result.status == 0 && sentByDryRun == 0)
        let estimate = dry.events.last { $0["event"] as? String == "run_finished" }?["estimate"] as? [String: Any]
        #expect(estimate?["rows"] as? Int == 60 && estimate?["requests"] as? Int == 6 && estimate?["cost_at_most"] != nil, "\(String(describing: estimate))")
        // A dry run asks nothing of the endpoint, so it needs no key, even for OpenAI's own.
        var keyless = environment
        (keyless["OPENAI_BASE_URL"], keyless["OPENAI_API_KEY"]) = ("", "")
        let dryKeyless = try Leadport.run(["enrich", list, "--spec", small, "--ledger", "dry.db", "--dry-run", "--progress", "jsonl"], in: dir, environment: keyless)
        #expect(dryKeyless.status == 0 && dryKeyless.stderr.contains("\"estimate\""), "\(dryKeyless.stderr.suffix(400))")

        let first = try leadport(["enrich", list, "--spec", small, "--ledger", "cache.db", "--export", "first.csv"])
        #expect(first.result.status == 1, "\(first.result.stderr.suffix(600))")
        #expect(first.result.stderr.contains("max_cost") && first.result.stderr.contains("pending"), "\(first.result.stderr.suffix(600))")
        let sheet = try processed("first.csv")
        let pending = sheet.filter { $0.value["_status"] == "pending" }.map(\.key)
        let done = sheet.filter { $0.value["_status"] == "enriched" }.count
        #expect(sheet.count == 60 && !pending.isEmpty && done > 0 && done + pending.count == 60, "\(done) enriched, \(pending.count) pending")
        let finished = first.events.last { $0["event"] as? String == "run_finished" }
        #expect(finished?["pending"] as? Int == pending.count)
        #expect(Double(finished?["cost"] as? String ?? "") ?? Double(finished?["cost"] as? Double ?? 99) <= 0.003, "\(String(describing: finished))")

        let answered = try stats()["rows_answered"] as? Int ?? 0
        let large = try spec("max_cost: 5\nprices: {input: 1.0, output: 1.0}", rows: 10)
        let second = try leadport(["enrich", list, "--spec", large, "--ledger", "cache.db", "--export", "second.csv"])
        #expect(second.result.status == 0, "\(second.result.stderr.suffix(600))")
        #expect((try stats()["rows_answered"] as? Int ?? 0) - answered == pending.count, "the second run sent more than the pending rows")
        #expect(try processed("second.csv").values.allSatisfy { $0["_status"] == "enriched" })
    }

    /// A row whose answer has the wrong type, in its batch and again alone, ends rejected with
    /// the reason (exit 3); its neighbours keep their own answers.
    @Test func aRowAnsweredWronglyTwiceIsRejectedWithTheReason() throws {
        let list = try write("leads.csv", "Name,Email\nAnn Lee,ann@example.com\nBo Diaz,bo@example.com\nCy Young,cy@example.com\n")
        // Row ids are the rows' places in the list: Bo Diaz is row 3.
        try double.control("/_double/faults", ["program": [["mode": "wrong_type", "when_row": "3"], ["mode": "wrong_type", "when_row": "3"]]])
        let run = try leadport(["enrich", list, "--spec", try spec(), "--ledger", "cache.db", "--export", "out.csv"])
        #expect(run.result.status == 3, "\(run.result.stderr.suffix(600))")
        let sheet = try processed("out.csv")
        #expect(sheet[3]?["_status"] == "rejected" && (sheet[3]?["_reason"] ?? "").contains("expected"), "\(String(describing: sheet[3]))")
        #expect(sheet[2]?["_status"] == "enriched" && sheet[4]?["_status"] == "enriched")
        let injected = try stats()["injected"] as? [String: Int] ?? [:]
        #expect(injected["wrong_type"] == 2, "\(injected)")
    }

    /// 429s with retry-after and a 503 storm are waited out: every row is answered.
    @Test func rateLimitsAndServerErrorsAreWaitedOut() throws {
        var csv = "Name,Email\n"
        for k in 1...30 { csv += "Person \(k),p\(k)@example.com\n" }
        let list = try write("leads.csv", csv)
        try double.control("/_double/faults", ["program": [["status": 429, "retry_after_ms": 300], ["status": 503, "times": 2], ["status": 429, "retry_after": 1]]])
        let run = try leadport(["enrich", list, "--spec", try spec(rows: 5), "--ledger", "cache.db", "--export", "out.csv"])
        #expect(run.result.status == 0, "\(run.result.stderr.suffix(600))")
        #expect(try processed("out.csv").values.allSatisfy { $0["_status"] == "enriched" })
        let retries = run.events.filter { $0["event"] as? String == "batch" && ($0["status"] as? String ?? "").contains("retry") }
        #expect(retries.count >= 3, "\(retries)")
    }

    /// `import --enrich`: the answers feed the lead (status into FLYR's contacts), the row the
    /// model could not answer is rejected at the enrich stage and written nowhere.
    @Test func importWithEnrichmentFillsTheLeadAndRejectsWhatCouldNotBeAnswered() throws {
        // Row 5 has nothing the rules can use: it is rejected by them, and never sent to the model.
        let list = try write("leads.csv", "Name,Email,Phone\nAnn Lee,ann@example.com,6175550101\nBo Diaz,bo@example.com,6175550102\nCy Young,cy@example.com,6175550103\n,not-an-email,call me\n")
        try double.control("/_double/faults", ["program": [["mode": "missing_row", "when_row": "4"], ["mode": "missing_row", "when_row": "4"]]])
        let db = path("leads.db")
        let run = try leadport(["import", list, "--enrich", try spec(), "--to", "sqlite:" + db, "--report", "report.csv"])
        #expect(run.result.status == 3, "\(run.result.stderr.suffix(600))")
        let rows = run.events.filter { $0["event"] as? String == "row" }
        #expect(rows.first { $0["row"] as? Int == 4 }?["outcome"] as? String == "rejected")
        let reason = rows.first { $0["row"] as? Int == 4 }?["reason"] as? String ?? ""
        #expect(reason.hasPrefix("enrichment: "), "\(reason)")
        let stored = try Leadport.run(program: URL(fileURLWithPath: "sqlite3"), [db, "SELECT email, status FROM contacts ORDER BY email"])
        let lines = stored.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("ann@example.com|") && lines[1].hasPrefix("bo@example.com|"), "\(lines)")
        #expect(lines.allSatisfy { ["hot", "warm", "cold", "new"].contains($0.split(separator: "|").last.map(String.init) ?? "") }, "\(lines)")
        let finished = run.events.last { $0["event"] as? String == "run_finished" }
        #expect((finished?["enrichment"] as? [String: Any])?["rejected"] as? Int == 1)
        let rowFive = rows.first { $0["row"] as? Int == 5 }
        #expect(rowFive?["outcome"] as? String == "rejected" && !((rowFive?["reason"] as? String ?? "enrichment").hasPrefix("enrichment")), "\(String(describing: rowFive))")
        let asked = try double.control("/_double/requests?limit=200")["requests"] as? [[String: Any]] ?? []
        #expect(!asked.isEmpty && asked.allSatisfy { !(($0["rows"] as? [String]) ?? []).contains("5") }, "row 5 was sent: \(asked.map { $0["rows"] ?? "" })")
    }

    /// What cannot work is said at once, with the file and line, before anything is sent.
    @Test func aBadSpecOrEndpointIsAUsageError() throws {
        let list = try write("leads.csv", "Name,Email\nAnn Lee,ann@example.com\n")
        let broken = try write("broken.yaml", "model: gpt-4o-mini\ninstructions: x\nfields:\n  status: {enum: [hot, lukewarm], maps_to: status}\n")
        let bad = try leadport(["enrich", list, "--spec", broken, "--export", "out.csv"])
        #expect(bad.result.status == 2 && bad.result.stderr.contains("broken.yaml:4") && bad.result.stderr.contains("lukewarm"), "\(bad.result.stderr)")
        // A column never to be sent that the list does not have (misspelt): it would be sent.
        try "Name,Email,Internal Notes\nAnn Lee,ann@example.com,owes us\n".write(toFile: path("notes.csv"), atomically: true, encoding: .utf8)
        let misspelt = try write("misspelt.yaml", "model: gpt-4o-mini\ninstructions: x\nfields:\n  score: integer\nexclude: [Internal Note]\n")
        let typo = try leadport(["enrich", path("notes.csv"), "--spec", misspelt, "--export", "out.csv"])
        let sentForTypo = try requests()
        #expect(typo.result.status == 2 && typo.result.stderr.contains("Internal Note") && sentForTypo == 0, "\(typo.result.stderr)")
        // A field named like a column of the list would make two columns of one name.
        let clash = try write("clash.yaml", "model: gpt-4o-mini\ninstructions: x\nfields:\n  Email: string\n")
        let twice = try leadport(["enrich", list, "--spec", clash, "--export", "out.csv"])
        #expect(twice.result.status == 2 && twice.result.stderr.contains("Email"), "\(twice.result.stderr)")
        var env = environment
        env["OPENAI_API_KEY"] = "sk-wrong-1234"
        let refused = try Leadport.run(["enrich", list, "--spec", try spec(), "--export", "out.csv", "--ledger", "cache.db"], in: dir, environment: env)
        #expect(refused.status == 2 && refused.stderr.contains("OPENAI_API_KEY") && !refused.stderr.contains("sk-wrong-1234"), "\(refused.stderr)")
        env["OPENAI_BASE_URL"] = ""
        env["OPENAI_API_KEY"] = ""
        let keyless = try Leadport.run(["enrich", list, "--spec", try spec(), "--export", "out.csv"], in: dir, environment: env)
        #expect(keyless.status == 2 && keyless.stderr.contains("OPENAI_API_KEY"), "\(keyless.stderr)")
    }

    /// A list is read twice (its head for the columns, then its rows): standard input is refused
    /// with how to save it, before anything is asked or written, and so is an empty list.
    @Test func standardInputAndAnEmptyListAreRefused() throws {
        let before = try requests()
        let piped = try Leadport.run(["enrich", "-", "--spec", try spec(), "--export", "out.csv", "--ledger", "stdin.db"], in: dir,
                                     stdin: Data("Name,Email\nAnn Lee,ann@example.com\n".utf8), environment: environment)
        #expect(piped.status == 2 && piped.stderr.contains("standard input cannot be") && piped.stderr.contains("leadport cat -"), "\(piped.stderr)")
        // Said before the endpoint's settings are asked for: without a key, the list's problem still comes first.
        var keyless = environment
        (keyless["OPENAI_BASE_URL"], keyless["OPENAI_API_KEY"]) = ("", "")
        let pipedKeyless = try Leadport.run(["enrich", "-", "--spec", try spec(), "--export", "out.csv", "--ledger", "stdin.db"], in: dir,
                                            stdin: Data("Name,Email\nAnn Lee,ann@example.com\n".utf8), environment: keyless)
        #expect(pipedKeyless.status == 2 && pipedKeyless.stderr.contains("standard input cannot be"), "\(pipedKeyless.stderr)")
        let empty = try write("empty.csv", "\n,,\n")
        let nothing = try leadport(["enrich", empty, "--spec", try spec(), "--export", "out.csv", "--ledger", "empty.db"])
        #expect(nothing.result.status == 2 && nothing.result.stderr.contains("there is nothing to import"), "\(nothing.result.stderr)")
        #expect(try requests() == before)
        for left in ["out.csv", "stdin.db", "empty.db"] { #expect(!FileManager.default.fileExists(atPath: path(left)), "\(left) left behind") }
    }
}
