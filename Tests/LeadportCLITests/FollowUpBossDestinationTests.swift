import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LeadTesting
import Testing

/// `--to followupboss`: the real binary against the Follow Up Boss double
/// (fixtures/servers/followupboss_double.py), every check on the report, the JSON-lines events
/// or what the double holds and counted.
@Suite(.serialized) struct FollowUpBossDestinationTests {
    static let key = "fub-test-key"
    static let systemKey = "fub-test-system-key"
    let server: LocalServer
    let t: RemoteImport

    init() throws {
        server = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "300"])
        t = try RemoteImport()
    }

    func environment(key: String = key, _ more: [String: String] = [:]) -> [String: String] {
        ["FUB_API_KEY": key, "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": Self.systemKey, "FUB_BASE_URL": "http://127.0.0.1:\(server.port)"].merging(more) { $1 }
    }

    /// A control of the double (`/_double/NAME`): GET, or POST with `body`.
    @discardableResult
    func control(_ name: String, _ body: String? = nil) throws -> [String: Any] {
        var request = URLRequest(url: server.url("/_double/" + name))
        if let body {
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
        }
        final class Box: @unchecked Sendable { var data: Data? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, _, _ in
            box.data = data
            done.signal()
        }.resume()
        done.wait()
        return try #require(try JSONSerialization.jsonObject(with: box.data ?? Data()) as? [String: Any])
    }

    func people() throws -> [[String: Any]] { try control("state")["people"] as? [[String: Any]] ?? [] }
    func events() throws -> [[String: Any]] { try control("state")["events"] as? [[String: Any]] ?? [] }
    func stats() throws -> [String: Any] { try control("stats") }
    func count(_ group: String, _ name: String) throws -> Int { (try stats()[group] as? [String: Int])?[name] ?? 0 }

    func batchEvents(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { line in
            guard line.contains("\"event\":\"batch\"") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    @Test func theImportHelpListsIt() throws {
        let help = try Leadport.run(["import", "--help"])
        #expect(help.stdout.contains("followupboss"), "\(help.stdout)")
    }

    /// A first import is one event per lead and makes each person once; a rerun sends nothing
    /// at all; one changed name is one PUT and nothing else.
    @Test func eachLeadIsOneEventARerunSendsNothingAndOneChangeIsOnePut() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 30)
        let first = try t.run(list, to: "followupboss", environment: environment())
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(RemoteImport.count(first.outcomes, "created") == 30)
        let held = try people()
        #expect(held.count == 30)
        #expect(try count("by_endpoint", "POST /v1/events") == 30)
        #expect(try count("by_endpoint", "GET /v1/me") == 1, "the key is checked once")
        #expect(try stats()["writes"] as? Int == 30)
        // The remote id is the person's; the campaign is a tag; the defaults are the event's.
        let person = try #require(held.first { ($0["emails"] as? [[String: Any]])?.first?["value"] as? String == "person1@example.com" })
        #expect(first.outcomes[2]?[2] == "\(person["id"]!)")
        #expect(person["tags"] as? [String] == ["Spring farm"])
        #expect((person["addresses"] as? [[String: Any]])?.first?["code"] as? String == "02134")
        #expect((person["phones"] as? [[String: Any]])?.first?["value"] as? String == "+16175550001")
        let event = try #require(try events().first)
        #expect(event["type"] as? String == "Registration" && event["source"] as? String == "LeadPort" && event["system"] as? String == "LeadPort")
        #expect(event["historical"] as? Bool == false)

        let requests = try stats()["requests"] as? Int
        let second = try t.run(list, to: "followupboss", environment: environment())
        #expect(second.result.status == 0, "\(second.result.stderr)")
        #expect(RemoteImport.count(second.outcomes, "unchanged") == 30)
        #expect(try stats()["requests"] as? Int == requests, "a rerun with nothing changed sends no request at all")

        let edited = try t.list("leads.csv", count: 30) { k, cells in if k == 4 { cells[0] = "Quentin Lee" } }
        let third = try t.run(edited, to: "followupboss", environment: environment())
        #expect(third.result.status == 0, "\(third.result.stderr)")
        #expect(third.outcomes[5]?[0] == "updated")
        #expect(RemoteImport.count(third.outcomes, "unchanged") == 29)
        #expect(try count("by_endpoint", "PUT /v1/people/{id}") == 1)
        #expect(try count("by_endpoint", "POST /v1/events") == 30)
        #expect(try stats()["writes"] as? Int == 31)
        let changed = try #require(try people().first { "\($0["id"]!)" == third.outcomes[5]?[2] })
        #expect(changed["firstName"] as? String == "Quentin")
        #expect(changed["tags"] as? [String] == ["Spring farm"], "tags merged, not replaced")
        #expect(try people().count == 30)
    }

    /// A person Follow Up Boss has already (same email) is matched, not made twice: the event's
    /// 200 is an update. A lost ledger therefore costs events, not duplicates.
    @Test func aPersonFollowUpBossHasIsMatchedAndReportedAsUpdated() throws {
        defer { t.remove() }
        try control("seed", #"{"people":[{"firstName":"Agent","lastName":"Typed","emails":[{"value":"person2@example.com"}],"tags":["VIP"]}]}"#)
        let list = try t.list("leads.csv", count: 3)
        let run = try t.run(list, to: "followupboss", environment: environment())
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.outcomes[3]?[0] == "updated" && run.outcomes[3]?[2] == "1")
        #expect(RemoteImport.count(run.outcomes, "created") == 2)
        let seeded = try #require(try people().first { $0["id"] as? Int == 1 })
        #expect(seeded["firstName"] as? String == "Agent", "an event fills blanks only")
        #expect(seeded["tags"] as? [String] == ["VIP", "Spring farm"])
        #expect(try people().count == 3)
    }

    /// A connection dropped after Follow Up Boss made the person: the person is looked up by
    /// email and found, so the event is not sent again (issue 22 item 1: it was, and the
    /// timeline showed it twice); the row is `created`, the person there once, with one event.
    @Test func aConnectionDroppedAfterTheWriteMakesNoDuplicate() throws {
        defer { t.remove() }
        try control("faults", #"{"after":1,"match":{"method":"POST","path":"/v1/events"},"responses":[{"drop":true}]}"#)
        let list = try t.list("leads.csv", count: 3)
        let run = try t.run(list, to: "followupboss", environment: environment())
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(try stats()["dropped"] as? Int == 1)
        #expect(RemoteImport.count(run.outcomes, "created") == 3, "\(run.outcomes)")
        #expect(try people().count == 3)
        #expect(try events().count == 3)
    }

    /// Issue 22 item 3: events went one at a time, so one 503's backoff idled the whole lane
    /// (1,860 leads at 8 % 503s did not finish in four minutes). Now several are in flight: while
    /// person 1's event waits out its 503, the others' events go (the double's request log
    /// shows them between the two tries), and every lead is delivered once.
    @Test func oneEventsBackoffDoesNotIdleTheLane() throws {
        defer { t.remove() }
        try control("faults", #"{"match":{"method":"POST","path":"/v1/events"},"responses":[{"status":503}]}"#)
        let run = try t.run(try t.list("leads.csv", count: 30), to: "followupboss", environment: environment())
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 30, "\(run.outcomes)")
        let log = try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("/_double/requests"))) as? [[String: Any]] ?? []
        let events = log.filter { $0["method"] as? String == "POST" && ($0["path"] as? String)?.hasPrefix("/v1/events") == true }
        let refused = try #require(events.firstIndex { "\($0["status"] ?? "")" == "503" })
        let email = (((events[refused]["body"] as? [String: Any])?["person"] as? [String: Any])?["emails"] as? [[String: Any]])?.first?["value"] as? String
        let retried = try #require(events.indices.first { $0 > refused && ((((events[$0]["body"] as? [String: Any])?["person"] as? [String: Any])?["emails"] as? [[String: Any]])?.first?["value"] as? String) == email })
        #expect(retried - refused > 5, "only \(retried - refused - 1) other events went during the backoff")
        #expect(try people().count == 30)
    }

    /// A dropped event whose person Follow Up Boss cannot match (a phone without a last name)
    /// stopped the run; now the person is looked up by phone and found, and the run goes on.
    @Test func aDroppedEventFollowUpBossCannotMatchIsFoundByPhone() throws {
        defer { t.remove() }
        try control("faults", #"{"match":{"method":"POST","path":"/v1/events"},"responses":[{"drop":true}]}"#)
        let list = t.dir.appendingPathComponent("bare.csv")
        try "Name,Phone\nBo,617-555-0111\nCy,617-555-0112\n".write(to: list, atomically: true, encoding: .utf8)
        let run = try t.run(list, to: "followupboss", environment: environment())
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 2, "\(run.outcomes)")
        #expect(try stats()["dropped"] as? Int == 1)
        #expect(try people().count == 2)
        #expect(try events().count == 2)
    }

    /// One record Follow Up Boss refuses is rejected alone with its reason, naming the field,
    /// and scrubbed of the credentials the server repeated; the rest are delivered (exit 3).
    @Test func oneBadRecordIsRejectedAloneWithTheRemotesReasonAndNoSecret() throws {
        defer { t.remove() }
        try control("config", #"{"echo_credentials_in_errors":true}"#)
        try control("faults", #"{"reject":[{"email":"person3@example.com","errorMessage":"Invalid email: person3@example.com"}]}"#)
        let list = try t.list("leads.csv", count: 10)
        let run = try t.run(list, to: "followupboss", environment: environment())
        #expect(run.result.status == 3, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 9)
        #expect(run.outcomes[4]?[0] == "rejected")
        let reason = run.outcomes[4]?[1] ?? ""
        #expect(reason.contains("400: Invalid email: person3@example.com"), "\(reason)")
        #expect(reason.contains("[redacted]"), "the double echoed the credentials: \(reason)")
        let basic = Data("\(Self.key):".utf8).base64EncodedString()
        for secret in [Self.key, basic, Self.systemKey] {
            #expect(!reason.contains(secret) && !run.result.stderr.contains(secret), "\(secret) shown")
        }
        #expect(try people().count == 9)
        // The rejected row is not in the ledger: fixed at Follow Up Boss, a rerun sends it alone.
        try control("reset", "{}")
        let rerun = try t.run(list, to: "followupboss", environment: environment())
        #expect(rerun.result.status == 0, "\(rerun.result.stderr)")
        #expect(rerun.outcomes[4]?[0] == "created" && RemoteImport.count(rerun.outcomes, "unchanged") == 9)
    }

    /// Issue 22 item 4: Follow Up Boss refusing one field of a person (`Invalid phone: …`) costs
    /// only that field: the person is sent again without it, the row stays created, and its
    /// reason names the field and Follow Up Boss's words. `--strict-fields` rejects it whole.
    @Test func aRefusedFieldIsLeftOutAndNamedNotThePerson() throws {
        defer { t.remove() }
        try control("faults", #"{"reject":[{"phone":"+16175550003","errorMessage":"Invalid phone: +16175550003"}]}"#)
        let run = try t.run(try t.list("leads.csv", count: 5), to: "followupboss", environment: environment())
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 5, "\(run.outcomes)")
        let reason = run.outcomes[4]?[1] ?? ""
        #expect(reason.hasPrefix("phone not written: ") && reason.contains("Invalid phone: +16175550003"), "\(reason)")
        let three = try #require(try people().first { ($0["emails"] as? [[String: Any]])?.first?["value"] as? String == "person3@example.com" })
        #expect((three["phones"] as? [[String: Any]] ?? []).isEmpty)
        #expect(try people().count == 5)

        let strict = try t.run(try t.list("more.csv", count: 5) { k, cells in cells[1] = "other\(k)@example.com" }, to: "followupboss",
                               extra: ["--strict-fields"], environment: environment(), ledger: "strict.db")
        #expect(strict.result.status == 3, "\(strict.result.stderr)")
        #expect(strict.outcomes[4]?[0] == "rejected" && (strict.outcomes[4]?[1] ?? "").contains("Invalid phone"), "\(strict.outcomes)")
    }

    /// Issue 13 item 8: 204 (the source's lead flow is archived) is a skip with that reason; the
    /// engine has no "skipped" answer, so the row is rejected, not recorded, and sent again later.
    @Test func anArchivedSourceIsRejectedWithThatReason() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 4)
        let run = try t.run(list, to: "followupboss", environment: environment(["FUB_SOURCE": "Archived Lead Flow"]))
        #expect(run.result.status == 3, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "rejected") == 4)
        #expect(run.outcomes[2]?[1].contains("skipped: the lead flow of source \"Archived Lead Flow\" is archived") == true, "\(run.outcomes)")
        #expect(try people().isEmpty)
        #expect(try stats()["archived_ignored"] as? Int == 4)
        let other = try t.run(list, to: "followupboss", environment: environment())
        #expect(RemoteImport.count(other.outcomes, "created") == 4, "\(other.result.stderr)")
    }

    /// Type, source and tags from the settings; `FUB_HISTORICAL` dates each event so that no
    /// action plan fires.
    @Test func aHistoricalListFiresNoActionPlanAndCarriesTheSettingsTypeSourceAndTags() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 3)
        let run = try t.run(list, to: "followupboss", environment: environment([
            "FUB_HISTORICAL": "2021-03-01", "FUB_EVENT_TYPE": "Seller Inquiry", "FUB_SOURCE": "Door knock 2021", "FUB_TAGS": "Farm, 2021 ,",
        ]))
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let sent = try events()
        #expect(sent.count == 3)
        for event in sent {
            #expect(event["occurredAt"] as? String == "2021-03-01T00:00:00Z")
            #expect(event["historical"] as? Bool == true)
            #expect((event["triggered"] as? [String: Bool])?["actionPlans"] == false)
            #expect(event["type"] as? String == "Seller Inquiry" && event["source"] as? String == "Door knock 2021")
        }
        #expect(try people().allSatisfy { $0["tags"] as? [String] == ["Farm", "2021", "Spring farm"] })

        let bad = try t.run(list, to: "followupboss", environment: environment(["FUB_EVENT_TYPE": "Cold Call"]))
        #expect(bad.result.status == 2)
        #expect(bad.result.stderr.contains("FUB_EVENT_TYPE"), "\(bad.result.stderr)")
        let recent = try t.run(list, to: "followupboss", environment: environment(["FUB_HISTORICAL": "yes"]))
        #expect(recent.result.status == 2)
        #expect(recent.result.stderr.contains("FUB_HISTORICAL"), "\(recent.result.stderr)")
    }

    /// A 429 with Retry-After is waited out as asked, once, and every lead arrives once.
    @Test func a429IsWaitedOutAsRetryAfterSays() throws {
        defer { t.remove() }
        try control("faults", #"{"after":2,"match":{"method":"POST","path":"/v1/events"},"responses":[{"status":429,"retry_after":"2"}]}"#)
        let list = try t.list("leads.csv", count: 6)
        let started = Date()
        let run = try t.run(list, to: "followupboss", environment: environment())
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(Date().timeIntervalSince(started) >= 2)
        #expect(RemoteImport.count(run.outcomes, "created") == 6)
        #expect(try count("by_status", "429") == 1)
        #expect(try count("by_endpoint", "POST /v1/events") == 7)
        let retries = batchEvents(run.result.stderr).filter { ($0["status"] as? String)?.hasPrefix("retry") == true }
        #expect(retries.count == 1 && retries.first?["retry_after"] as? Double == 2, "\(retries)")
        #expect(try people().count == 6)
    }

    /// A wrong key stops the run within seconds with one message naming FUB_API_KEY, after one
    /// request; the key never shows, though the server echoes it; every row waits for the next
    /// run, which sends them all. A missing key is a configuration error (exit 2).
    @Test func aBadKeyStopsAtOnceNamingTheVariableAndLeavesEveryRowForTheNextRun() throws {
        defer { t.remove() }
        try control("config", #"{"echo_credentials_in_errors":true}"#)
        let wrong = "fub-wrong-key-echoed-back-0123"
        let list = try t.list("leads.csv", count: 5)
        let started = Date()
        let run = try t.run(list, to: "followupboss", environment: environment(key: wrong))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(run.result.status == 1, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("FUB_API_KEY") && run.result.stderr.contains("[redacted]"), "\(run.result.stderr)")
        let basic = Data("\(wrong):".utf8).base64EncodedString()
        for secret in [wrong, basic, Self.systemKey] { #expect(!run.result.stderr.contains(secret), "\(secret) shown") }
        #expect(!run.outcomes.isEmpty && run.outcomes.values.allSatisfy { $0[0] == "pending" && $0[1].hasPrefix("not sent: ") }, "every row is pending: \(run.outcomes)")
        #expect(try stats()["requests"] as? Int == 1)

        let fixed = try t.run(list, to: "followupboss", environment: environment())
        #expect(fixed.result.status == 0, "\(fixed.result.stderr)")
        #expect(RemoteImport.count(fixed.outcomes, "created") == 5)

        let unset = try t.run(list, to: "followupboss", environment: environment(key: ""))
        #expect(unset.result.status == 2)
        #expect(unset.result.stderr.contains("FUB_API_KEY is not set"), "\(unset.result.stderr)")
    }

    /// A key revoked mid-run stops the destination: what was confirmed is recorded, the rest is
    /// left for the next run, which sends only that (every person once).
    @Test func aKeyRevokedMidRunKeepsWhatWasSentAndTheRerunSendsTheRest() throws {
        defer { t.remove() }
        try control("faults", #"{"revoke_after":4}"#)  // GET /v1/me, then three events
        let list = try t.list("leads.csv", count: 10)
        let run = try t.run(list, to: "followupboss", environment: environment())
        #expect(run.result.status == 1, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("FUB_API_KEY"))
        #expect(try people().count == 3)
        // (The engine leaves a stopped run's report without rows; the ledger holds the three,
        // as the rerun shows.)
        try control("faults", #"{"restore":true}"#)
        let rerun = try t.run(list, to: "followupboss", environment: environment())
        #expect(rerun.result.status == 0, "\(rerun.result.stderr)")
        #expect(RemoteImport.count(rerun.outcomes, "created") == 7 && RemoteImport.count(rerun.outcomes, "unchanged") == 3)
        #expect(try people().count == 10)
        #expect(try events().count == 10)
    }

    /// A base URL nothing listens on stops the run within seconds, naming FUB_BASE_URL.
    @Test func aBaseURLThatCannotBeReachedStopsWithinSeconds() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 5)
        let started = Date()
        let run = try t.run(list, to: "followupboss", environment: environment(["FUB_BASE_URL": "http://127.0.0.1:\(LocalServer.closedPort())"]))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(run.result.status == 1)
        #expect(run.result.stderr.contains("FUB_BASE_URL"), "\(run.result.stderr)")
        #expect(!run.outcomes.isEmpty && run.outcomes.values.allSatisfy { $0[0] == "pending" && $0[1].hasPrefix("not sent: ") }, "\(run.outcomes)")
    }
}
