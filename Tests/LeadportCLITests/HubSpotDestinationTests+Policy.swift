import Foundation
import LeadTesting
import Testing

/// The mapping's modes, field policies and `destinations.hubspot` options against the HubSpot
/// double (issue 13, item 4).
extension HubSpotDestinationTests {
    func mapping(_ policyLines: String) throws -> URL {
        let url = t.dir.appendingPathComponent("mapping-\(UUID().uuidString).yaml")
        try ("columns: {Name: full_name, Email: email, Phone: phone, Company: company}\n" + policyLines).write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func run(_ file: URL, mapping: URL) throws -> (result: Leadport.Result, outcomes: [Int: [String]]) {
        try t.run(file, to: "hubspot", campaign: nil, user: nil, extra: ["--mapping", mapping.path], environment: environment())
    }

    /// Two contacts an agent keeps: fill_blank leaves Ann's phone and fills Bo's empty one,
    /// never leaves Bo's company, and a property named in the mapping (not in
    /// HUBSPOT_PROPERTIES) is sent; a contact not there yet is created with everything.
    @Test func fillBlankKeepsWhatTheContactHoldsNeverLeavesItAndTheMappingNamesCustomProperties() throws {
        defer { t.remove() }
        let ann = try seed(["email": "ann@example.com", "firstname": "Ann", "lastname": "Lee", "phone": "+16175550000"])
        let bo = try seed(["email": "bo@example.com", "firstname": "Bo", "lastname": "Park", "company": "Agent Co"])
        let list = try csv("policy.csv", ["Name,Email,Phone,Company,Row ID",
                                          "Ann Lee,ann@example.com,617-555-1111,Acme,R1",
                                          "Bo Park,bo@example.com,617-555-2222,Bo Inc,R2",
                                          "Cy Diaz,cy@example.com,617-555-3333,Cy LLC,R3"])
        let policy = try mapping("""
            update: {phone: fill_blank, company: never}
            destinations:
              hubspot: {properties: {lead_import_key: "Row ID"}}
            """)
        let first = try run(list, mapping: policy)
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(first.outcomes[2]?[0] == "updated" && first.outcomes[2]?[2] == ann, "\(first.outcomes)")
        #expect(first.outcomes[3]?[0] == "updated" && first.outcomes[3]?[2] == bo)
        #expect(first.outcomes[4]?[0] == "created")
        let byEmail = Dictionary(uniqueKeysWithValues: try contacts().map { ($0.properties["email"] ?? "", $0.properties) })
        #expect(byEmail["ann@example.com"]?["phone"] == "+16175550000", "fill_blank: the agent's phone stays")
        #expect(byEmail["ann@example.com"]?["company"] == nil, "never: not sent on an update")
        #expect(byEmail["ann@example.com"]?["lead_import_key"] == "R1", "a property the mapping names")
        #expect(byEmail["bo@example.com"]?["phone"] == "+16175552222", "fill_blank: an empty phone is filled")
        #expect(byEmail["bo@example.com"]?["company"] == "Agent Co")
        #expect(byEmail["cy@example.com"]?["company"] == "Cy LLC" && byEmail["cy@example.com"]?["phone"] == "+16175553333", "a create sends everything")
        // The two known contacts read in one request for the policies, and once more for what
        // the updates replace (kept for `leadport undo`).
        let reads = try endpoint("batch/read")
        #expect(reads == 2, "the two known contacts read in one request, twice: \(reads)")
        #expect(try endpoint("batch/upsert") == 1)
        #expect(try endpoint("batch/update") == 1)

        // A rerun sends nothing; a blank cell (Bo's company, overwritten by default now) wipes nothing.
        let writes = try stat("writes")
        #expect(try run(list, mapping: policy).outcomes.values.allSatisfy { $0[0] == "unchanged" })
        #expect(try stat("writes") == writes)
        let blank = try csv("policy.csv", ["Name,Email,Phone,Company,Row ID", "Bo Park,bo@example.com,617-555-2222,,R2b"])
        let third = try run(blank, mapping: try mapping(""))
        #expect(third.outcomes[2]?[0] == "updated", "\(third.result.stderr)")
        #expect(try contacts().first { $0.id == bo }?.properties["company"] == "Agent Co")
    }

    /// create_only writes no contact HubSpot has (found by email, or known to the ledger);
    /// update_only creates none.
    @Test func createOnlyAndUpdateOnlyLookContactsUpByEmailAndSkipWithTheirReasons() throws {
        defer { t.remove() }
        let ann = try seed(["email": "ann@example.com", "firstname": "Ann", "lastname": "Lee", "phone": "+16175550000"])
        let list = try csv("modes.csv", ["Name,Email,Phone,Company", "Ann Lee,ann@example.com,617-555-1111,Acme", "Cy Diaz,cy@example.com,617-555-3333,Cy LLC"])
        let creating = try run(list, mapping: try mapping("destinations: {hubspot: {mode: create_only}}"))
        #expect(creating.result.status == 0, "\(creating.result.stderr)")
        #expect(creating.outcomes[2]?[0] == "skipped" && creating.outcomes[2]?[1] == "create_only: already at the destination", "\(creating.outcomes)")
        #expect(creating.outcomes[3]?[0] == "created")
        #expect(try contacts().first { $0.id == ann }?.properties["phone"] == "+16175550000", "Ann untouched")

        let more = try csv("modes.csv", ["Name,Email,Phone,Company", "Ann Lee,ann@example.com,617-555-1111,Acme", "Cy Diaz,cy@example.com,617-555-4444,Cy LLC",
                                         "Di Fox,di@example.com,617-555-5555,Di Co"])
        let updating = try run(more, mapping: try mapping("mode: update_only"))
        #expect(updating.result.status == 0, "\(updating.result.stderr)")
        #expect(updating.outcomes[2]?[0] == "updated" && updating.outcomes[3]?[0] == "updated", "\(updating.outcomes)")
        #expect(updating.outcomes[4]?[0] == "skipped" && updating.outcomes[4]?[1] == "update_only: not at the destination")
        #expect(try contacts().count == 2, "Di is not created")
    }
}
