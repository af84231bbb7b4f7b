@testable import LeadConnectors
import LeadCore
import Testing

/// `append` on Follow Up Boss's lists: a phone the person has in another format is not added a
/// second time (new-user trial: `(617) 555-0100` got `+16175550100` beside it).
@Suite struct FollowUpBossAppendTests {
    @Test func aNumberTheListHasInAnotherFormatIsNotAddedAgain() {
        let held = [FollowUpBossContactPoint(value: "(617) 555-0100", type: "mobile")]
        let same = FollowUpBossDestination.list([FollowUpBossContactPoint(value: "+16175550100")], held: held, policy: .append)
        #expect(same.isEmpty, "\(same)")
        let other = FollowUpBossDestination.list([FollowUpBossContactPoint(value: "+16175550199")], held: held, policy: .append)
        #expect(other.map(\.value) == ["(617) 555-0100", "+16175550199"])
        let emails = FollowUpBossDestination.list([FollowUpBossContactPoint(value: "Ann@Example.com")], held: [FollowUpBossContactPoint(value: "ann@example.com")], policy: .append)
        #expect(emails.isEmpty)
    }
}
