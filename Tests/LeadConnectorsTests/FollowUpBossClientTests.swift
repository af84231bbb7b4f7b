import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadTesting
import Testing

/// The Follow Up Boss client through real HTTP against fixtures/servers/followupboss_double.py;
/// every check reads what the double holds and counted (/_double/state, /_double/stats).
@Suite(.serialized) struct FollowUpBossClientTests {
    static let key = "fub-test-key"
    static let systemKey = "fub-test-system-key"
    let server: LocalServer

    init() throws { server = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "120"]) }

    private func environment(key: String = key, port: Int? = nil) -> [String: String] {
        ["FUB_API_KEY": key, "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": Self.systemKey, "FUB_BASE_URL": "http://127.0.0.1:\(port ?? server.port)"]
    }

    /// A client with short backoff waits (the schedule's shape is HTTPKit's and tested there).
    private func api(key: String = key, port: Int? = nil, backoff: BackoffPolicy = BackoffPolicy(base: 0.05, cap: 0.2, maxAttempts: 6)) throws -> FollowUpBossAPI {
        FollowUpBossAPI(config: try FollowUpBossConfig(environment: environment(key: key, port: port)), backoff: backoff)
    }

    @discardableResult
    private func control(_ path: String, _ body: String? = nil) throws -> [String: Any] {
        let request = HTTPRequest(method: body == nil ? "GET" : "POST", url: server.url("/_double/" + path), headers: HTTPHeaders([("Content-Type", "application/json")]),
                                  body: body.map { Data($0.utf8) })
        let response = try CurlTransport().send(request)
        return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    private func people() throws -> [[String: Any]] { try control("state")["people"] as? [[String: Any]] ?? [] }
    private func events() throws -> [[String: Any]] { try control("state")["events"] as? [[String: Any]] ?? [] }
    private func statuses() throws -> [String: Int] { try control("stats")["by_status"] as? [String: Int] ?? [:] }
    private func stat(_ name: String) throws -> Int { try control("stats")[name] as? Int ?? -1 }

    /// The error `body` throws, and the seconds it took to.
    private func failure(_ body: () throws -> Any) throws -> (FollowUpBossError, Double) {
        let start = Date()
        var caught: FollowUpBossError?
        do { _ = try body() } catch let e as FollowUpBossError { caught = e }
        return (try #require(caught), Date().timeIntervalSince(start))
    }

    static func lead(_ first: String, _ last: String, email: String? = nil, phone: String? = nil, row: Int = 2) -> Lead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: row))
        (lead.givenName, lead.familyName, lead.email, lead.phone) = (first, last, email, phone)
        return lead
    }

    /// A door-knock list's row as the pipeline leaves it: every kind of field filled.
    static var annLee: Lead {
        var lead = lead("Ann", "Lee", email: "ann.lee@example.com", phone: "+16175550100")
        lead.mobile = "+16175550199"
        lead.company = "Lee Realty"
        lead.notes = "Asked about a valuation in spring"
        lead.date = "2023-04-05"
        lead.address.houseNumber = "12"
        lead.address.streetName = "MAIN"
        lead.address.streetSuffix = "ST"
        lead.address.unitType = "APT"
        lead.address.unitID = "4"
        lead.address.city = "SPRINGFIELD"
        lead.address.state = "MA"
        lead.address.postalCode = "01101"
        lead.address.country = "US"
        lead.extras = [("Close Date", "2024-06-30"), ("Ignored", "x"), ("Blank", "  ")]
        return lead
    }

    static let mapping = try! FollowUpBossMapping(tags: ["Door knock", " "], customFields: ["customCloseDate": "close date", "customEmpty": "Blank"])

    // MARK: Configuration

    @Test func configurationNamesTheVariableToSetAndShowsNoSecret() throws {
        func message(_ env: [String: String]) -> (String, FailureDisposition?)? {
            do { _ = try FollowUpBossConfig(environment: env) } catch let e as FollowUpBossError { return (e.message, e.disposition) } catch { return nil }
            return nil
        }
        #expect(message([:])?.0.contains("FUB_API_KEY is not set") == true)
        #expect(message([:])?.1 == .usage)
        #expect(message(["FUB_API_KEY": "k-1234", "FUB_SYSTEM": "LeadPort"])?.0.contains("FUB_SYSTEM_KEY") == true)
        #expect(message(["FUB_API_KEY": "k-1234", "FUB_SYSTEM_KEY": "s-1234"])?.0.contains("FUB_SYSTEM is not set") == true)
        #expect(message(["FUB_API_KEY": "k-1234", "FUB_BASE_URL": "http://127.0.0.1:9/v1"])?.0.contains("FUB_BASE_URL has a path") == true)
        #expect(message(["FUB_API_KEY": "k-1234", "FUB_BASE_URL": "ftp://example.com"])?.0.contains("FUB_BASE_URL is not an http(s) URL") == true)
        #expect(message(["FUB_API_KEY": "k-1234", "FUB_BASE_URL": "https://u:p@example.com"])?.0.contains("FUB_BASE_URL holds a user name") == true)
        let bad = message(["FUB_API_KEY": "secret-with:colon"])
        #expect(bad?.0.hasPrefix("FUB_API_KEY holds characters") == true)
        #expect(bad?.0.contains("secret-with") == false)

        let config = try FollowUpBossConfig(environment: ["FUB_API_KEY": " key-5678 ", "FUB_BASE_URL": "http://127.0.0.1:8080/"])
        #expect(config.apiKey == "key-5678")
        #expect(config.system == "LeadPort" && config.systemKey == nil)
        #expect(config.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(!config.description.contains("key-5678"))
        #expect(FollowUpBossConfig(apiKey: "k", systemKey: nil).baseURL.absoluteString == "https://api.followupboss.com")
    }

    // MARK: Payload

    @Test func aLeadBecomesOneEventWithSortedKeysAndNoBlankValue() throws {
        let event = Self.mapping.event(Self.annLee, system: "LeadPort", campaign: "Spring 2024")
        let expected = #"{"description":"Company: Lee Realty","message":"Asked about a valuation in spring","person":{"#
            + #""addresses":[{"city":"SPRINGFIELD","code":"01101","country":"US","state":"MA","street":"12 MAIN ST APT 4","type":"home"}],"#
            + #""customCloseDate":"2024-06-30","emails":[{"value":"ann.lee@example.com"}],"firstName":"Ann","lastName":"Lee","#
            + #""phones":[{"value":"+16175550100"},{"type":"mobile","value":"+16175550199"}],"tags":["Door knock","Spring 2024"]},"#
            + #""source":"LeadPort","system":"LeadPort","type":"Registration"}"#
        #expect(String(decoding: event.canonicalData, as: UTF8.self) == expected)
        #expect(Self.mapping.event(Self.annLee, system: "LeadPort", campaign: "Spring 2024").canonicalData == event.canonicalData, "the same lead, the same bytes")

        var sparse = Self.lead("Bo", " ", email: " ", phone: "+16175550111")
        sparse.notes = "\n"
        let bare = try FollowUpBossMapping().event(sparse, system: "LeadPort")
        #expect(bare.json.canonicalText == #"{"person":{"firstName":"Bo","phones":[{"value":"+16175550111"}]},"source":"LeadPort","system":"LeadPort","type":"Registration"}"#)
        #expect(!bare.person.isIdentifiable, "a phone without a last name: Follow Up Boss could not match it again")

        let historical = try FollowUpBossMapping(eventType: "Seller Inquiry", source: "Door knocking", timing: .historical(fallback: "2020-01-01T00:00:00Z"))
        #expect(historical.event(Self.annLee, system: "LeadPort").occurredAt == "2023-04-05T00:00:00Z")
        #expect(historical.event(sparse, system: "LeadPort").occurredAt == "2020-01-01T00:00:00Z")
        #expect(throws: FollowUpBossError.self) { try FollowUpBossMapping(customFields: ["Close Date": "Close Date"]) }
        #expect(throws: FollowUpBossError.self) { try FollowUpBossMapping(eventType: "Lead") }
    }

    @Test func realisticLeadsArriveWithEveryFieldAndTheirIDsComeBack() throws {
        let api = try api()
        var bob = Self.lead("Bob", "Stone", email: "BOB@example.com", row: 3)
        bob.mailingAddress = PostalAddress()
        bob.mailingAddress?.poBoxID = "77"
        bob.mailingAddress?.city = "BOSTON"
        bob.mailingAddress?.state = "MA"
        bob.mailingAddress?.postalCode = "02101"
        let cy = Self.lead("Cy", "Young", phone: "+16175550123", row: 4)
        let writes = [Self.annLee, bob, cy].map { FollowUpBossWrite.event(Self.mapping.event($0, system: "LeadPort", campaign: "Spring 2024")) }
        let result = api.send(writes)
        #expect(result.stoppedBy == nil)
        let held = try people()
        #expect(held.count == 3)
        #expect(result.outcomes.map(\.personID) == held.map { $0["id"] as? Int })
        guard case .created = result.outcomes[0] else { Issue.record("\(result.outcomes[0])"); return }

        let ann = held[0]
        #expect(ann["firstName"] as? String == "Ann" && ann["lastName"] as? String == "Lee")
        #expect((ann["emails"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["ann.lee@example.com"])
        #expect((ann["phones"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["+16175550100", "+16175550199"])
        #expect((ann["addresses"] as? [[String: Any]])?.first?["street"] as? String == "12 MAIN ST APT 4")
        #expect((ann["addresses"] as? [[String: Any]])?.first?["code"] as? String == "01101")
        #expect(ann["tags"] as? [String] == ["Door knock", "Spring 2024"])
        #expect(ann["customCloseDate"] as? String == "2024-06-30")
        #expect(ann["customEmpty"] == nil, "a blank cell sends nothing")
        #expect(ann["source"] as? String == "LeadPort")
        #expect((held[1]["addresses"] as? [[String: Any]])?.first?["street"] as? String == "PO BOX 77")
        let sent = try events()
        #expect(sent.map { $0["type"] as? String } == ["Registration", "Registration", "Registration"])
        #expect(sent[0]["message"] as? String == "Asked about a valuation in spring")
        #expect(sent[0]["description"] as? String == "Company: Lee Realty")
        #expect(sent[0]["system"] as? String == "LeadPort")
        #expect((sent[0]["triggered"] as? [String: Bool])?["actionPlans"] == true, "a live event fires the action plan")

        // Looked up again by email (any case) and by phone and name, and read by id.
        #expect(try api.people(email: "bob@EXAMPLE.com").map(\.id) == [result.outcomes[1].personID])
        #expect(try api.people(phone: "+16175550123", firstName: "Cy", lastName: "Young").map(\.id) == [result.outcomes[2].personID])
        #expect(try api.person(id: 2)?.emails.first?.value == "BOB@example.com")
        #expect(try api.person(id: 999) == nil)
        #expect(try api.me().id == 1)
    }

    @Test func aLookupFollowsTheNextCursorPastOneHundred() throws {
        let seeds = (1...150).map { #"{"firstName":"N\#($0)","lastName":"Many"}"# }.joined(separator: ",")
        try control("seed", #"{"people":["# + seeds + "]}")
        try control("seed", #"{"people":[{"firstName":"Other","lastName":"One"}]}"#)
        let found = try api().people(lastName: "many", atMost: 1000)
        #expect(found.count == 150 && Set(found.map(\.id)).count == 150)
        #expect(try api().people(lastName: "Many", atMost: 120).count == 120)
        #expect(try control("stats")["by_endpoint"] as? [String: Int] == ["GET /v1/people": 4], "two pages, then two more")
    }

    @Test func aHistoricalListFiresNoActionPlan() throws {
        let mapping = try FollowUpBossMapping(timing: .historical(fallback: "2020-01-01T00:00:00Z"))
        let outcome = try api().send(mapping.event(Self.annLee, system: "LeadPort"))
        guard case .created = outcome else { Issue.record("\(outcome)"); return }
        let event = try #require(try events().first)
        #expect(event["historical"] as? Bool == true)
        #expect((event["triggered"] as? [String: Bool])?["actionPlans"] == false)
    }

    @Test func anEventForAPersonFollowUpBossHasIsMatchedToThatPerson() throws {
        let seeded = try control("seed", #"{"people":[{"firstName":"Ann","lastName":"Lee","emails":[{"value":"Ann.Lee@example.com"}],"tags":["Agent added"]}]}"#)
        let id = try #require((seeded["ids"] as? [Int])?.first)
        let outcome = try api().send(Self.mapping.event(Self.annLee, system: "LeadPort"))
        guard case .matched(let person) = outcome else { Issue.record("\(outcome)"); return }
        #expect(person.id == id)
        #expect(try people().count == 1)
        #expect(person.tags == ["Agent added", "Door knock"], "the agent's tag kept, ours added")
        #expect(try statuses() == ["200": 1])
    }

    @Test func aChangedLeadIsAPutThatMergesTagsAndAnUnknownIDIsNotFound() throws {
        let api = try api()
        let created = try api.send(Self.mapping.event(Self.annLee, system: "LeadPort"))
        let id = try #require(created.personID)
        var changed = Self.annLee
        changed.familyName = "Lee-Park"
        let outcome = try api.update(personID: id, with: Self.mapping.person(changed, campaign: "Autumn"))
        guard case .updated(let person) = outcome else { Issue.record("\(outcome)"); return }
        #expect(person.lastName == "Lee-Park")
        #expect(try people().first?["lastName"] as? String == "Lee-Park")
        #expect(try people().first?["tags"] as? [String] == ["Door knock", "Autumn"])
        #expect(try api.update(personID: 4040, with: Self.mapping.person(changed)) == .notFound(personID: 4040))
        let forced = try api.send(Self.mapping.event(changed, system: "LeadPort", personID: 4040))
        #expect(forced == .notFound(personID: 4040))
        #expect(try control("stats")["writes_by_endpoint"] as? [String: Int] == ["POST /v1/events": 1, "PUT /v1/people/{id}": 1])
    }

    @Test func anArchivedSourceIsSkippedWithThatReason() throws {
        let mapping = try FollowUpBossMapping(source: "Archived Lead Flow")
        let outcome = try api().send(mapping.event(Self.annLee, system: "LeadPort"))
        guard case .skipped(let reason) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason.contains("archived"))
        #expect(try people().isEmpty)
        #expect(try stat("archived_ignored") == 1)
    }

    // MARK: Failures

    @Test func oneBadRecordInABatchIsRejectedAloneWithTheRemotesReason() throws {
        try control("faults", #"{"reject":[{"email":"bad@example.com","errorMessage":"Invalid email: bad@example.com"}]}"#)
        let leads = [Self.lead("A", "One", email: "a@example.com"), Self.lead("B", "Two", email: "bad@example.com"), Self.lead("C", "Three", email: "c@example.com")]
        let result = try api().send(leads.map { .event(Self.mapping.event($0, system: "LeadPort")) })
        #expect(result.stoppedBy == nil)
        guard case .rejected(let error) = result.outcomes[1] else { Issue.record("\(result.outcomes[1])"); return }
        #expect(error.disposition == .rowRejected)
        #expect(error.kind == .rejected(field: "email"))
        #expect(error.message.contains("400: Invalid email: bad@example.com"))
        #expect(result.outcomes[0].personID != nil && result.outcomes[2].personID != nil)
        #expect(try people().compactMap { ($0["emails"] as? [[String: Any]])?.first?["value"] as? String } == ["a@example.com", "c@example.com"])
        #expect(try statuses() == ["201": 2, "400": 1], "the refusal was not retried")
    }

    @Test func a429IsWaitedOutOnceAsRetryAfterSays() throws {
        try control("faults", #"{"match":{"method":"POST","path":"/v1/events"},"responses":[{"status":429,"retry_after":"2"}]}"#)
        let start = Date()
        let outcome = try api().send(Self.mapping.event(Self.annLee, system: "LeadPort"))
        #expect(outcome.personID != nil)
        #expect(Date().timeIntervalSince(start) >= 1.95)
        #expect(try statuses() == ["429": 1, "201": 1])
    }

    @Test func aWindowFilledByAnotherClientCostsOne429AndNoMore() throws {
        try control("config", #"{"limits":{"global":3},"window":2}"#)
        let other = try api()
        for _ in 0..<3 { _ = try other.me() }
        let start = Date()
        let api = try api()
        for _ in 0..<5 { _ = try api.me() }
        #expect(try statuses()["429"] == 1, "the first 429 could not be foreseen; a second could")
        #expect(try stat("rate_limited") == 1)
        #expect(Date().timeIntervalSince(start) >= 3.5, "the five waited for the window: 2 s, then 2 s more")
    }

    @Test func eachContextIsPacedOnItsOwn() throws {
        try control("config", #"{"limits":{"global":2},"window":3}"#)
        let api = try api()
        for _ in 0..<2 { _ = try api.me() }
        let start = Date()
        let result = api.send((0..<5).map { .event(Self.mapping.event(Self.lead("P", "\($0)", email: "p\($0)@example.com"), system: "LeadPort")) })
        #expect(result.stoppedBy == nil)
        #expect(Date().timeIntervalSince(start) < 1, "POST.events is not held back by a full global window")
        _ = try api.me()
        #expect(Date().timeIntervalSince(start) >= 2, "the third GET waited for the global window")
        #expect(try stat("rate_limited") == 0)
    }

    @Test func aStormOf5xxIsRetriedThroughAndMakesOnePerson() throws {
        try control("faults", #"{"match":{"method":"POST","path":"/v1/events"},"responses":[{"status":503,"times":2},{"status":500},{"status":502,"apply":true}]}"#)
        let outcome = try api().send(Self.mapping.event(Self.annLee, system: "LeadPort"))
        guard case .matched = outcome else { Issue.record("the fourth attempt was applied, so the fifth matches: \(outcome)"); return }
        #expect(try people().count == 1)
        #expect(try stat("injected") == 4)
        #expect(try statuses() == ["503": 2, "500": 1, "502": 1, "200": 1])
    }

    @Test func a5xxThatOutlastsTheRetriesStopsTheBatchAndLeavesTheRestUnsent() throws {
        try control("faults", #"{"after":1,"match":{"method":"POST","path":"/v1/events"},"responses":[{"status":503,"times":3}]}"#)
        let api = try api(backoff: BackoffPolicy(base: 0.02, cap: 0.05, maxAttempts: 3))
        let result = api.send((0..<3).map { .event(Self.mapping.event(Self.lead("P", "\($0)", email: "p\($0)@example.com"), system: "LeadPort")) })
        #expect(result.outcomes.first?.personID != nil)
        #expect(Array(result.outcomes.dropFirst()) == [.notSent, .notSent])
        #expect(result.stoppedBy?.kind == .serverFailed)
        #expect(result.stoppedBy?.disposition == .terminal)
        #expect(try people().count == 1)
    }

    @Test func aConnectionDroppedAfterTheWriteIsSentAgainWithoutADuplicate() throws {
        try control("faults", #"{"match":{"method":"POST","path":"/v1/events"},"responses":[{"drop":true}]}"#)
        let outcome = try api().send(Self.mapping.event(Self.annLee, system: "LeadPort"))
        guard case .matched(let person) = outcome else { Issue.record("\(outcome)"); return }
        #expect(try stat("dropped") == 1)
        #expect(try people().map { $0["id"] as? Int } == [person.id], "one person")
        #expect(try events().count == 2, "Follow Up Boss logs the resent event, as documented")
    }

    @Test func aLeadFollowUpBossCannotMatchIsNotSentAgainAfterADrop() throws {
        try control("faults", #"{"match":{"method":"POST","path":"/v1/events"},"responses":[{"drop":true}]}"#)
        let anonymous = Self.mapping.event(Self.lead("Bo", "", phone: "+16175550111"), system: "LeadPort")
        #expect(throws: FollowUpBossError.self) { try self.api().send(anonymous) }
        #expect(try people().count == 1)
        #expect(try stat("requests") == 1)
    }

    @Test func refusedCredentialsStopAtOnceNamingTheVariableWithoutTheSecret() throws {
        try control("config", #"{"echo_credentials_in_errors":true}"#)
        let wrongKey = "fub-wrong-key-0123456789"
        let (error, seconds) = try failure { try api(key: wrongKey, backoff: .standard).me() }
        #expect(seconds < 2)
        #expect(error.kind == .credentialsRefused && error.disposition == .terminal)
        #expect(error.variable == "FUB_API_KEY" && error.message.contains("FUB_API_KEY"))
        let basic = Data("\(wrongKey):".utf8).base64EncodedString()
        for secret in [wrongKey, basic, Self.systemKey] { #expect(!error.message.contains(secret), "\(secret) in \(error.message)") }
        #expect(error.message.contains("[redacted]"), "the double did echo them: \(error.message)")
        #expect(try statuses() == ["401": 1], "not retried")

        // A batch stops at its first write with the same error.
        let result = try api(key: wrongKey, backoff: .standard).send([.event(Self.mapping.event(Self.annLee, system: "LeadPort"))])
        #expect(result.outcomes == [.notSent] && result.stoppedBy?.kind == .credentialsRefused)
    }

    @Test func aKeyRevokedMidBatchStopsItKeepingWhatWasSent() throws {
        try control("faults", #"{"revoke_after":2}"#)
        let leads = (0..<4).map { Self.lead("P", "\($0)", email: "p\($0)@example.com") }
        let result = try api().send(leads.map { .event(Self.mapping.event($0, system: "LeadPort")) })
        #expect(result.outcomes.prefix(2).allSatisfy { $0.personID != nil })
        #expect(Array(result.outcomes.dropFirst(2)) == [.notSent, .notSent])
        #expect(result.stoppedBy?.kind == .credentialsRefused && result.stoppedBy?.variable == "FUB_API_KEY")
        #expect(try people().count == 2)
        #expect(try statuses() == ["201": 2, "401": 1])
    }

    @Test func anExpiredAccountStillTakesNewLeadsButNotReads() throws {
        try control("faults", #"{"expire":true}"#)
        let api = try api()
        let (error, _) = try failure { try api.me() }
        #expect(error.kind == .accessDenied && error.status == 403 && error.disposition == .terminal)
        #expect(error.message.contains("expired"), "the server's reason: \(error.message)")
        #expect(try api.send(Self.mapping.event(Self.annLee, system: "LeadPort")).personID != nil)
    }

    @Test func aRowRefusalEchoingTheCredentialsIsScrubbedToo() throws {
        try control("config", #"{"echo_credentials_in_errors":true}"#)
        try control("faults", #"{"reject":[{"email":"bad@example.com","errorMessage":"Invalid email"}]}"#)
        let outcome = try api().send(Self.mapping.event(Self.lead("B", "Two", email: "bad@example.com"), system: "LeadPort"))
        guard case .rejected(let error) = outcome else { Issue.record("\(outcome)"); return }
        #expect(error.message.contains("Invalid email") && error.message.contains("[redacted]"))
        for secret in [Self.key, Self.systemKey, Data("\(Self.key):".utf8).base64EncodedString()] { #expect(!error.message.contains(secret)) }
    }

    @Test func aClosedPortFailsWithinTwoSecondsNamingTheBaseURL() throws {
        // A double started and stopped again: nothing listens on its port now.
        let port = try { try LocalServer(script: "servers/followupboss_double.py").port }()
        Thread.sleep(forTimeInterval: 0.1)
        let (error, seconds) = try failure { try api(port: port, backoff: .standard).me() }
        #expect(seconds < 2)
        #expect(error.kind == .unreachable && error.disposition == .terminal)
        #expect(error.variable == "FUB_BASE_URL" && error.message.contains("FUB_BASE_URL"))
    }

    @Test(arguments: ["Couldn't resolve host name", "SSL connect error", "SSL peer certificate or SSH remote key was not OK"])
    func aHostThatCannotBeReachedIsNotRetried(reason: String) throws {
        let transport = RefusingTransport(reason: reason)
        let api = FollowUpBossAPI(config: try FollowUpBossConfig(environment: ["FUB_API_KEY": Self.key]), transport: transport, backoff: .standard)
        let (error, seconds) = try failure { try api.me() }
        #expect(seconds < 1 && transport.sends == 1, "one attempt: \(transport.sends)")
        #expect(error.kind == .unreachable && error.variable == nil, "the default host: nothing to set")
        #expect(error.message.contains("https://api.followupboss.com") && error.message.contains("check the network"))
    }

    // MARK: Rate windows (no I/O)

    @Test func theWindowGrantsRequestsOnlyWhenTheServerWouldTakeThem() throws {
        var w = RateLimiter(.followUpBoss(registered: true), now: 0)
        let headers = { (remaining: Int) in
            HTTPHeaders([("X-RateLimit-Context", "global"), ("X-RateLimit-Limit", "2"), ("X-RateLimit-Remaining", "\(remaining)"), ("X-RateLimit-Window", "10")])
        }
        let first = w.acquire(route: "GET.people", now: 0)
        #expect(first.wait == 0)
        w.complete(try #require(first.grant), route: "GET.people", status: 200, headers: headers(1), now: 0.1)
        let second = w.acquire(route: "PUT.people", now: 0.2)
        #expect(second.wait == 0)
        w.complete(try #require(second.grant), route: "PUT.people", status: 200, headers: headers(0), now: 0.3)
        let third = w.acquire(route: "GET.people", now: 0.4)
        #expect(abs(third.wait - 9.7) < 1e-9, "until the first answer's time leaves the window (0.1 + 10)")
        #expect(w.acquire(route: "POST.events", now: 0.4).wait == 0, "another context")

        // Another client's requests, known from Remaining, count as made just now.
        var shared = RateLimiter(.followUpBoss(registered: true), now: 0)
        let one = try #require(shared.acquire(route: "GET.me", now: 0).grant)
        shared.complete(one, route: "GET.me", status: 200, headers: headers(0), now: 1)
        #expect(shared.acquire(route: "GET.me", now: 1).wait == 10)

        // A 429 holds its context back for Retry-After and is not counted.
        var limited = RateLimiter(.followUpBoss(registered: true), now: 0)
        let refused = try #require(limited.acquire(route: "POST.events", now: 0).grant)
        limited.complete(refused, route: "POST.events", status: 429, headers: HTTPHeaders([("X-RateLimit-Context", "POST.events"), ("Retry-After", "3")]), now: 0)
        #expect(limited.acquire(route: "POST.events", now: 1).wait == 2)
        #expect(limited.acquire(route: "GET.people", now: 1).wait == 0)
        #expect(RateLimits.followUpBossRoute(method: "put", path: "/v1/people/12") == "PUT.people")
        #expect(RateLimits.followUpBoss(registered: true).route(HTTPRequest(method: "put", url: URL(string: "https://api.followupboss.com/v1/people/12")!)) == "PUT.people")
    }
}

/// A transport whose every request fails as libcurl says when no connection could be made.
private final class RefusingTransport: HTTPTransport, @unchecked Sendable {
    let reason: String
    private let lock = NSLock()
    private var count = 0
    init(reason: String) { self.reason = reason }
    var sends: Int { lock.withLock { count } }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        lock.withLock { count += 1 }
        let url = request.url.absoluteString
        // As CurlTransport reports CURLE_COULDNT_RESOLVE_HOST, CURLE_SSL_CONNECT_ERROR and
        // CURLE_PEER_FAILED_VERIFICATION.
        throw HTTPTransportError.unreachable(url: url, reason: reason)
    }
}
