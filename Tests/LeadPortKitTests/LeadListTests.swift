import Foundation
import LeadPortKit
import LeadTesting
import Testing

/// LeadPortKit as an app uses it: one import, a file in, cleaned leads out.
@Suite struct LeadListTests {
    private func leads(_ list: LeadList) throws -> [Lead] {
        var all: [Lead] = []
        try list.forEach { all.append($0) }
        return all
    }

    @Test func titleRowsAreNotLeadsAndPhonesComeOutInE164() throws {
        let list = try LeadList(path: Fixture.url("xlsx/title-rows-above-header.xlsx").path)
        #expect(list.plan.headerRow == 4)
        let found = try leads(list)
        #expect(found.map(\.source.row) == [5, 6, 7, 8])
        #expect(found.map(\.phone) == ["+16175550100", "+16175550101", "+15085550123", nil])
        #expect(found.first?.fullName == "Ann Lee")
    }

    @Test func aMappingIsFollowedAndAddressesAreInUSPSStyle() throws {
        let mapping = try Mapping.load(path: Fixture.root.appendingPathComponent("mappings/generic-leads.yaml").path)
        let found = try leads(LeadList(path: Fixture.url("csv/utf8-plain.csv").path, mapping: mapping))
        #expect(found.map(\.address.deliveryLine) == ["12 ELM ST APT 4", "1 MAIN ST", "5 \"THE PINES\" RD"])
        #expect(found.map(\.address.postalCode) == ["02134", "02139", "01602"])
        #expect(found.map(\.email) == ["jose@example.com", "zoe@example.org", "ann@example.net"])
    }

    @Test func blankRowsAreSkippedAndWhatTheRulesFindIsInTheIssues() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadportkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("list.csv")
        try "Name,Email,Phone\nAnn Lee,ann@example.com,617 555 0100\n,,\nBob Stone,bob-at-example,call me\n".write(to: file, atomically: true, encoding: .utf8)
        let found = try leads(LeadList(path: file.path))
        #expect(found.map(\.source.row) == [2, 4])
        #expect(found[0].issues.isEmpty)
        #expect(Set(found[1].issues.map(\.code)) == [.invalidEmail, .invalidPhone])
    }
}
