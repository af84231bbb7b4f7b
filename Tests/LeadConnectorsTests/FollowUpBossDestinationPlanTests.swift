import Foundation
import LeadConnectors
import LeadCore
import LeadTesting
import Testing

/// Follow Up Boss's part in a plan (`FollowUpBossDestination+Plan`) against
/// fixtures/servers/followupboss_double.py: `prepare` then `snapshots`, as the engine calls them
/// in a dry run; what the double holds is seeded, and its stats show that nothing was written.
@Suite(.serialized) struct FollowUpBossDestinationPlanTests {
    let server: LocalServer

    init() throws { server = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "120"]) }

    private func destination(_ policy: DestinationPolicy = DestinationPolicy(), tags: [String] = ["Door knock"], customFields: [String: String] = [:]) throws -> FollowUpBossDestination {
        let config = try FollowUpBossConfig(environment: [
            "FUB_API_KEY": "fub-test-key", "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": "fub-test-system-key", "FUB_BASE_URL": "http://127.0.0.1:\(server.port)",
        ])
        let destination = FollowUpBossDestination(api: FollowUpBossAPI(config: config), mapping: try FollowUpBossMapping(tags: tags, customFields: customFields))
        try destination.configure(policy)
        return destination
    }

    /// The seeded person's id.
    private func seed(_ person: [String: Any]) throws -> Int {
        try #require((server.control("/_double/seed", ["people": [person]])["ids"] as? [Int])?.first)
    }

    private func stats() throws -> [String: Any] { try server.control("/_double/stats") }
    private func calls(_ endpoint: String) throws -> Int { (try stats()["by_endpoint"] as? [String: Int])?[endpoint] ?? 0 }

    static func lead(email: String? = "ann.lee@example.com", phone: String = "+16175550111", row: Int = 2) -> Lead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: row))
        (lead.givenName, lead.familyName, lead.email, lead.phone) = ("Ann", "Lee", email, phone)
        return lead
    }

    static func outbound(_ lead: Lead, known id: Int? = nil) -> OutboundLead {
        OutboundLead(key: lead.email ?? "row-\(lead.source.row)", encoded: Encoded(hash: "h\(lead.source.row)"), lead: lead,
                     action: id == nil ? .create : .update, remoteID: id.map(String.init))
    }

    /// `prepare` then `snapshots`, as a dry run calls them.
    private func plan(_ destination: FollowUpBossDestination, _ leads: inout [OutboundLead], campaign: String? = nil) throws -> [FieldSnapshot] {
        _ = try destination.enter(RunScope(reference: campaign, owner: nil, create: false))
        try destination.prepare(&leads)
        return try #require(try destination.snapshots(&leads))
    }

    static var annLee: [String: Any] { [
        "firstName": "Ann", "lastName": "Lee", "emails": [["value": "ann.lee@example.com"]], "phones": [["value": "+16175550100"]], "tags": ["Door knock"],
    ] }

    @Test func aLeadFollowUpBossLacksIsACreateOfEveryFieldTheEventSends() throws {
        var leads = [Self.outbound(Self.lead())]
        let snapshots = try plan(try destination(), &leads, campaign: "Spring farm")
        #expect(leads[0].action == .create && leads[0].remoteID == nil)
        #expect(snapshots == [FieldSnapshot(before: nil, after: [
            "firstName": "Ann", "lastName": "Lee", "emails": "ann.lee@example.com", "phones": "+16175550111", "tags": "Door knock, Spring farm", "source": "LeadPort",
        ])])
        #expect(snapshots[0].changed == ["emails", "firstName", "lastName", "phones", "source", "tags"])
        #expect(try calls("GET /v1/people") == 1, "looked for by email once")
        #expect(try stats()["writes"] as? Int == 0)
    }

    @Test func aLeadFoundByEmailIsAnUpdateOfItsChangedPhoneReadFromThePerson() throws {
        let id = try seed(Self.annLee)
        var leads = [Self.outbound(Self.lead())]
        let snapshots = try plan(try destination(), &leads)
        #expect(leads[0].action == .update && leads[0].remoteID == String(id) && leads[0].found && !leads[0].alreadyThere)
        let snapshot = try #require(snapshots.first)
        #expect(snapshot.before == ["firstName": "Ann", "lastName": "Lee", "emails": "ann.lee@example.com", "phones": "+16175550100", "tags": "Door knock"])
        #expect(snapshot.after == ["firstName": "Ann", "lastName": "Lee", "emails": "ann.lee@example.com", "phones": "+16175550111", "tags": "Door knock"])
        #expect(snapshot.changed == ["phones"])
        #expect(try stats()["writes"] as? Int == 0)
    }

    /// `fill_blank` sends the last name the person lacks, and not the phone it has; `append`
    /// shows the person's tags with the campaign's after them.
    @Test func fillBlankLeavesAFilledFieldOutOfWhatIsSent() throws {
        var person = Self.annLee
        person["lastName"] = ""
        let id = try seed(person)
        var leads = [Self.outbound(Self.lead())]
        let policy = DestinationPolicy(update: ["phone": .fillBlank, "last_name": .fillBlank, "tags": .append])
        let snapshots = try plan(try destination(policy), &leads, campaign: "Spring farm")
        #expect(leads[0].remoteID == String(id))
        let snapshot = try #require(snapshots.first)
        #expect(snapshot.before?["phones"] == "+16175550100" && snapshot.after["phones"] == nil, "the person's phone stays")
        #expect(snapshot.before?["lastName"] == nil && snapshot.after["lastName"] == "Lee")
        #expect(snapshot.after["tags"] == "Door knock, Spring farm")
        #expect(snapshot.changed == ["lastName", "tags"])
        #expect(try calls("GET /v1/people") == 1, "prepare looked it up; the plan did not look again")
        #expect(try calls("GET /v1/people/{id}") == 0, "nor read it again")
        #expect(try stats()["writes"] as? Int == 0)
    }

    /// Addresses are flattened one a line part, custom fields go by their API names, and a
    /// create shows the note and company line its event puts on the timeline.
    @Test func addressesCustomFieldsAndTheEventsTextAreShownByFollowUpBossNames() throws {
        let id = try seed(Self.annLee.merging([
            "addresses": [["type": "home", "street": "12 MAIN ST", "city": "SPRINGFIELD", "state": "MA", "code": "01101"]], "customCloseDate": "",
        ]) { $1 })
        func lead(_ email: String, row: Int) -> Lead {
            var lead = Self.lead(email: email, phone: "+16175550100", row: row)
            (lead.address.houseNumber, lead.address.streetName, lead.address.streetSuffix) = ("12", "MAIN", "ST")
            (lead.address.city, lead.address.state, lead.address.postalCode) = ("SPRINGFIELD", "MA", "01101")
            (lead.notes, lead.company, lead.extras) = ("Call after 5pm", "Lee Realty", [("Close Date", "2024-06-30")])
            return lead
        }
        let destination = try destination(tags: [], customFields: ["customCloseDate": "Close Date"])
        var leads = [Self.outbound(lead("ann.lee@example.com", row: 2), known: id), Self.outbound(lead("new@example.com", row: 3))]
        let snapshots = try plan(destination, &leads)
        #expect(snapshots[0].before?["addresses"] == "home: 12 MAIN ST, SPRINGFIELD, MA, 01101" && snapshots[0].before?["customCloseDate"] == nil)
        #expect(snapshots[0].changed == ["customCloseDate"] && snapshots[0].after["customCloseDate"] == "2024-06-30")
        #expect(snapshots[1].before == nil && snapshots[1].after["message"] == "Call after 5pm" && snapshots[1].after["description"] == "Company: Lee Realty")
        #expect(snapshots[1].after["addresses"] == "home: 12 MAIN ST, SPRINGFIELD, MA, 01101")
        #expect(try stats()["writes"] as? Int == 0)
    }

    /// Leads the ledger knows are read by id: one whose person holds every value is left alone,
    /// one whose person was deleted since is the event that `send` falls back to.
    @Test func knownLeadsAreReadByIDAndOneHoldingEverythingIsAlreadyThere() throws {
        let id = try seed(Self.annLee)
        var leads = [Self.outbound(Self.lead(phone: "+16175550100"), known: id), Self.outbound(Self.lead(email: "gone@example.com", row: 3), known: 999)]
        let snapshots = try plan(try destination(), &leads)
        #expect(leads[0].alreadyThere && snapshots[0].changed.isEmpty && snapshots[0].before == snapshots[0].after)
        #expect(!leads[1].alreadyThere && snapshots[1].before == nil && snapshots[1].after["source"] == "LeadPort")
        #expect(try calls("GET /v1/people/{id}") == 2 && (try calls("GET /v1/people")) == 0)
        #expect(try stats()["writes"] as? Int == 0)
    }
}
