import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LeadTesting
import Testing

/// `--to supabase` against the PostgREST double (fixtures/servers/postgrest_double.py) over a
/// real PostgreSQL database: the constraint violations are PostgreSQL's own.
@Suite(.serialized) struct SupabaseDestinationTests {
    let db: TestPostgres
    let double: LocalServer
    let t: RemoteImport

    init() throws {
        db = try TestPostgres()
        double = try LocalServer(script: "servers/postgrest_double.py", arguments: ["--db", db.url])
        t = try RemoteImport()
    }

    func token(role: String, sub: String? = nil) throws -> String {
        let query = "role=\(role)" + (sub.map { "&sub=\($0)" } ?? "")
        let data = try Data(contentsOf: double.url("/_double/token?" + query))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["token"] as! String
    }

    var serviceRole: [String: String] {
        get throws { ["SUPABASE_URL": double.url("").absoluteString, "SUPABASE_SERVICE_ROLE_KEY": try token(role: "service_role")] }
    }

    func faults(_ json: String) throws {
        var request = URLRequest(url: double.url("/_double/faults"))
        request.httpMethod = "POST"
        request.httpBody = Data(json.utf8)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        done.wait()
    }

    func stats() throws -> [String: Int] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: double.url("/_double/stats"))) as! [String: Int]
    }

    func batchEvents(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { line in
            guard line.contains("\"event\":\"batch\"") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// Issue 22 item 6: a project answering 503 to every write stops once it has answered
    /// nothing else for LEADPORT_FAIL_AFTER seconds: one message naming the setting, exit 1,
    /// the rows pending (the campaign, made before, stays).
    @Test func aProjectAnswering503ToEverythingStopsAfterFailAfter() throws {
        defer { t.remove() }
        try faults("{\"after\": 1, \"statuses\": [" + Array(repeating: "[503, null]", count: 40).joined(separator: ",") + "]}")
        let started = Date()
        let run = try t.run(try t.list("leads.csv", count: 6), to: "supabase", environment: try serviceRole.merging(["LEADPORT_FAIL_AFTER": "2"]) { $1 })
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(run.result.status == 1, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("supabase") && run.result.stderr.contains("LEADPORT_FAIL_AFTER"), "\(run.result.stderr)")
        #expect(!run.outcomes.isEmpty && run.outcomes.values.allSatisfy { $0[0] == "pending" }, "\(run.outcomes)")
        #expect(try db.int("SELECT count(*) FROM contacts") == 0)
    }

    /// Issue 12: with the service-role key and no --user, a campaign made in FLYR by another
    /// owner was not found (looked up by id and owner) and LeadPort tried to create a campaign
    /// named after the id (409, 23503).
    @Test func aCampaignIdFindsACampaignOfAnyOwnerAndAnUnknownIdIsAnError() throws {
        defer { t.remove() }
        try ExistingCampaign.check(db, t, to: "supabase", environment: try serviceRole)
    }

    @Test func importsThroughRestInBatchesAndARerunSendsNothing() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 1200)
        let first = try t.run(list, to: "supabase", environment: try serviceRole)
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(RemoteImport.count(first.outcomes, "created") == 1200)
        #expect(try db.int("SELECT count(*) FROM contacts c JOIN campaign_addresses a ON a.id = c.address_id") == 1200)
        // Batches of 500 (and the last 200): one request per table each.
        #expect(batchEvents(first.result.stderr).map { $0["size"] as? Int } == [500, 500, 200])
        let writes = try stats()["writes"]!
        #expect(writes == 1 + 3 * 2)  // the campaign, then addresses and contacts per batch

        let second = try t.run(list, to: "supabase", environment: try serviceRole)
        #expect(second.result.status == 0)
        #expect(RemoteImport.count(second.outcomes, "unchanged") == 1200)
        #expect(try stats()["writes"]! == writes)
    }

    /// Issue 13 item 1: the settings may come from LeadPort's config file instead of the
    /// environment, and a file others could read is refused before anything is sent.
    @Test func credentialsComeFromTheConfigFileWhenOnlyItsOwnerCanReadIt() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 20)
        let config = t.dir.appendingPathComponent("config.yaml")
        let key = try token(role: "service_role")
        try "SUPABASE_URL: \(double.url("").absoluteString)\nSUPABASE_SERVICE_ROLE_KEY: \(key)\n".write(to: config, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config.path)
        let refused = try t.run(list, to: "supabase", environment: ["LEADPORT_CONFIG": config.path])
        #expect(refused.result.status == 2)
        #expect(refused.result.stderr.contains("chmod 600") && !refused.result.stderr.contains(key), "\(refused.result.stderr)")
        #expect(try stats()["writes"] == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        let first = try t.run(list, to: "supabase", environment: ["LEADPORT_CONFIG": config.path])
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(RemoteImport.count(first.outcomes, "created") == 20)
        #expect(try db.int("SELECT count(*) FROM contacts") == 20)
    }

    @Test func aConstraintViolationMidBatchIsNarrowedToItsRowWithPostgrestsReason() throws {
        defer { t.remove() }
        try db.connection.execute("ALTER TABLE contacts ADD CONSTRAINT no_blocked_domain CHECK (email NOT LIKE '%@blocked.example')")
        let list = try t.list("leads.csv", count: 300) { k, cells in if k == 150 { cells[1] = "p@blocked.example" } }
        let run = try t.run(list, to: "supabase", environment: try serviceRole)
        #expect(run.result.status == 3, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 299)
        let reason = run.outcomes[151]?[1] ?? ""
        #expect(run.outcomes[151]?[0] == "rejected")
        #expect(reason.hasPrefix("400 23514:"), "\(reason)")
        #expect(reason.contains("no_blocked_domain"))
        #expect(try db.int("SELECT count(*) FROM contacts") == 299)
        // The first refusal split the batch: several requests, each reported.
        #expect(batchEvents(run.result.stderr).contains { $0["status"] as? String == "failed" })
    }

    @Test func a429WithRetryAfterAndA5xxStormAreWaitedOut() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 50)
        // The campaign's creation is the first write: it meets a 429 asking for 1 s, then
        // the addresses meet three 503s in a row.
        try faults(#"{"statuses": [[429, "1"], [503, null], [503, null], [503, null]]}"#)
        let started = Date()
        let run = try t.run(list, to: "supabase", environment: try serviceRole)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 50)
        #expect(Date().timeIntervalSince(started) >= 1)
        let retries = batchEvents(run.result.stderr).filter { ($0["status"] as? String)?.hasPrefix("retry") == true }
        #expect(retries.count == 4)
        #expect(retries.first?["retry_after"] as? Double == 1)
        #expect(try db.int("SELECT count(*) FROM contacts") == 50)
    }

    @Test func aConnectionDroppedAfterTheWriteCommittedCreatesNoDuplicate() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 80)
        // The campaign is created; then the addresses are committed and the answer is lost.
        let warmUp = try t.run(try t.list("warmup.csv", count: 1), to: "supabase", environment: try serviceRole)
        #expect(warmUp.result.status == 0, "\(warmUp.result.stderr)")
        try faults(#"{"drop_after_commit": 1}"#)
        let run = try t.run(list, to: "supabase", environment: try serviceRole)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 79)
        #expect(RemoteImport.count(run.outcomes, "unchanged") == 1)  // person 1, from the warm-up
        #expect(try db.int("SELECT count(*) FROM campaign_addresses") == 80)
        #expect(try db.int("SELECT count(*) FROM contacts") == 80)
        #expect(try db.int("SELECT count(*) FROM campaigns") == 1)
        // The dropped write was sent again (the warm-up's three writes, then addresses twice
        // and contacts once), and the second time added nothing.
        #expect(try stats()["writes"] == 6)
    }

    @Test func aDestinationThatFailsMidRunStopsItAndARerunFinishesWithoutDuplicates() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 1200)
        let warmUp = try t.run(try t.list("warmup.csv", count: 1), to: "supabase", environment: try serviceRole)
        #expect(warmUp.result.status == 0, "\(warmUp.result.stderr)")
        // Batches of 500: the addresses and contacts of the first go in, then the second
        // batch's addresses meet a refusal that no retry mends, while the next batch is being
        // prepared on the other thread.
        try faults(#"{"after": 2, "statuses": [[403, null]]}"#)
        let stopped = try t.run(list, to: "supabase", environment: try serviceRole)
        #expect(stopped.result.status == 1, "\(stopped.result.stderr)")
        #expect(stopped.result.stderr.contains("403"), "\(stopped.result.stderr)")
        // The warm-up's lead (the list's first, found there), and the first batch's 500.
        #expect(try db.int("SELECT count(*) FROM contacts") == 501)
        let rerun = try t.run(list, to: "supabase", environment: try serviceRole)
        #expect(rerun.result.status == 0, "\(rerun.result.stderr)")
        #expect(RemoteImport.count(rerun.outcomes, "created") + RemoteImport.count(rerun.outcomes, "unchanged") == 1200)
        #expect(rerun.outcomes.count == 1200)
        #expect(try db.int("SELECT count(*) FROM contacts") == 1200)
        #expect(try db.int("SELECT count(*) FROM campaign_addresses") == 1200)
        #expect(try db.int("SELECT count(*) FROM (SELECT DISTINCT address_id FROM contacts) AS a") == 1200)
    }

    @Test func aUsersTokenWritesAsThatUserAndNoOneElse() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 5)
        let token = try token(role: "authenticated", sub: TestPostgres.user)
        let user = ["SUPABASE_URL": double.url("").absoluteString, "SUPABASE_ACCESS_TOKEN": token, "SUPABASE_ANON_KEY": "anon-key"]
        // RemoteImport passes --user TestPostgres.user, which is the token's user.
        let run = try t.run(list, to: "supabase", environment: user)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(try db.int("SELECT count(*) FROM contacts WHERE user_id = $1::uuid", [TestPostgres.user]) == 5)
        #expect(try db.int("SELECT count(*) FROM campaigns WHERE owner_id = $1::uuid", [TestPostgres.user]) == 1)
        // Another user's id beside the token is refused before anything is sent.
        let other = try Leadport.run(["import", list.path, "--to", "supabase", "--user", "99999999-2222-4333-8444-555555555555",
                                      "--ledger", t.dir.appendingPathComponent("x.db").path, "--progress", "none"], environment: user)
        #expect(other.status == 2)
        #expect(other.stderr.contains("is not the user of SUPABASE_ACCESS_TOKEN"), "\(other.stderr)")
    }

    @Test func badCredentialsStopTheRunWithoutLeakingTheKey() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 5)
        let wrong = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.not-the-signature-at-all"
        let run = try t.run(list, to: "supabase", environment: ["SUPABASE_URL": double.url("").absoluteString, "SUPABASE_SERVICE_ROLE_KEY": wrong])
        #expect(run.result.status == 1)
        #expect(run.result.stderr.contains("401 PGRST301"), "\(run.result.stderr)")
        #expect(!run.result.stderr.contains("not-the-signature"))
        #expect(try db.int("SELECT count(*) FROM contacts") == 0)
        let unset = try t.run(list, to: "supabase", environment: ["SUPABASE_URL": "", "SUPABASE_SERVICE_ROLE_KEY": ""])
        #expect(unset.result.status == 2)
        #expect(unset.result.stderr.contains("SUPABASE_URL"))
    }

    /// Issue 13 item 5: a 401 whose body repeated the Supabase key was printed on stderr in
    /// full. With a server that echoes the credentials, neither stderr nor the report holds them.
    @Test func aKeyTheServerEchoesIsScrubbedFromEverythingPrinted() throws {
        defer { t.remove() }
        let echoing = try LocalServer(script: "servers/postgrest_double.py", arguments: ["--db", db.url, "--echo-credentials-in-errors"])
        let list = try t.list("leads.csv", count: 5)
        let wrong = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.echoed-back-by-the-server"
        let run = try t.run(list, to: "supabase", environment: ["SUPABASE_URL": echoing.url("").absoluteString, "SUPABASE_SERVICE_ROLE_KEY": wrong])
        #expect(run.result.status == 1)
        #expect(run.result.stderr.contains("401") && run.result.stderr.contains("[redacted]"), "\(run.result.stderr)")
        #expect(!run.result.stderr.contains("echoed-back-by-the-server"), "\(run.result.stderr)")
    }

    /// A project that cannot be reached stops the run at once, not after minutes of retries.
    @Test func aProjectThatCannotBeReachedStopsWithinSeconds() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 5)
        let started = Date()
        let run = try t.run(list, to: "supabase", environment: ["SUPABASE_URL": "http://127.0.0.1:\(LocalServer.closedPort())", "SUPABASE_SERVICE_ROLE_KEY": try token(role: "service_role")])
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(run.result.status == 1)
        #expect(run.result.stderr.contains("cannot be reached"), "\(run.result.stderr)")
    }
}
