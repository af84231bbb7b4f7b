import Foundation
import LeadTesting
import Testing

extension FollowUpBossDestinationTests {
    /// Issue 23 item 8: a phone's extension is kept at Follow Up Boss, whose `phones[].value` is
    /// free text (`+16175550102 ext. 7`); the person an agent typed without it is still matched by
    /// phone and name, and a rerun sends nothing.
    @Test func aPhoneExtensionIsWrittenInThePhonesValueAndThePersonIsStillFoundByItsNumber() throws {
        defer { t.remove() }
        try control("seed", #"{"people":[{"firstName":"Ann","lastName":"Lee","phones":[{"value":"+16175550101"}]}]}"#)
        let list = t.dir.appendingPathComponent("extensions.csv")
        try "Name,Phone,Email\nAnn Lee,617-555-0101 x22,\nBo Park,617-555-0102 x7,bo@example.com\n".write(to: list, atomically: true, encoding: .utf8)
        let run = try t.run(list, to: "followupboss", environment: environment())
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.outcomes[2]?[0] == "updated" && run.outcomes[2]?[2] == "1", "\(run.outcomes)")
        #expect(run.outcomes[3]?[0] == "created", "\(run.outcomes)")
        let held = try people()
        #expect(held.count == 2)
        let bo = held.first { ($0["emails"] as? [[String: Any]])?.first?["value"] as? String == "bo@example.com" }
        #expect((bo?["phones"] as? [[String: Any]])?.first?["value"] as? String == "+16175550102 ext. 7")
        let again = try t.run(list, to: "followupboss", environment: environment())
        #expect(RemoteImport.count(again.outcomes, "unchanged") == 2, "\(again.outcomes)")
        #expect(try people().count == 2)
    }
}
