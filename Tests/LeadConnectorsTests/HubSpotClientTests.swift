import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadTesting
import Testing

/// The HubSpot client through the real transport against fixtures/servers/hubspot_double.py,
/// each test with a double of its own; every check reads the double's /_double/state and
/// /_double/stats, not the client's view of itself.
@Suite(.serialized) struct HubSpotClientTests {
    static let token = "pat-na1-00000000-0000-4000-8000-000000000000"
    let server: LocalServer

    init() throws {
        server = try LocalServer(script: "servers/hubspot_double.py",
                                 arguments: ["--lifetime", "120", "--custom-property", "lead_import_key:unique", "--custom-property", "property_type"])
    }

    private var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    private func api(token: String = Self.token, attempts: Int = 6, settleWaits: [Double] = [1, 2, 4, 8]) -> HubSpotAPI {
        HubSpotAPI(config: HubSpotConfig(token: token, baseURL: baseURL),
                   policy: HubSpotClientPolicy(backoff: BackoffPolicy(base: 0.05, cap: 0.2, maxAttempts: attempts), settleWaits: settleWaits))
    }

    @discardableResult
    private func control(_ name: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        let request = HTTPRequest(method: body == nil ? "GET" : "POST", url: server.url("/_double/" + name),
                                  headers: HTTPHeaders([("Content-Type", "application/json")]),
                                  body: try body.map { try JSONSerialization.data(withJSONObject: $0) })
        let answer = try CurlTransport().send(request)
        return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any], "\(answer.status) \(answer.text)")
    }

    /// The double's live contacts: id → properties.
    private func contacts() throws -> [String: [String: String]] {
        let all = try control("state")["contacts"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: all.map { ("\($0["id"]!)", $0["properties"] as? [String: String] ?? [:]) })
    }

    private func stats() throws -> [String: Any] { try control("stats") }

    private func seed(_ properties: [String: String]) throws -> String {
        let ids = try control("state", ["contacts": [["properties": properties]]])["ids"] as? [String]
        return try #require(ids?.first)
    }

    static func lead(_ given: String?, _ family: String?, email: String?, phone: String? = nil, row: Int = 2) -> Lead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: row))
        (lead.givenName, lead.familyName, lead.email, lead.phone) = (given, family, email, phone)
        return lead
    }

    // MARK: Payload

    @Test func aRealisticLeadBecomesHubSpotsStandardAndCustomPropertiesWithoutBlanks() throws {
        var lead = Self.lead("Mary", "O'Brien", email: "mary.obrien@example.com", phone: "+15125550123")
        lead.middleName = "Ann"
        lead.mobile = "+15125550188"
        lead.company = "Obrien & Daughters, LLC"
        lead.notes = "Called twice.\nPrefers \"email\"."
        lead.status = "In progress"
        lead.address.houseNumber = "1200"
        lead.address.streetPredirectional = "N"
        lead.address.streetName = "LAMAR"
        lead.address.streetSuffix = "BLVD"
        lead.address.unitType = "APT"
        lead.address.unitID = "4"
        lead.address.city = "AUSTIN"
        lead.address.state = "TX"
        lead.address.postalCode = "78703"
        lead.address.zip4 = "1234"
        lead.address.country = "US"
        lead.extras = [("Row ID", "row-0002"), ("Type", "Condo"), ("Blank", "  ")]
        let mapping = HubSpotMapping(customProperties: ["lead_import_key": "Row ID", "property_type": "type", "jobtitle": "Blank"],
                                     notesProperty: "notes_from_list", lifecycleStage: "lead")
        let payload = HubSpotContactPayload(lead: lead, mapping: mapping)
        #expect(payload.properties == [
            "firstname": "Mary Ann", "lastname": "O'Brien", "email": "mary.obrien@example.com", "phone": "+15125550123",
            "mobilephone": "+15125550188", "company": "Obrien & Daughters, LLC", "address": "1200 N LAMAR BLVD APT 4", "city": "AUSTIN",
            "state": "TX", "zip": "78703-1234", "country": "US", "hs_lead_status": "IN_PROGRESS", "lifecyclestage": "lead",
            "notes_from_list": "Called twice.\nPrefers \"email\".", "lead_import_key": "row-0002", "property_type": "Condo",
        ], "a blank cell (jobtitle) is not sent, so it cannot clear HubSpot's value")
        let canonical = String(decoding: payload.canonicalJSON, as: UTF8.self)
        #expect(canonical.hasPrefix(#"{"address":"1200 N LAMAR BLVD APT 4","city":"AUSTIN","company":"Obrien & Daughters, LLC","country":"US","email":"#))
        #expect(canonical.contains(#""notes_from_list":"Called twice.\nPrefers \"email\".""#))
        #expect(payload.hash.count == 64)
        var changed = payload
        changed["city"] = "ROUND ROCK"
        #expect(changed.hash != payload.hash, "a changed value sent is a changed hash")
        #expect(HubSpotContactPayload(lead: lead, mapping: mapping).hash == payload.hash, "the encoding does not depend on dictionary order")

        // Through the real client: HubSpot holds exactly what was sent (the notes property is
        // not in the double's catalogue, so it is sent only in the pure check above).
        var sent = payload
        sent["notes_from_list"] = nil
        let results = try api().upsert([sent])
        let id = try #require(results.first?.id)
        #expect(results == [.created(id: id)])
        let stored = try #require(try contacts()[id])
        for (name, value) in sent.properties { #expect(stored[name] == value, "\(name)") }
    }

    // MARK: Writes and matching

    @Test func batchUpsertByEmailCreatesThenUpdatesTheSameRecordsInRequestsOf100() throws {
        let client = api()
        let payloads = (0..<150).map { n in HubSpotContactPayload(lead: Self.lead("Lead\(n)", "Batch", email: "lead\(n)@example.com")) }
        let first = try client.upsert(payloads)
        let ids = first.compactMap(\.id)
        #expect(Set(ids).count == 150)
        #expect(first.allSatisfy { if case .created = $0 { return true }; return false })
        var state = try contacts()
        #expect(state.count == 150)
        #expect(state[ids[7]]?["email"] == "lead7@example.com", "each id is its own input's record")

        var again = payloads
        again[7]["company"] = "Changed Co"
        let second = try client.upsert(again)
        #expect(second == ids.map { .updated(id: $0) })
        state = try contacts()
        #expect(state.count == 150, "no duplicate")
        #expect(state[ids[7]]?["company"] == "Changed Co")
        let endpoints = try stats()["endpoints"] as? [String: Int]
        #expect(endpoints?["batch/upsert"] == 4, "150 inputs twice, in requests of at most 100")
    }

    @Test func anExistingContactIsMatchedByEmailByPhoneAndNameAndThroughA409() throws {
        let client = api()
        let byEmail = try seed(["email": "ann@example.com", "firstname": "Ann"])
        let byPhone = try seed(["firstname": "Bob", "lastname": "Stone", "phone": "+15125550100"])
        _ = try seed(["firstname": "Rob", "lastname": "Stone", "phone": "+15125550100"])

        #expect(try client.upsert([HubSpotContactPayload(lead: Self.lead("Ann", "Lee", email: "ANN@example.com"))]) == [.updated(id: byEmail)])

        let noEmail = HubSpotContactPayload(lead: Self.lead("Bob", "Stone", email: nil, phone: "+15125550100"))
        let found = try client.search(HubSpotMatch(noEmail))
        #expect(found.map(\.id) == [byPhone], "phone and name, not the other Stone on that phone")
        #expect(try client.search(HubSpotMatch(phone: "+15125550999", firstName: "Bob", lastName: "Stone")).isEmpty)

        let created = try client.create([HubSpotContactPayload(lead: Self.lead("Ann", "Lee", email: "ann@example.com")),
                                         HubSpotContactPayload(lead: Self.lead("Cy", "New", email: "cy@example.com"))])
        #expect(created.first == .existing(id: byEmail), "409 CONFLICT resolved to the existing id")
        guard case .created(let cy) = created.last else { Issue.record("\(created)"); return }
        #expect(try contacts().count == 4)

        let updated = try client.update([HubSpotUpdate(id: cy, payload: HubSpotContactPayload(properties: ["company": "Cy Co"])),
                                         HubSpotUpdate(id: "999999", payload: HubSpotContactPayload(properties: ["company": "Nobody"]))])
        #expect(updated.first == .updated(id: cy))
        guard case .rejected(let missing) = updated.last else { Issue.record("\(updated)"); return }
        #expect(missing.status == 404 && missing.category == "OBJECT_NOT_FOUND")
        let read = try client.read(["CY@example.com", "nobody@example.com"], by: "email", properties: ["company"])
        #expect(read.first??.id == cy && read.first??.properties["company"] == "Cy Co")
        #expect(read.last! == nil)

        // A contact without email kept unique by a custom property.
        let keyed = HubSpotContactPayload(properties: ["lead_import_key": "row-17", "firstname": "Dee", "phone": "+15125550111"])
        let once = try client.upsert([keyed], by: "lead_import_key")
        #expect(try client.upsert([keyed], by: "lead_import_key") == once.map { .updated(id: $0.id!) })
        #expect(try contacts().count == 5)
    }

    @Test func oneBadRecordInABatchIsRejectedAloneWithHubSpotsReasonNamingTheProperty() throws {
        try control("config", ["echo_credentials_in_errors": true])
        let payloads = [HubSpotContactPayload(lead: Self.lead("Good", "One", email: "good1@example.com")),
                        HubSpotContactPayload(lead: Self.lead("Bad", "Email", email: "not-an-email")),
                        HubSpotContactPayload(properties: ["email": "good2@example.com", "hs_lead_status": "SOMEDAY"]),
                        HubSpotContactPayload(lead: Self.lead("Good", "Three", email: "good3@example.com"))]
        let results = try api().upsert(payloads)
        guard case .rejected(let email) = results[1], case .rejected(let status) = results[2] else { Issue.record("\(results)"); return }
        #expect(email.property == "email" && email.code == "INVALID_EMAIL")
        #expect(email.description.hasPrefix("email: Email address not-an-email is invalid"))
        #expect(status.property == "hs_lead_status" && status.code == "INVALID_OPTION")
        #expect(!email.description.contains(Self.token) && !status.description.contains(Self.token), "the echoed token is scrubbed")
        #expect(results[0].id != nil && results[3].id != nil)
        #expect(Set(try contacts().values.compactMap { $0["email"] }) == ["good1@example.com", "good3@example.com"])
        #expect(HubSpotError(.rowRejected(email), email.description).disposition == .rowRejected)
    }

    // MARK: Limits and failures

    @Test func a429WithRetryAfterIsWaitedOutOnceAndTheWindowIsFollowedWithoutAnother() throws {
        try control("faults", ["statuses": [[429, "1"]]])
        let client = api()
        var start = Date()
        #expect(try client.upsert([HubSpotContactPayload(properties: ["email": "wait@example.com"])]).first?.id != nil)
        #expect(Date().timeIntervalSince(start) >= 0.95, "Retry-After: 1 obeyed")
        #expect(try stats()["responses_429"] as? Int == 1)

        // A window of 3 requests a second: 10 requests go in ~3 s, and none meets a 429.
        try control("config", ["burst": 3, "window_ms": 1000])
        start = Date()
        for n in 0..<10 { _ = try client.upsert([HubSpotContactPayload(properties: ["email": "paced\(n)@example.com"])]) }
        let took = Date().timeIntervalSince(start)
        let limited = try stats()
        #expect(limited["responses_429"] as? Int == 1, "no 429 that waiting could have avoided")
        #expect(took >= 2.5 && took < 8, "\(took) s")
        #expect(try contacts().count == 11)

        // Search has its own limit, 5 a second, and sends no headers: 12 searches take 2 s.
        start = Date()
        for _ in 0..<12 { _ = try client.search(HubSpotMatch(phone: "+15125550100")) }
        #expect((try stats()["rate_limited"] as? [String: Int])?["search"] == 0)
        #expect(Date().timeIntervalSince(start) >= 1.9)
    }

    @Test func a5xxStormIsRetriedWithBackoffAndALongerOneStopsTheRun() throws {
        try control("faults", ["statuses": [[503, NSNull(), 2], [502, NSNull(), 1]]])
        let results = try api().upsert([HubSpotContactPayload(properties: ["email": "storm@example.com"])])
        #expect(results.first?.id != nil)
        let injected = try stats()["injected"] as? [String: Int]
        #expect(injected == ["503": 2, "502": 1])
        #expect(try contacts().count == 1)

        try control("faults", ["statuses": [[503, NSNull(), 10]]])
        do {
            _ = try api(attempts: 3).upsert([HubSpotContactPayload(properties: ["email": "storm2@example.com"])])
            Issue.record("no error")
        } catch {
            #expect(error.kind == .gaveUp(status: 503) && error.disposition == .terminal)
        }
    }

    @Test func refusedCredentialsStopAtOnceNamingTheVariableWithoutTheEchoedSecret() throws {
        try control("config", ["echo_credentials_in_errors": true])
        let secret = "pat-na1-11111111-2222-4333-8444-555555555555"
        let start = Date()
        do {
            _ = try api(token: secret).upsert([HubSpotContactPayload(properties: ["email": "x@example.com"])])
            Issue.record("no error")
        } catch {
            #expect(Date().timeIntervalSince(start) < 2)
            #expect(error.kind == .credentialsRefused && error.disposition == .terminal)
            #expect(error.message.contains("HUBSPOT_TOKEN"))
            #expect(error.message.contains("INVALID_AUTHENTICATION"))
            #expect(!error.description.contains(secret) && !error.description.contains("11111111-2222"), "\(error)")
        }
        #expect(try stats()["unauthorized"] as? Int == 1, "asked once, not retried")

        // A token that expires mid-run: the next request stops the run, saying so.
        let client = api()
        _ = try client.upsert([HubSpotContactPayload(properties: ["email": "before@example.com"])])
        try control("faults", ["credentials": "expired"])
        do {
            _ = try client.upsert([HubSpotContactPayload(properties: ["email": "after@example.com"])])
            Issue.record("no error")
        } catch {
            #expect(error.kind == .credentialsRefused && error.message.contains("has expired"), "\(error)")
            #expect(!error.message.contains(Self.token))
        }
        #expect(try stats()["unauthorized"] as? Int == 2)
    }

    /// Phones are looked up 200 to a search (two IN filters of 100, HubSpot's most, for each of
    /// `phone` and `mobilephone`), every page followed: 210 contacts sharing one number, and
    /// one with another as its mobile, come back in two pages of 200 and 11.
    @Test func aSearchByPhonesTakesTwoHundredASearchAndFollowsEveryPage() throws {
        let contacts = (0..<210).map { ["properties": ["firstname": "Twin\($0)", "phone": "+15125550100"]] } + [["properties": ["mobilephone": "+15125550199"]]]
        _ = try control("state", ["contacts": contacts])
        let phones = ["+15125550100", "+15125550199"] + (0..<260).map { "+1512555\(String(format: "%04d", 1000 + $0))" }
        let found = try api().search(phones: phones)
        #expect(found.count == 211)
        #expect(Set(found.map(\.id)).count == 211)
        #expect((try stats()["endpoints"] as? [String: Int])?["search"] == 3, "262 phones: 200 and 62, the first in two pages")
    }

    /// An error message is cut to 300 characters: it was cut before the secrets were taken
    /// out, so a long token echoed across the cut showed its first part.
    @Test func anEchoedTokenCutByTheMessagesLengthLimitDoesNotShowInPart() throws {
        try control("config", ["echo_credentials_in_errors": true])
        let secret = "pat-na1-" + String(repeating: "0123456789abcdef", count: 9)
        do {
            _ = try api(token: secret).upsert([HubSpotContactPayload(properties: ["email": "x@example.com"])])
            Issue.record("no error")
        } catch {
            #expect(error.kind == .credentialsRefused)
            #expect(!error.description.contains("0123456789abcdef"), "\(error)")
            #expect(error.description.contains("[redacted]"), "\(error)")
        }
    }

    @Test func aClosedPortFailsWithinTwoSecondsWithOneMessage() throws {
        let client = HubSpotAPI(config: HubSpotConfig(token: Self.token, baseURL: URL(string: "http://127.0.0.1:1")!))
        let start = Date()
        do {
            _ = try client.upsert([HubSpotContactPayload(properties: ["email": "x@example.com"])])
            Issue.record("no error")
        } catch {
            #expect(Date().timeIntervalSince(start) < 2, "not retried for minutes")
            #expect(error.kind == .unreachable && error.disposition == .terminal)
            #expect(error.message.contains("HUBSPOT_BASE_URL"))
        }
    }

    @Test func aConnectionDroppedAfterTheWriteWasAppliedMakesNoDuplicateOnRetry() throws {
        let client = api()
        _ = try client.dailyUsage()
        try control("faults", ["drop_after_write": 1])
        let upserted = try client.upsert([HubSpotContactPayload(properties: ["email": "drop@example.com", "firstname": "Drop"])])
        let id = try #require(upserted.first?.id)
        #expect(upserted == [.updated(id: id)], "the retry found the record the lost answer had created")

        try control("faults", ["drop_after_write": 1])
        let created = try client.create([HubSpotContactPayload(properties: ["email": "drop2@example.com"])])
        guard case .existing(let second) = created.first else { Issue.record("\(created)"); return }
        #expect(try contacts().keys.sorted() == [id, second].sorted())
        #expect(try stats()["dropped"] as? Int == 2)

        // Without an email a second create could make a second contact: the contact the lost
        // request made is searched for by phone and name, found, and answered as created
        // (issue 22 item 1: the loss was thrown, and stopped the run).
        try control("faults", ["drop_after_write": 1])
        let settled = try client.create([HubSpotContactPayload(properties: ["firstname": "No", "lastname": "Email", "phone": "+15125550177"])])
        let found = try client.search(HubSpotMatch(phone: "+15125550177", firstName: "No", lastName: "Email"))
        #expect(found.count == 1)
        #expect(settled == [.created(id: found.first?.id ?? "")], "\(settled)")
        #expect(try contacts().count == 3, "applied once, not sent again")
        #expect(try stats()["dropped"] as? Int == 3)
    }

    /// A create answered 502, which HubSpot gives before it writes anything here: the search
    /// finds none of its contacts, through every wait, so they are created again, once each;
    /// one of two searchable inputs found (the other lagging past the waits) is not made twice.
    @Test func aLostCreateThatWasNotAppliedIsSentAgainOnce() throws {
        let client = api(settleWaits: [0.05, 0.1])
        _ = try client.dailyUsage()
        try control("faults", ["statuses": [[502, NSNull()]]])
        let made = try client.create([HubSpotContactPayload(properties: ["firstname": "Ann", "lastname": "Lee", "phone": "+15125550101"]),
                                      HubSpotContactPayload(properties: ["firstname": "Bo", "lastname": "Ng"])])
        #expect(made.allSatisfy { if case .created = $0 { return true }; return false }, "\(made)")
        #expect(try contacts().count == 2)
        #expect((try stats()["endpoints"] as? [String: Int])?["batch/create"] == 2, "the refused request and the one that made them")
    }

    @Test func theDailyLimitStopsTheRunAndSaysWhenItResets() throws {
        try control("config", ["daily": 100])
        let client = api()
        let usage = try client.dailyUsage()
        #expect(usage.limit == 100 && usage.used == 1)
        let resetsAt = try #require(usage.resetsAt)
        #expect(resetsAt > Date())
        _ = try client.upsert([HubSpotContactPayload(properties: ["email": "a@example.com"])])
        #expect(client.dailyRemaining == 98)
        try control("config", ["daily_used": 100])
        do {
            _ = try client.upsert([HubSpotContactPayload(properties: ["email": "b@example.com"])])
            Issue.record("no error")
        } catch {
            #expect(error.kind == .dailyLimit(resetsAt: resetsAt) && error.disposition == .terminal)
            #expect(error.message.contains("resets at") && error.message.contains("UTC"), "\(error.message)")
        }
        #expect((try stats()["rate_limited"] as? [String: Int])?["daily"] == 1, "not retried")
    }

    // MARK: Configuration

    @Test func configurationComesFromTheEnvironmentAndNamesTheVariableToSet() throws {
        let config = try HubSpotConfig(environment: ["HUBSPOT_TOKEN": Self.token, "HUBSPOT_BASE_URL": "http://127.0.0.1:8080/"])
        #expect(config.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(!String(describing: config).contains(Self.token))
        #expect(try HubSpotConfig(environment: ["HUBSPOT_TOKEN": Self.token]).baseURL.absoluteString == "https://api.hubapi.com")
        for (environment, variable) in [([:], "HUBSPOT_TOKEN"), (["HUBSPOT_TOKEN": "  "], "HUBSPOT_TOKEN"),
                                        (["HUBSPOT_TOKEN": "Bearer " + Self.token], "HUBSPOT_TOKEN"), (["HUBSPOT_TOKEN": "pat na1"], "HUBSPOT_TOKEN"),
                                        (["HUBSPOT_TOKEN": Self.token, "HUBSPOT_BASE_URL": "api.hubapi.com"], "HUBSPOT_BASE_URL"),
                                        (["HUBSPOT_TOKEN": Self.token, "HUBSPOT_BASE_URL": "https://api.hubapi.com/crm/v3"], "HUBSPOT_BASE_URL")] {
            do {
                _ = try HubSpotConfig(environment: environment)
                Issue.record("accepted \(environment)")
            } catch {
                #expect(error.kind == .configuration(variable: variable) && error.disposition == .usage)
                #expect(error.message.contains(variable))
                #expect(!error.message.contains("00000000-0000"), "no secret in the message")
            }
        }
    }
}
