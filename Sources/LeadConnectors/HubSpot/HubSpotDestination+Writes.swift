import Foundation
import LeadCore

/// How one batch of leads becomes HubSpot's batch requests (the table on `HubSpotDestination`).
/// The requests go idempotent ones first (updates by id, upserts) and creates last, so that a
/// stop part way loses no create's answer: what came before it is answered and recorded.
extension HubSpotDestination {
    /// Writes `leads`, putting each one's answer in `results` as it is confirmed: on a throw,
    /// what is in `results` was applied by HubSpot.
    func write(_ leads: [OutboundLead], into results: inout [DeliveryResult?]) throws(HubSpotError) {
        var payloads = leads.map { HubSpotContactPayload(lead: $0.lead, mapping: mapping) }
        // An update sends what the field policies let through, over what prepare read.
        let created = payloads
        if !policy.overwritesAll {
            let current = takeRead(leads.compactMap { $0.action == .update ? $0.contactID : nil })
            for (n, lead) in leads.enumerated() where lead.action == .update {
                payloads[n] = updating(payloads[n], over: lead.contactID.flatMap { current[$0] })
                if payloads[n].isEmpty { results[n] = .updated(remoteID: lead.contactID ?? "") }
            }
        }
        var known: [(Int, String)] = []
        var fresh: [Int] = []
        for (n, lead) in leads.enumerated() where results[n] == nil {
            if payloads[n].isEmpty {
                results[n] = .rejected(reason: "nothing to send: the row fills no property HubSpot takes")
            } else if lead.action == .update, let id = lead.contactID {
                known.append((n, id))
            } else {
                fresh.append(n)
            }
        }
        // A unique value (email, the id property) another contact holds: that contact is the
        // lead's (409 CONFLICT "Existing ID: n"), and gets the lead's values.
        var taken: [(Int, String)] = []
        /// Puts the answers in `results`, and returns the leads whose contact HubSpot does
        /// not have (404), when `missing` says they are to be written anew.
        @discardableResult
        func take(_ indices: [Int], _ answers: [HubSpotWriteResult], missing: Bool = false) -> [Int] {
            var notFound: [Int] = []
            for (n, answer) in zip(indices, answers) {
                switch answer {
                case .created(let id): results[n] = .created(remoteID: id)
                case .updated(let id): results[n] = .updated(remoteID: id)
                case .existing(let id): taken.append((n, id))
                case .rejected(let rejection) where missing && rejection.status == 404: notFound.append(n)
                case .rejected(let rejection): results[n] = .rejected(reason: rejection.description)
                }
            }
            return notFound
        }

        // Contacts the ledger (or the search) knows; one deleted or merged away in HubSpot
        // since is written as a new contact below.
        if !known.isEmpty {
            let gone = take(known.map(\.0), try api.update(known.map { HubSpotUpdate(id: $0.1, payload: payloads[$0.0]) }), missing: true)
            for n in gone { payloads[n] = created[n] }
            fresh += gone
        }
        let byEmail = fresh.filter { payloads[$0].email != nil }
        if !byEmail.isEmpty { take(byEmail, try api.upsert(byEmail.map { payloads[$0] }, by: "email")) }
        var creates = fresh.filter { payloads[$0].email == nil }
        if let idProperty = mapping.idProperty {
            let byKey = creates.filter { payloads[$0][idProperty] != nil }
            creates.removeAll { payloads[$0][idProperty] != nil }
            if !byKey.isEmpty { take(byKey, try api.upsert(byKey.map { payloads[$0] }, by: idProperty)) }
        }
        if !creates.isEmpty { take(creates, try api.create(creates.map { payloads[$0] })) }

        guard !taken.isEmpty else { return }
        let retaken = taken
        taken = []
        // Contacts not read before: the policies keep every value they would not overwrite.
        take(retaken.map(\.0), try api.update(retaken.map { HubSpotUpdate(id: $0.1, payload: updating(payloads[$0.0], over: nil)) }))
        // Still taken: the lead's values belong to two other contacts at once.
        for (n, id) in taken {
            results[n] = .rejected(reason: "a unique value of this row (email or \(mapping.idProperty ?? "a unique property")) belongs to another contact than \(id) (CONFLICT)")
        }
    }
}
