import Foundation
import LeadStore
import LeadTesting
import Testing

/// Reads a report CSV written by `--report` (no quoted newlines in these fixtures).
private func outcomes(_ url: URL) throws -> [Int: String] {
    let text = try String(contentsOf: url, encoding: .utf8)
    var result: [Int: String] = [:]
    for line in text.split(separator: "\r\n").dropFirst() {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(result[Int(cells[2])!] == nil, "row \(cells[2]) has two outcomes")
        result[Int(cells[2])!] = cells[4]
    }
    return result
}

@Suite struct ImportCommandTests {
    let fixture = "fixtures/xlsx/messy-open-house-leads.xlsx"

    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func everyRowEndsInExactlyOneOutcomeAndARerunCreatesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("leads.db").path
        let report = dir.appendingPathComponent("report.csv")
        let rejects = dir.appendingPathComponent("rejects.csv")
        let args = ["import", fixture, "--to", "sqlite:" + db, "--campaign", "October", "--progress", "none",
                    "--report", report.path, "--rejects", rejects.path]
        let first = try Leadport.run(args)
        #expect(first.status == 3, "a rejected row makes the exit status 3: \(first.stderr)")
        let firstOutcomes = try outcomes(report)
        // Rows 5-13 are data (title rows 1-3, header row 4).
        #expect(firstOutcomes.keys.sorted() == Array(5...13))
        #expect(firstOutcomes[9] == "skipped")    // same email as row 5
        #expect(firstOutcomes[10] == "rejected")  // nothing usable
        #expect(firstOutcomes[12] == "skipped")   // blank
        #expect(firstOutcomes.values.filter { $0 == "created" }.count == 6)
        let rejected = try String(contentsOf: rejects, encoding: .utf8)
        #expect(rejected.contains("not-an-email,call me"))
        #expect(rejected.contains("no @ in the address"))

        let second = try Leadport.run(args)
        #expect(second.status == 3)
        let secondOutcomes = try outcomes(report)
        #expect(secondOutcomes.values.filter { $0 == "created" }.isEmpty)
        #expect(secondOutcomes.values.filter { $0 == "unchanged" }.count == 6)
        #expect(second.stderr.contains("created 0, updated 0, unchanged 6, skipped 2, rejected 1"))
        #expect(try LeadStore(path: db).foreignKeyViolations() == 0)
    }

    @Test func dryRunWritesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("leads.db").path
        let result = try Leadport.run(["import", fixture, "--to", "sqlite:" + db, "--dry-run", "--progress", "jsonl"])
        #expect(result.stderr.contains("\"event\":\"run_finished\""))
        #expect(result.stderr.contains("\"created\":6"))
        let real = try Leadport.run(["import", fixture, "--to", "sqlite:" + db, "--progress", "none"])
        #expect(real.stderr.contains("created 6"), "the dry run must not have recorded anything: \(real.stderr)")
    }

    @Test func exportHasNormalisedColumnsAndFormulaProtection() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = dir.appendingPathComponent("processed.csv")
        _ = try Leadport.run(["import", fixture, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--progress", "none", "--export", export.path])
        let text = try String(contentsOf: export, encoding: .utf8)
        let lines = text.split(separator: "\r\n")
        #expect(lines.first?.hasSuffix("_status,_reason,_source_row") == true)
        // Row 5: SMITH, JOHN A with ZIP 2134 stored as a number in MA.
        let row5 = try #require(lines.first { $0.hasSuffix(",created,,5") })
        #expect(row5.contains("John A Smith"))
        #expect(row5.contains("'+16175550100"))   // a leading + would run as a formula in a spreadsheet
        #expect(row5.contains(",02134,"))
    }

    @Test func unmappableFileStopsWithASuggestion() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("numbers.csv")
        try "a,b\n1,2\n3,4\n".write(to: csv, atomically: true, encoding: .utf8)
        let result = try Leadport.run(["import", csv.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--mapping-out"))
    }

    /// The help's discussion (and so leadport-import(1)'s DESCRIPTION, scripts/make-man) names
    /// every outcome and every reason a row is skipped, as docs/cli.md does.
    @Test func helpNamesEveryOutcomeAndSkipReason() throws {
        let dump = try Leadport.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let tree = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        let commands = (tree?["command"] as? [String: Any])?["subcommands"] as? [[String: Any]] ?? []
        let discussion = try #require(commands.first { $0["commandName"] as? String == "import" }?["discussion"] as? String)
        for phrase in ["created", "updated", "unchanged", "skipped (a blank row, a duplicate of an earlier row in the run, or on an --exclude list)",
                       "rejected (with the reason)", "failed (", "pending (not sent"] {
            #expect(discussion.contains(phrase), "\(phrase): \(discussion)")
        }
    }
}
