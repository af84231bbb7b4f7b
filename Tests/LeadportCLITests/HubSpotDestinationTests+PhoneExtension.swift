import Foundation
import LeadTesting
import Testing

extension HubSpotDestinationTests {
    /// Issue 23 item 8: a phone's extension (`x22`) reached the export and the webhook but not
    /// HubSpot. HubSpot's `phone` is free text and HubSpot shows extensions as `ext.`, so the
    /// contact gets `+16175550101 ext. 22`; a contact without an email is still found by its
    /// number (an agent's `+16175550101`), and by the text sent when the ledger is gone, and a
    /// rerun writes nothing.
    @Test func aPhoneExtensionIsWrittenAndTheContactIsStillFoundByItsNumber() throws {
        defer { t.remove() }
        let ann = try seed(["firstname": "Ann", "lastname": "Lee", "phone": "+16175550101"])
        let list = try csv("extensions.csv", ["Name,Phone,Email",
                                              "Ann Lee,617-555-0101 x22,",
                                              "Bo Park,(617) 555-0102 ext. 7,bo@example.com",
                                              "Cy Diaz,617-555-0103 x9,"])
        let first = try run(list)
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(first.outcomes[2] == ["updated", "", ann], "\(first.outcomes)")
        #expect(first.outcomes[3]?[0] == "created" && first.outcomes[4]?[0] == "created", "\(first.outcomes)")
        let all = try contacts()
        #expect(all.count == 3)
        #expect(all.first { $0.id == ann }?.properties["phone"] == "+16175550101 ext. 22")
        #expect(all.first { $0.properties["email"] == "bo@example.com" }?.properties["phone"] == "+16175550102 ext. 7")
        let cy = try #require(all.first { $0.properties["lastname"] == "Diaz" })
        #expect(cy.properties["phone"] == "+16175550103 ext. 9")

        let again = try run(list)
        #expect(again.outcomes.values.allSatisfy { $0.first == "unchanged" }, "\(again.outcomes)")
        // Without the ledger, the contacts are found again by their phones, not made twice.
        let fresh = try run(list, ledger: "fresh.db")
        #expect(fresh.result.status == 0, "\(fresh.result.stderr)")
        #expect(fresh.outcomes[2]?[2] == ann && fresh.outcomes[4]?[2] == cy.id, "\(fresh.outcomes)")
        #expect(try contacts().count == 3)
    }
}
