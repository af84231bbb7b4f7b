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
            let current = takeRead(leads.compactMap { $0.action == .update ? $0.remoteID : nil })
            for (n, lead) in leads.enumerated() where lead.action == .update {
                payloads[n] = updating(payloads[n], over: lead.remoteID.flatMap { current[$0] })
                if payloads[n].isEmpty { results[n] = .updated(remoteID: lead.remoteID ?? "") }
            }
        }
        var known: [(Int, String)] = []
        var fresh: [Int] = []
        for (n, lead) in leads.enumerated() where results[n] == nil {
            if payloads[n].isEmpty {
                results[n] = .rejected(reason: "nothing to send: the row fills no property HubSpot takes")
            } else if lead.action == .update, let id = lead.remoteID {
                known.append((n, id))
            } else {
                fresh.append(n)
            }
        }
        // A unique value (email, the id property) another contact holds: that contact is the
        // lead's (409 CONFLICT "Existing ID: n"), and gets the lead's values.
        var taken: [(Int, String)] = []
        // Properties HubSpot refused alone (an option its schema lacks, a malformed value): the
        // record is sent again without them, and its report names them.
        var unwritten: [Int: [String]] = [:]
        defer { for (n, notes) in unwritten { results[n] = results[n]?.noting(notes) } }
        /// Puts the answers in `results`, and returns the leads whose contact HubSpot does
        /// not have (404), when `missing` says they are to be written anew. A lead refused for
        /// some of its properties alone is sent again by `call` without them (unless
        /// `--strict-fields`), at most twice.
        @discardableResult
        func send(_ indices: [Int], missing: Bool = false, keys: Set<String>,
                  _ call: ([Int]) throws(HubSpotError) -> [HubSpotWriteResult]) throws(HubSpotError) -> [Int] {
            var notFound: [Int] = []
            var pending = indices
            for round in 0..<3 where !pending.isEmpty {
                let answers = try call(pending)
                var again: [Int] = []
                for (n, answer) in zip(pending, answers) {
                    switch answer {
                    case .created(let id): results[n] = .created(remoteID: id)
                    case .updated(let id): results[n] = .updated(remoteID: id)
                    case .existing(let id): taken.append((n, id))
                    case .rejected(let rejection) where missing && rejection.status == 404: notFound.append(n)
                    case .rejected(let rejection):
                        var without = payloads[n]
                        if !policy.strictFields, round < 2, let refused = rejection.refusedFields(of: payloads[n], keys: keys) {
                            for problem in refused { without[problem.property] = nil }
                            if !without.isEmpty {
                                payloads[n] = without
                                unwritten[n, default: []] += refused.map { "\($0.property) not written: \($0.message)" + ($0.code.map { " (\($0))" } ?? "") }
                                again.append(n)
                                continue
                            }
                        }
                        results[n] = .rejected(reason: rejection.description)
                    }
                }
                pending = again
            }
            return notFound
        }

        // Contacts the ledger (or the search) knows; one deleted or merged away in HubSpot
        // since is written as a new contact below.
        if !known.isEmpty {
            let ids = Dictionary(known, uniquingKeysWith: { a, _ in a })
            let gone = try send(known.map(\.0), missing: true, keys: []) { indices throws(HubSpotError) in
                try api.update(indices.map { HubSpotUpdate(id: ids[$0]!, payload: payloads[$0]) })
            }
            for n in gone { payloads[n] = created[n] }
            fresh += gone
        }
        let byEmail = fresh.filter { payloads[$0].email != nil }
        if !byEmail.isEmpty { try send(byEmail, keys: ["email"]) { indices throws(HubSpotError) in try api.upsert(indices.map { payloads[$0] }, by: "email") } }
        var creates = fresh.filter { payloads[$0].email == nil }
        if let idProperty = mapping.idProperty {
            let byKey = creates.filter { payloads[$0][idProperty] != nil }
            creates.removeAll { payloads[$0][idProperty] != nil }
            if !byKey.isEmpty { try send(byKey, keys: [idProperty]) { indices throws(HubSpotError) in try api.upsert(indices.map { payloads[$0] }, by: idProperty) } }
        }
        if !creates.isEmpty { try send(creates, keys: []) { indices throws(HubSpotError) in try api.create(indices.map { payloads[$0] }) } }

        guard !taken.isEmpty else { return }
        let retaken = taken
        taken = []
        // Contacts not read before: the policies keep every value they would not overwrite.
        let owners = Dictionary(retaken, uniquingKeysWith: { a, _ in a })
        for (n, _) in retaken { payloads[n] = updating(payloads[n], over: nil) }
        try send(retaken.map(\.0), keys: []) { indices throws(HubSpotError) in
            try api.update(indices.map { HubSpotUpdate(id: owners[$0]!, payload: payloads[$0]) })
        }
        // Still taken: the lead's values belong to two other contacts at once.
        for (n, id) in taken {
            results[n] = .rejected(reason: "a unique value of this row (email or \(mapping.idProperty ?? "a unique property")) belongs to another contact than \(id) (CONFLICT)")
        }
    }
}
