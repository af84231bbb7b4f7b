import Foundation
import LeadCore
import LeadEngine
import LeadNormalize
import Testing

/// Do-not-contact lists (`import --exclude`): read in the shapes people keep them, normalised by
/// the leads' own rules, and matched against leads.
@Suite struct ExclusionListTests {
    func file(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-dnc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func lead(email: String? = nil, phone: String? = nil, mobile: String? = nil, line: String? = nil, zip: String? = nil) -> Lead {
        var lead = Lead(source: SourceLocation(file: "x.csv", sheet: nil, row: 2))
        (lead.email, lead.phone, lead.mobile) = (email, phone, mobile)
        if let line {
            let parsed = AddressRule.parse(line + (zip.map { ", Boston, MA " + $0 } ?? "")).address
            lead.address = parsed
        }
        return lead
    }

    /// One a line, in the shapes a person types them: each normalised as a lead's would be.
    @Test func aPlainListIsReadCellByCell() throws {
        let list = try ExclusionList.load(path: file("dnc.txt", "(617) 555-0101\nAnn.Lee@Example.COM\n12 North Main Street Apt 4\n+44 20 7946 0958\n\n"), region: "US")
        #expect(list.name == "dnc.txt")
        #expect(list.phones == ["+16175550101", "+442079460958"])
        #expect(list.emails == ["ann.lee@example.com"])
        #expect(list.addresses == ["12 N MAIN ST APT 4": [""]])
        #expect(list.excludes(lead(phone: "+16175550101")))
        #expect(list.excludes(lead(mobile: "+16175550101")))
        #expect(list.excludes(lead(email: "ann.lee@example.com")))
        #expect(list.excludes(lead(line: "12 N Main St Apt 4", zip: "02134")), "a street address without a ZIP in the list keeps it out in any ZIP")
        #expect(!list.excludes(lead(email: "bob@example.com", phone: "+16175550102", line: "14 N Main St", zip: "02134")))
        #expect(list.reason == "excluded (dnc.txt)")
    }

    /// A CSV with named columns: each column read as what it names, the address's parts together.
    @Test func namedColumnsAreReadAsNamed() throws {
        let list = try ExclusionList.load(path: file("dnc.csv", """
            Name,Phone Number,E-mail,Street Address,City,State,Zip
            Ann Lee,617.555.0101,ann@example.com,12 Main St,Boston,MA,02134
            Bob Ray,,,7 Elm Street,Salem,MA,01970-1234
            """), region: "US")
        #expect(list.phones == ["+16175550101"])
        #expect(list.emails == ["ann@example.com"])
        #expect(list.addresses == ["12 MAIN ST": ["02134"], "7 ELM ST": ["01970"]])
        #expect(list.excludes(lead(line: "7 Elm St", zip: "01970")))
        #expect(!list.excludes(lead(line: "7 Elm St", zip: "02134")), "a listed ZIP keeps that address out there only")
    }
}
