@testable import LeadConnectors
import LeadCore
import Testing

/// What a run writes at FLYR's tables is the family's to settle from the run's scope: the
/// mapping's `target:`, else (an auto-mapped list) both a campaign's addresses and contacts when
/// a campaign is named; campaign addresses alone need a campaign.
@Suite struct FlyrScopeTests {
    static func scope(_ target: String?, campaign: String?) throws -> FlyrScope {
        try FlyrScope(RunScope(reference: campaign, owner: nil, create: true, target: target), destination: "test") { _, _, _ in
            CampaignMatch(id: "c-1", owner: nil)
        }
    }

    @Test func withoutAMappingACampaignIsFilledWithAddressesAndContacts() throws {
        let named = try Self.scope(nil, campaign: "Spring")
        #expect(named.target == "both" && named.writesContacts && named.writesAddresses)
        let unnamed = try Self.scope(nil, campaign: nil)
        #expect(unnamed.target == "contacts" && unnamed.writesContacts && !unnamed.writesAddresses)
    }

    @Test func theMappingsTargetStands() throws {
        let contacts = try Self.scope("contacts", campaign: "Spring")
        #expect(contacts.target == "contacts" && !contacts.writesAddresses)
        let addresses = try Self.scope("campaign_addresses", campaign: "Spring")
        #expect(addresses.target == "campaign_addresses" && !addresses.writesContacts && addresses.writesAddresses)
    }

    /// The message and exit status the import has always given.
    @Test func campaignAddressesAloneNeedACampaign() throws {
        #expect(throws: CampaignNeeded.self) { try Self.scope("campaign_addresses", campaign: nil) }
        let error = CampaignNeeded()
        #expect(error.description == "--campaign: not a valid mapping: the mapping targets campaign_addresses; name the campaign with --campaign ID|NAME")
        #expect(error.disposition == .usage)
    }
}
