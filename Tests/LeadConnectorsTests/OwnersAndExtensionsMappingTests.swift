import Foundation
import LeadConnectors
import LeadCore
import Testing

/// Issue 23: every owner of a county record reaches the CRMs' name fields, and a phone's
/// extension their free-text phone values, while matching keeps to the number.
@Suite struct OwnersAndExtensionsMappingTests {
    static var smiths: Lead {
        var lead = Lead(source: SourceLocation(file: "owners.csv", row: 2, recordIndex: 0))
        (lead.givenName, lead.familyName, lead.household) = ("John", "Smith", true)
        (lead.secondGivenName, lead.secondFamilyName) = ("Mary", "Smith")
        lead.otherOwners = [CoOwner(given: "Robert", family: "Smith")]
        lead.phone = "+12175550101"
        lead.phoneExtension = "22"
        return lead
    }

    @Test func threeOwnersAreNamedAtHubSpotAndGoogle() {
        let payload = HubSpotContactPayload(lead: Self.smiths)
        #expect(payload.properties["firstname"] == "John, Mary & Robert" && payload.properties["lastname"] == "Smith")
        #expect(GooglePerson(lead: Self.smiths).names?.first?.givenName == "John, Mary & Robert")
        var mixed = Self.smiths
        mixed.otherOwners = [CoOwner(given: "Pat", family: "Doe")]
        #expect(GooglePerson(lead: mixed).names?.first?.unstructuredName == "John & Mary Smith & Pat Doe")
        // Two owners read as before.
        var two = Self.smiths
        two.otherOwners = []
        #expect(HubSpotContactPayload(lead: two).properties["firstname"] == "John & Mary")
        // An owner of another family is not named after the first's (BROWN JAMES & JONES
        // PATRICIA is not Patricia Brown): the contact is the owners of the first's family.
        #expect(HubSpotContactPayload(lead: mixed).properties["firstname"] == "John & Mary")
        var families = two
        families.secondFamilyName = "Jones"
        #expect(HubSpotContactPayload(lead: families).properties["firstname"] == "John" && HubSpotContactPayload(lead: families).properties["lastname"] == "Smith")
    }

    @Test func theExtensionIsInThePhoneAndTheMatchIsTheNumber() throws {
        let payload = HubSpotContactPayload(lead: Self.smiths)
        #expect(payload.properties["phone"] == "+12175550101 ext. 22")
        let match = HubSpotMatch(payload)
        #expect(match.phone == "+12175550101" && match.phoneValues == ["+12175550101", "+12175550101 ext. 22"])
        var plain = Self.smiths
        plain.phoneExtension = nil
        #expect(HubSpotContactPayload(lead: plain).properties["phone"] == "+12175550101")
        #expect(HubSpotMatch(HubSpotContactPayload(lead: plain)).phoneValues == ["+12175550101"])
        let event = try FollowUpBossMapping().event(Self.smiths, system: "LeadPort")
        #expect(event.person.phones.map(\.value) == ["+12175550101 ext. 22"])
        #expect(PhoneText.number("+12175550101 ext. 22") == "+12175550101" && PhoneText.number("+12175550101") == "+12175550101")
    }
}
