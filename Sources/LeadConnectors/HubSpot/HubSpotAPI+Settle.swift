import Foundation
import HTTPKit

/// Settling a create whose outcome is unknown. A batch create of contacts
/// without an email cannot be sent again blindly: HubSpot may have made them, and a second
/// request would make them twice (a dropped connection once stopped HubSpot for the night with
/// 24 of 2,980 contacts written). So the contacts are looked for, by phone and names as
/// `prepare` looks for them, and only the inputs not found are sent again.
///
/// HubSpot's search sees a write some seconds late, so the search is made after each wait of
/// `policy.settleWaits` (1, 2, 4, 8 s) until every input is found; once one input is found the
/// request was applied, and the search goes on only for the rest. After the last wait, the
/// inputs still not found are taken as not made (their request never reached HubSpot, or it
/// refused them) and created again, which answers each with HubSpot's own result.
extension HubSpotAPI {
    func settleLostCreate(_ payloads: [HubSpotContactPayload], settling: Int) throws(HubSpotError) -> [HubSpotWriteResult] {
        var results = [HubSpotWriteResult?](repeating: nil, count: payloads.count)
        let matches = payloads.map(HubSpotMatch.init)
        var sought = payloads.indices.filter { matches[$0].isSearchable }
        var claimed = Set<String>()
        for wait in policy.settleWaits where !sought.isEmpty {
            clock.sleep(wait)
            let phones = sought.flatMap { matches[$0].phoneValues }
            let byPhone = phones.isEmpty ? [] : try search(phones: phones).sorted { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
            for n in sought {
                let match = matches[n]
                let candidates = match.phone == nil ? try search(match) : byPhone.filter { HubSpotDestination.fits($0, match) }
                // The newest such contact no other input took: the lost request made it last.
                guard let contact = candidates.last(where: { !claimed.contains($0.id) }) else { continue }
                claimed.insert(contact.id)
                results[n] = .created(id: contact.id)
            }
            sought.removeAll { results[$0] != nil }
        }
        let rest = payloads.indices.filter { results[$0] == nil }
        if !rest.isEmpty {
            for (n, result) in zip(rest, try create(rest.map { payloads[$0] }, settling: settling)) { results[n] = result }
        }
        return results.map { $0! }
    }
}
