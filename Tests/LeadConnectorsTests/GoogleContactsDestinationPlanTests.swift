import Foundation
import LeadConnectors
import LeadCore
import LeadTesting
import Testing

/// Google Contacts' part in a plan (`GoogleContactsDestination+Plan`) against
/// fixtures/servers/google_people_double.py: `prepare` then `snapshots`, as the engine calls
/// them in a dry run; the contacts are seeded, and the double's stats show that nothing was
/// written.
@Suite(.serialized) struct GoogleContactsDestinationPlanTests {
    /// The double's account, as the client's tests sign in to it.
    typealias Account = GoogleContactsClientTests

    let server: LocalServer

    init() throws {
        server = try LocalServer(script: "servers/google_people_double.py",
                                 arguments: ["--lifetime", "120", "--client-id", Account.clientID, "--client-secret", Account.secret, "--refresh-token", Account.refresh])
    }

    private func api() throws -> GoogleContactsAPI {
        let config = GoogleContactsConfig(clientID: Account.clientID, clientSecret: Account.secret, refreshToken: Account.refresh,
                                          baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), tokenURL: server.url("/token"))
        return GoogleContactsAPI(config: config, policy: Account.quick)
    }

    private func destination(_ policy: DestinationPolicy = DestinationPolicy()) throws -> GoogleContactsDestination {
        let destination = GoogleContactsDestination(api: try api())
        try destination.configure(policy)
        return destination
    }

    /// The seeded contact's resource name.
    private func seed(_ contact: [String: Any]) throws -> String {
        let people = try server.control("/_double/seed", ["contacts": [contact]])["people"] as? [[String: Any]]
        return try #require(people?.first?["resourceName"] as? String)
    }

    private func writes() throws -> Int { try server.control("/_double/stats")["writes"] as? Int ?? -1 }

    static func outbound(email: String = "ann.lee@example.com", phone: String = "+16175550111", company: String? = nil) -> OutboundLead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: 2))
        (lead.givenName, lead.familyName, lead.email, lead.phone, lead.company) = ("Ann", "Lee", email, phone, company)
        return OutboundLead(key: email, encoded: Encoded(hash: "h2"), lead: lead, action: .create, remoteID: nil)
    }

    static var annLee: [String: Any] { [
        "names": [["givenName": "Ann", "familyName": "Lee"]], "emailAddresses": [["value": "ann.lee@example.com"]], "phoneNumbers": [["value": "+16175550100"]],
    ] }

    /// `prepare` then `snapshots`, as a dry run calls them.
    private func plan(_ destination: GoogleContactsDestination, _ leads: inout [OutboundLead], campaign: String? = nil) throws -> [FieldSnapshot] {
        _ = try destination.enter(RunScope(reference: campaign, owner: nil, create: false))
        try destination.prepare(&leads)
        return try #require(try destination.snapshots(&leads))
    }

    @Test func aLeadGoogleLacksIsACreateWithItsLabelAndNothingIsMade() throws {
        var leads = [Self.outbound(company: "Lee Realty")]
        let snapshots = try plan(try destination(), &leads, campaign: "Spring farm")
        #expect(leads[0].action == .create && leads[0].remoteID == nil)
        #expect(snapshots == [FieldSnapshot(before: nil, after: [
            "names": "Ann Lee", "emailAddresses": "ann.lee@example.com", "phoneNumbers": "+16175550111", "organizations": "Lee Realty", "memberships": "Spring farm",
        ])])
        #expect(try writes() == 0, "the label is not made for a plan")
    }

    @Test func aContactFoundByEmailIsAnUpdateOfItsChangedPhone() throws {
        let name = try seed(Self.annLee)
        var leads = [Self.outbound()]
        let snapshot = try #require(try plan(try destination(), &leads).first)
        #expect(leads[0].action == .update && leads[0].remoteID == name && leads[0].found && !leads[0].alreadyThere)
        #expect(snapshot.before == ["names": "Ann Lee", "emailAddresses": "ann.lee@example.com", "phoneNumbers": "+16175550100"])
        #expect(snapshot.after == ["names": "Ann Lee", "emailAddresses": "ann.lee@example.com", "phoneNumbers": "+16175550111"])
        #expect(snapshot.changed == ["phoneNumbers"])
        #expect(try writes() == 0)
    }

    /// `fill_blank` sends the organization the contact lacks, not the phone it has; the
    /// contacts `prepare` read whole for the policy are not read again.
    @Test func fillBlankLeavesAFilledFieldOutOfWhatIsSent() throws {
        _ = try seed(Self.annLee)
        var leads = [Self.outbound(company: "Lee Realty")]
        let snapshot = try #require(try plan(try destination(DestinationPolicy(update: ["phone": .fillBlank, "company": .fillBlank])), &leads).first)
        #expect(snapshot.before?["phoneNumbers"] == "+16175550100" && snapshot.after["phoneNumbers"] == nil)
        #expect(snapshot.before?["organizations"] == nil && snapshot.after["organizations"] == "Lee Realty")
        #expect(snapshot.changed == ["organizations"])
        let calls = try server.control("/_double/stats")["by_endpoint"] as? [String: Int] ?? [:]
        #expect(calls["people.getBatchGet"] == 1, "\(calls)")
        #expect(try writes() == 0)
    }

    /// A contact that already has every value and the campaign's label is left alone; the
    /// label is found by name, not made.
    @Test func aContactHoldingEverythingWithItsLabelIsAlreadyThere() throws {
        let name = try seed(Self.annLee)
        let api = try api()
        _ = try api.addMembers([name], to: try api.contactGroup(named: "Spring farm").resourceName)
        let before = try writes()
        var leads = [Self.outbound(phone: "+16175550100")]
        let snapshot = try #require(try plan(try destination(), &leads, campaign: "Spring farm").first)
        #expect(snapshot.before?["memberships"] == "Spring farm" && snapshot.after["memberships"] == "Spring farm")
        #expect(snapshot.changed.isEmpty && leads[0].alreadyThere)
        #expect(try writes() == before)
    }
}
