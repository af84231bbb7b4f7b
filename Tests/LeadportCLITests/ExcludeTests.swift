import Foundation
import LeadTesting
import Testing

/// `import --exclude FILE`: a lead on a do-not-contact list is skipped at every destination with
/// the reason `excluded (LIST)`, and nothing of it is written.
@Suite struct ExcludeTests {
    @Test func leadsOnTheListAreSkippedEverywhereAndWrittenNowhere() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 6)
        try "Phone\n(617) 555-0002\n".write(to: t.dir.appendingPathComponent("dnc-phones.csv"), atomically: true, encoding: .utf8)
        try "PERSON5@example.com\n4 Main St, Boston MA 02134\n".write(to: t.dir.appendingPathComponent("dnc.txt"), atomically: true, encoding: .utf8)
        let run = try t.run(list, to: "sqlite:" + t.dir.appendingPathComponent("leads.db").path, campaign: nil, user: nil,
                            extra: ["--exclude", t.dir.appendingPathComponent("dnc-phones.csv").path, "--exclude", t.dir.appendingPathComponent("dnc.txt").path])
        #expect(run.result.status == 0, "\(run.result.stderr.suffix(600))")
        #expect(run.outcomes[3]?[0] == "skipped" && run.outcomes[3]?[1] == "excluded (dnc-phones.csv)", "\(run.outcomes)")
        #expect(run.outcomes[5]?[0] == "skipped" && run.outcomes[5]?[1] == "excluded (dnc.txt)")
        #expect(run.outcomes[6]?[0] == "skipped" && run.outcomes[6]?[1] == "excluded (dnc.txt)")
        #expect([2, 4, 7].allSatisfy { run.outcomes[$0]?[0] == "created" })
        let count = try Leadport.run(program: URL(fileURLWithPath: "sqlite3"), [t.dir.appendingPathComponent("leads.db").path, "SELECT count(*), sum(email IN ('person2@example.com','person4@example.com','person5@example.com')) FROM contacts"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3|0", "\(count.stdout) \(count.stderr)")
    }

    @Test func aListWithNothingReadableIsRefused() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 2)
        try "Name\nAnn\n".write(to: t.dir.appendingPathComponent("names.csv"), atomically: true, encoding: .utf8)
        let run = try t.run(list, to: "sqlite:" + t.dir.appendingPathComponent("leads.db").path, campaign: nil, user: nil, extra: ["--exclude", t.dir.appendingPathComponent("names.csv").path])
        #expect(run.result.status == 2)
        #expect(run.result.stderr.contains("--exclude") && run.result.stderr.contains("names.csv"), "\(run.result.stderr)")
        let missing = try t.run(list, to: "sqlite:" + t.dir.appendingPathComponent("leads.db").path, campaign: nil, user: nil, extra: ["--exclude", "nowhere.csv"])
        #expect(missing.result.status == 2 && missing.result.stderr.contains("nowhere.csv"), "\(missing.result.stderr)")
    }
}
