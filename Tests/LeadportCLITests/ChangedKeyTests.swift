import Foundation
import GRDB
import LeadTesting
import Testing

/// Issue 22 item 7: a lead whose dedupe key (its email) changed in the list since it was sent,
/// with the same name and phone, is the same person: at each CRM that can search for it, the
/// contact it became is found by its phone and name and updated, not made a second time, and
/// the row's event says how it was matched.
@Suite(.serialized) struct ChangedKeyTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-rekey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    /// Imports `rows` and returns the JSON `row` events by source row.
    func run(_ rows: [String], to destination: String, environment: [String: String] = [:], extra: [String] = []) throws -> [Int: [String: Any]] {
        let list = dir.appendingPathComponent("owners.csv")
        try ("First Name,Last Name,Email,Phone\n" + rows.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let result = try Leadport.run(["import", list.path, "--to", destination, "--ledger", dir.appendingPathComponent("ledger.db").path, "--progress", "jsonl"] + extra,
                                      in: dir, environment: environment)
        #expect(result.status == 0, "\(result.stderr.suffix(800))")
        var events: [Int: [String: Any]] = [:]
        for line in result.stderr.split(separator: "\n") {
            guard let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], event["event"] as? String == "row",
                  let row = event["row"] as? Int else { continue }
            events[row] = event
        }
        return events
    }

    static let before = ["Ann,Lee,ann.lee@oldmail.com,(617) 555-0101", "Bo,Diaz,bo@example.com,617-555-0102"]
    /// Ann's email changed; Cy is new, with Ann's phone but another name (a household's phone).
    static let after = ["Ann,Lee,ann@newmail.com,617.555.0101", "Bo,Diaz,bo@example.com,617-555-0102", "Cy,Lee,cy@example.com,617-555-0101"]

    func expectAnnMatched(_ events: [Int: [String: Any]], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(events[2]?["outcome"] as? String == "updated", "\(events[2] ?? [:])", sourceLocation: sourceLocation)
        // Read before #expect: given `(x?[…] as? String ?? "").contains(…)` whole, it passed whatever x held (so do the reasons below).
        let eventsReason2 = events[2]?["reason"] as? String ?? ""
        #expect(eventsReason2.contains("matched by"), "\(events[2] ?? [:])", sourceLocation: sourceLocation)
        #expect(events[3]?["outcome"] as? String == "unchanged", sourceLocation: sourceLocation)
        #expect(events[4]?["outcome"] as? String == "created", "\(events[4] ?? [:])", sourceLocation: sourceLocation)
    }

    @Test func hubSpotUpdatesTheContactWhoseEmailChanged() throws {
        let double = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        let environment = ["HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(double.port)"]
        _ = try run(Self.before, to: "hubspot", environment: environment)
        let events = try run(Self.after, to: "hubspot", environment: environment)
        expectAnnMatched(events)
        let eventsReason2 = events[2]?["reason"] as? String ?? ""
        #expect(eventsReason2.contains("matched by phone and name to HubSpot contact"), "\(events[2] ?? [:])")
        let emails = (try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? []).compactMap { ($0["properties"] as? [String: Any])?["email"] as? String }.sorted()
        #expect(emails == ["ann@newmail.com", "bo@example.com", "cy@example.com"])
        // A third run with the same list writes nothing.
        let again = try run(Self.after, to: "hubspot", environment: environment)
        #expect(again.values.allSatisfy { $0["outcome"] as? String == "unchanged" }, "\(again)")
    }

    @Test func googleContactsUpdatesTheContactWhoseEmailChanged() throws {
        let (double, environment) = try UndoCommandTests.googleDouble()
        _ = try run(Self.before, to: "google-contacts", environment: environment)
        let events = try run(Self.after, to: "google-contacts", environment: environment)
        expectAnnMatched(events)
        let eventsReason2 = events[2]?["reason"] as? String ?? ""
        #expect(eventsReason2.contains("matched by phone and name to Google contact"), "\(events[2] ?? [:])")
        let contacts = try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? []
        #expect(contacts.count == 3)
        let ann = contacts.first { ($0["names"] as? [[String: Any]])?.first?["givenName"] as? String == "Ann" }
        // Emails are appended to: the old address stays beside the new.
        #expect((ann?["emailAddresses"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String } == ["ann.lee@oldmail.com", "ann@newmail.com"])
    }

    /// Follow Up Boss matches an event to the person with its phone and name by itself.
    @Test func followUpBossMatchesThePersonWhoseEmailChanged() throws {
        let double = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "300"])
        let environment = ["FUB_API_KEY": "fub-test-key", "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": "fub-test-system-key",
                           "FUB_BASE_URL": "http://127.0.0.1:\(double.port)"]
        _ = try run(Self.before, to: "followupboss", environment: environment)
        let events = try run(Self.after, to: "followupboss", environment: environment)
        expectAnnMatched(events)
        let people = try double.control("/_double/state")["people"] as? [[String: Any]] ?? []
        #expect(people.count == 3)
    }

    /// FLYR's tables: the campaign's contact with the phone and name is given the new email.
    @Test func aCampaignsContactIsGivenTheNewEmail() throws {
        let db = dir.appendingPathComponent("flyr.db").path
        let pg = try TestPostgres()
        for (destination, user) in [("sqlite:" + db, [String]()), (pg.url, ["--user", TestPostgres.user])] {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("ledger.db"))
            _ = try run(Self.before, to: destination, extra: ["--campaign", "Farm"] + user)
            let events = try run(Self.after, to: destination, extra: ["--campaign", "Farm"] + user)
            expectAnnMatched(events)
            let eventsReason2 = events[2]?["reason"] as? String ?? ""
            #expect(eventsReason2.contains("matched by phone and name to the campaign's contact"), "\(destination): \(events[2] ?? [:])")
        }
        let embedded = try DatabaseQueue(path: db).read { try String.fetchAll($0, sql: "SELECT email FROM contacts ORDER BY email") }
        #expect(embedded == ["ann@newmail.com", "bo@example.com", "cy@example.com"])
        #expect(try pg.int("SELECT count(*) FROM contacts") == 3 && pg.int("SELECT count(*) FROM contacts WHERE email = 'ann@newmail.com'") == 1)
    }

    /// A phone with an extension is the same number: the contact whose email changed is still
    /// found by it (HubSpot holds the text sent, `+16175550111 ext. 22`; Google its number), and
    /// Google's list of phones does not get the number a second time.
    @Test func aPhoneWithAnExtensionStillFindsThePerson() throws {
        let first = ["Bob,Ray,bob@oldmail.com,617-555-0111 x22"]
        let second = ["Bob,Ray,bob@newmail.com,617-555-0111 x22"]
        let hubspot = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        let hubspotEnvironment = ["HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(hubspot.port)"]
        let (google, googleEnvironment) = try UndoCommandTests.googleDouble()
        for (destination, environment) in [("hubspot", hubspotEnvironment), ("google-contacts", googleEnvironment)] {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("ledger.db"))
            _ = try run(first, to: destination, environment: environment)
            let events = try run(second, to: destination, environment: environment)
            #expect(events[2]?["outcome"] as? String == "updated", "\(destination): \(events[2] ?? [:])")
            let eventsReason2 = events[2]?["reason"] as? String ?? ""
            #expect(eventsReason2.contains("matched by phone and name"), "\(destination): \(events[2] ?? [:])")
        }
        #expect((try hubspot.control("/_double/state")["contacts"] as? [[String: Any]] ?? []).count == 1)
        let contacts = try google.control("/_double/state")["contacts"] as? [[String: Any]] ?? []
        #expect(contacts.count == 1)
        #expect((contacts.first?["phoneNumbers"] as? [[String: Any]] ?? []).count == 1, "\(contacts)")
    }
}
