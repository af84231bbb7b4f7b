@testable import LeadConnectors
import LeadCore
import Testing

/// FLYR's rows are built by the family's own encoder, from the run's scope, and travel with the
/// lead as its payload; the engine sees neither record.
@Suite struct FlyrRowsTests {
    static func lead() -> Lead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: 2))
        (lead.givenName, lead.familyName) = ("Ana", "Lima")
        lead.email = "ana@example.com"
        lead.address.houseNumber = "12"
        lead.address.streetName = "Oak"
        lead.address.streetSuffix = "St"
        lead.address.city = "Springfield"
        lead.address.state = "IL"
        lead.address.postalCode = "62704"
        return lead
    }

    static func scope(_ target: String, campaign: String?) throws -> FlyrScope {
        try FlyrScope(RunScope(reference: campaign, owner: nil, create: true, target: target), destination: "test") { _, _, _ in
            CampaignMatch(id: "c-1", owner: nil)
        }
    }

    static func rows(_ encoded: Encoded) throws -> FlyrRows {
        try #require(encoded.payload as? FlyrRows)
    }

    @Test func theTargetAndTheCampaignSayWhichRowsAreBuilt() throws {
        let contacts = try Self.rows(FlyrRows.encoder(Self.scope("contacts", campaign: "Spring"))(Self.lead()))
        #expect(contacts.contact?.fullName == "Ana Lima" && contacts.address == nil)
        let both = try Self.rows(FlyrRows.encoder(Self.scope("both", campaign: "Spring"))(Self.lead()))
        #expect(both.contact != nil && both.address?.postalCode == "62704")
        let addresses = try Self.rows(FlyrRows.encoder(Self.scope("campaign_addresses", campaign: "Spring"))(Self.lead()))
        #expect(addresses.contact == nil && addresses.address != nil)
        // No campaign: no campaign address, whatever the target.
        let none = try Self.rows(FlyrRows.encoder(Self.scope("both", campaign: nil))(Self.lead()))
        #expect(none.contact != nil && none.address == nil)
    }

    @Test func theHashIsOverTheRowsTheLeadCarries() throws {
        let encoded = FlyrRows.encoder(try Self.scope("both", campaign: "Spring"))(Self.lead())
        let rows = try Self.rows(encoded)
        #expect(encoded.hash == FlyrPayload.hash(contact: rows.contact, address: rows.address))
        let contactsOnly = FlyrRows.encoder(try Self.scope("contacts", campaign: "Spring"))(Self.lead())
        #expect(contactsOnly.hash != encoded.hash)
    }

    @Test func anUpdateTakesItsRowsIdsFromTheLedger() throws {
        let encoded = FlyrRows.encoder(try Self.scope("both", campaign: "Spring"))(Self.lead())
        let lead = OutboundLead(key: "email:ana@example.com", encoded: encoded, lead: Self.lead(), action: .update, remoteID: "c-9|a:a-7")
        #expect(lead.flyr.contactID == "c-9" && lead.flyr.addressID == "a-7")
        #expect(lead.remoteID == "c-9|a:a-7" && lead.flyr.remoteID == "c-9|a:a-7")
    }

    @Test func anotherDestinationsLeadCarriesItsOwnIDAndNoPayload() {
        let lead = OutboundLead(key: "k", encoded: Encoded(hash: "h"), lead: Self.lead(), action: .update, remoteID: "123")
        #expect(lead.remoteID == "123" && lead.payload == nil && lead.hash == "h")
        let unnamed = OutboundLead(key: "k", encoded: Encoded(hash: "h"), lead: Self.lead(), action: .update, remoteID: "")
        #expect(unnamed.remoteID == nil)
    }
}
