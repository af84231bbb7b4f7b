import Foundation
import LeadTesting
import Testing

/// The mapping's modes, field policies and `destinations.followupboss` options against the
/// Follow Up Boss double (issue 13, item 4).
extension FollowUpBossDestinationTests {
    func run(_ file: URL, policy: String) throws -> (result: Leadport.Result, outcomes: [Int: [String]]) {
        let mapping = t.dir.appendingPathComponent("mapping-\(UUID().uuidString).yaml")
        try ("columns: {Name: full_name, Email: email, Phone: phone, Address: address, City: city, State: state, Zip: zip}\n" + policy)
            .write(to: mapping, atomically: true, encoding: .utf8)
        return try t.run(file, to: "followupboss", extra: ["--mapping", mapping.path], environment: environment())
    }

    func values(_ person: [String: Any]?, _ list: String) -> [String] {
        (person?[list] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
    }

    /// Two people an agent keeps, found by email before anything is written: `never` keeps the
    /// first name, `append` adds the lead's phone beside the agent's, `fill_blank` leaves the
    /// email list, and the mapping's tags (not FUB_TAGS) are added.
    @Test func peopleFoundByEmailAreUpdatedUnderThePoliciesAndTheMappingsTags() throws {
        defer { t.remove() }
        try control("seed", #"{"people":[{"firstName":"Agent","lastName":"Typed","emails":[{"value":"person2@example.com"},{"value":"agent@example.com"}],"phones":[{"value":"+16175550000"}],"tags":["VIP"]},{"firstName":"Sam","lastName":"Lee","emails":[{"value":"person3@example.com"}]}]}"#)
        let list = try t.list("leads.csv", count: 3)
        let policy = """
            update: {phone: append, first_name: never, email: fill_blank}
            destinations:
              followupboss: {tags: [Imported]}
            """
        let first = try run(list, policy: policy)
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(first.outcomes[2]?[0] == "created" && first.outcomes[3]?[0] == "updated" && first.outcomes[4]?[0] == "updated", "\(first.outcomes)")
        let byID = Dictionary(uniqueKeysWithValues: try people().map { ($0["id"] as? Int ?? 0, $0) })
        #expect(byID[1]?["firstName"] as? String == "Agent", "never")
        #expect(values(byID[1], "phones") == ["+16175550000", "+16175550002"], "append: beside the agent's")
        #expect(values(byID[1], "emails") == ["person2@example.com", "agent@example.com"], "fill_blank: the list stays")
        #expect(byID[1]?["tags"] as? [String] == ["VIP", "Imported", "Spring farm"])
        #expect(byID[2]?["firstName"] as? String == "Sam" && values(byID[2], "phones") == ["+16175550003"])
        #expect(try people().count == 3)
        #expect(try count("by_endpoint", "PUT /v1/people/{id}") == 2 && (try count("by_endpoint", "POST /v1/events")) == 1)
    }

    /// create_only writes to nobody Follow Up Boss has; update_only makes nobody new.
    @Test func createOnlyAndUpdateOnlySkipWithTheirReasons() throws {
        defer { t.remove() }
        try control("seed", #"{"people":[{"firstName":"Agent","lastName":"Typed","emails":[{"value":"person2@example.com"}]}]}"#)
        let creating = try run(try t.list("leads.csv", count: 2), policy: "mode: create_only")
        #expect(creating.result.status == 0, "\(creating.result.stderr)")
        #expect(creating.outcomes[2]?[0] == "created")
        #expect(creating.outcomes[3]?[0] == "skipped" && creating.outcomes[3]?[1] == "create_only: already at the destination", "\(creating.outcomes)")
        #expect(try people().first { $0["id"] as? Int == 1 }?["firstName"] as? String == "Agent")
        let updating = try run(try t.list("leads.csv", count: 3) { k, cells in if k == 1 { cells[2] = "617-555-0999" } }, policy: "mode: update_only")
        #expect(updating.outcomes[2]?[0] == "updated", "\(updating.outcomes)")
        #expect(updating.outcomes[4]?[0] == "skipped" && updating.outcomes[4]?[1] == "update_only: not at the destination")
        #expect(try people().count == 2)
    }
}
