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

    /// The version the embedded encoder works out on the build thread stands for the rows only
    /// when the lead creates every row it has; a lead whose address the campaign already holds
    /// wrote its contact alone.
    @Test func theVersionWorkedOutAheadIsUsedOnlyForALeadThatCreatesEveryRow() throws {
        let rows = try Self.rows(FlyrRows.encoder(Self.scope("both", campaign: "Spring"))(Self.lead()))
        rows.versionOfBoth = FlyrVersion.of(contact: rows.contact, address: rows.address)
        let lead = OutboundLead(key: "email:ana@example.com", encoded: Encoded(hash: "h", payload: rows), lead: Self.lead(), action: .create, remoteID: nil)
        (rows.createsContact, rows.createsAddress) = (true, true)
        #expect(FlyrVersion.of(lead) == rows.versionOfBoth)
        (rows.createsContact, rows.createsAddress) = (true, false)
        #expect(FlyrVersion.of(lead) == FlyrVersion.of(contact: rows.contact, address: nil))
        #expect(FlyrVersion.of(lead) != rows.versionOfBoth)
        (rows.createsContact, rows.createsAddress) = (false, true)
        #expect(FlyrVersion.of(lead) == FlyrVersion.of(contact: nil, address: rows.address))
        (rows.createsContact, rows.createsAddress) = (false, false)
        #expect(FlyrVersion.of(lead) == FlyrVersion.of(contact: nil, address: nil))
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
