import LeadCore
import XCTest

@testable import LeadPrint

final class MailingLinesTests: XCTestCase {
    private func address(house: String? = "12", street: String? = "N Main St Apt 4", address: String? = nil,
                         city: String? = "Boston", state: String? = "MA", zip: String? = "02134-1234") -> PrintAddress {
        PrintAddress(id: "a", seq: 1, parts: AddressRecord(address: address, formatted: nil, houseNumber: house, streetName: street, locality: city, region: state, postalCode: zip))
    }

    func testLinesAreUpperCaseWithoutPunctuationButTheZipHyphen() throws {
        let lines = try MailingLines.of(address(street: "N. Main St., Apt #4")).get()
        XCTAssertEqual(lines, MailingLines(delivery: "12 N MAIN ST APT #4", last: "BOSTON MA 02134-1234"))
    }

    func testStoredDeliveryLineStandsInForMissingParts() throws {
        XCTAssertEqual(try MailingLines.of(address(house: nil, street: nil, address: "PO Box 17")).get().delivery, "PO BOX 17")
    }

    func testNoStreetIsUndeliverable() {
        guard case .failure(let problem) = MailingLines.of(address(house: nil, street: " ", address: nil)) else { return XCTFail("expected undeliverable") }
        XCTAssertTrue(problem.reason.contains("no delivery line"), problem.reason)
    }

    func testNoZipNorCityAndStateIsUndeliverable() {
        guard case .failure = MailingLines.of(address(city: "Boston", state: nil, zip: nil)) else { return XCTFail("expected undeliverable") }
        XCTAssertNoThrow(try MailingLines.of(address(zip: nil)).get())
    }

    func testSalutationIsTheContactsNameNotAStandIn() {
        var a = address()
        XCTAssertNil(a.salutation)
        a.contact = (fullName: "Mary  Smith", email: "m@example.com", phone: nil, address: nil)
        XCTAssertEqual(a.salutation, "Mary Smith")
        a.contact = (fullName: "m@example.com", email: "m@example.com", phone: nil, address: nil)
        XCTAssertNil(a.salutation)
        a.contact = (fullName: "(no name)", email: nil, phone: "+16175550100", address: nil)
        XCTAssertNil(a.salutation)
    }
}
