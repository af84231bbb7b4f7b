import Foundation
import HTTPKit
import LeadCore

/// Settling an event whose outcome is unknown: its answer was lost, or was a
/// 500, 502 or 504. The event is not sent again blindly (that adds a second event to the
/// person's timeline, and one Follow Up Boss cannot match makes a second person): the person is
/// looked up by email, else by phone (with the names, when the event gives them), and the
/// event is sent again only when nobody is found.
///
/// | look-up | waits before it |
/// | --- | --- |
/// | 1st | none |
/// | 2nd, 3rd | 1 s, 2 s (a new person may take a moment to be listed) |
/// | none found | the event is sent again, settled the same way (twice at most) |
extension FollowUpBossAPI {
    static let settleWaits: [Double] = [0, 1, 2]

    /// `POST /v1/events`, its outcome settled when unknown (above). A person found after a
    /// lost answer is `.created`: the lost event made it (or matched it, when Follow Up Boss
    /// had the person already, which `prepare` did not look for).
    public func deliver(_ event: FollowUpBossEvent, settling: Int = 2) throws -> FollowUpBossOutcome {
        do {
            return try send(event, replayable: false)
        } catch let lost as FollowUpBossError where lost.outcomeUnknown && settling > 0 {
            for wait in Self.settleWaits {
                clock.sleep(wait)
                if let person = try landed(event.person) { return .created(person) }
            }
            return try deliver(event, settling: settling - 1)
        }
    }

    /// The person an event for `person` made or matched, when Follow Up Boss lists one: by its
    /// email, else its phone and the names it gives. Nil when the payload has neither.
    func landed(_ person: FollowUpBossPersonPayload) throws -> FollowUpBossPerson? {
        if let email = person.emails.first?.value {
            return try people(email: email, atMost: 1).first
        }
        if let phone = person.phones.first.map({ PhoneText.number($0.value) }) {
            return try people(phone: phone, firstName: person.firstName, lastName: person.lastName, atMost: 1).first
        }
        return nil
    }
}
