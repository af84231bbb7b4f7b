import Foundation
import LeadConnectors
import LeadCore
import Testing

/// Issue 23 item 1: an owner that is not a person goes to each CRM's organisation field, with
/// no person's names; a company column of the row's own wins over it.
@Suite struct OrganizationMappingTests {
    static var acme: Lead {
        var lead = Lead(source: SourceLocation(file: "owners.csv", row: 2, recordIndex: 0))
        lead.organization = "Acme Properties LLC"
        lead.email = "leasing@acme-properties.example"
        return lead
    }

    @Test func theLeadIsNamedByItsOrganization() {
        #expect(Self.acme.fullName == "Acme Properties LLC")
        #expect(Self.acme.salutation == "Acme Properties LLC")
        #expect(Lead(source: Self.acme.source).salutation == "Current Resident")
    }

    @Test func hubSpotCompany() {
        let payload = HubSpotContactPayload(lead: Self.acme)
        #expect(payload.properties["company"] == "Acme Properties LLC")
        #expect(payload.properties["firstname"] == nil && payload.properties["lastname"] == nil)
        var own = Self.acme
        own.company = "Acme Holdings"
        #expect(HubSpotContactPayload(lead: own).properties["company"] == "Acme Holdings")
    }

    @Test func googleContactsOrganization() {
        let person = GooglePerson(lead: Self.acme)
        #expect(person.organizations?.first?.name == "Acme Properties LLC")
        #expect(person.names == nil)
    }

    @Test func followUpBossDescription() throws {
        let event = try FollowUpBossMapping().event(Self.acme, system: "LeadPort")
        #expect(event.description == "Company: Acme Properties LLC")
        #expect(event.person.firstName == nil && event.person.lastName == nil)
    }
}
