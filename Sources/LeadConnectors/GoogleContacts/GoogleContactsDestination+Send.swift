import Foundation
import HTTPKit
import LeadCore

extension GoogleContactsDestination {
    /// Creates the new leads (and those whose contact was deleted in Google since), then
    /// updates the changed ones (200 a request), then labels the updated contacts that lack the
    /// campaign's label. A contact Google refuses is that row's rejection, with the field Google
    /// named; what stops the destination (credentials, quota, an unreachable server) is thrown,
    /// and the leads of this batch go with the next run, which finds those already made by
    /// their import key instead of making them twice.
    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        let leads = Array(leads)
        return try stopping {
            let label = try labelName.map(label(named:))
            let seen = take(leads.compactMap { $0.action == .update ? $0.remoteID : nil })
            var results = [DeliveryResult?](repeating: nil, count: leads.count)
            let creating = leads.indices.filter { k in
                leads[k].action == .create || leads[k].remoteID.map { seen[$0]?.gone ?? false } ?? true
            }
            // Fields Google refused alone: the contact is sent again without them.
            var unwritten: [Int: [String]] = [:]
            if !creating.isEmpty {
                let groups = label.map { [Self.myContacts, $0] } ?? []
                var people = Dictionary(uniqueKeysWithValues: creating.map { ($0, Self.person(leads[$0], groups: groups)) })
                var pending = creating
                for round in 0..<3 where !pending.isEmpty {
                    let created = try api.batchCreateContacts(pending.map { people[$0]! })
                    var again: [Int] = []
                    for (k, result) in zip(pending, created) {
                        switch result {
                        case .created(let resourceName, let etag):
                            results[k] = leads[k].action == .update ? .updated(remoteID: resourceName, version: etag) : .created(remoteID: resourceName, version: etag)
                        case .rejected(let reason):
                            if round < 2, leaveOut(refusedIn: reason, of: &people[k]!, noting: &unwritten[k, default: []]) { again.append(k) } else { results[k] = .rejected(reason: reason) }
                        }
                    }
                    pending = again
                }
                for (k, notes) in unwritten { results[k] = results[k]?.noting(notes) }
            }
            let updating = leads.indices.filter { results[$0] == nil && leads[$0].remoteID != nil }
            for (k, result) in zip(updating, try update(updating.map { leads[$0] }, seen: seen)) { results[k] = result }
            let unlabelled = updating.compactMap { k -> String? in
                guard case .updated(let name, _, _)? = results[k], let label, !(seen[name]?.labels.contains(label) ?? false) else { return nil }
                return name
            }
            if let label, !unlabelled.isEmpty {
                _ = try api.addMembers(unlabelled, to: label)
                // Labelling moved their etags on: the ledger keeps the ones they have now, which
                // `leadport undo` checks before giving the update back.
                let etags = try api.getContacts(unlabelled, personFields: "metadata")
                for k in updating {
                    guard case .updated(let name, _, let unwritten)? = results[k], let etag = etags[name]?.etag else { continue }
                    results[k] = .updated(remoteID: name, version: etag, unwritten: unwritten)
                }
            }
            return .rows(results.map { $0 ?? .failed(reason: "not sent") })
        }
    }

    /// The changed leads' contacts updated, carrying the etags prepare read: in batches of
    /// those that send the same fields (a batch update clears a field of its mask that a
    /// contact leaves out, and a blank must not wipe what is in Google). Google's refusal of a
    /// contact is its row's; what stops the run is thrown.
    private func update(_ leads: [OutboundLead], seen: [String: Seen]) throws -> [DeliveryResult] {
        var results = [DeliveryResult?](repeating: nil, count: leads.count)
        var byMask: [[String]: [Int]] = [:]
        var updates: [Int: GoogleContactsAPI.ContactUpdate] = [:]
        for (k, lead) in leads.enumerated() {
            guard let name = lead.remoteID else { continue }
            let person = updating(Self.person(lead, groups: []), over: seen[name]?.current)
            updates[k] = GoogleContactsAPI.ContactUpdate(resourceName: name, person: person, etag: seen[name]?.etag)
            byMask[person.fieldMask, default: []].append(k)
        }
        for (mask, members) in byMask.sorted(by: { $0.value[0] < $1.value[0] }) {
            let answers = try api.batchUpdateContacts(members.compactMap { updates[$0] }, fields: mask)
            for k in members {
                guard let name = updates[k]?.resourceName else { continue }
                switch answers[name] {
                case .updated(let etag)?: results[k] = .updated(remoteID: name, version: etag)
                case .rejected(let reason)?:
                    var person = updates[k]!.person
                    var notes: [String] = []
                    results[k] = .rejected(reason: reason)
                    guard leaveOut(refusedIn: reason, of: &person, noting: &notes) else { break }
                    // Sent alone, with a mask of what it still holds (a field in the mask that
                    // the person leaves out would be cleared).
                    do {
                        let written = try api.updateContact(name, with: person, etag: nil, fields: person.fieldMask)
                        results[k] = DeliveryResult.updated(remoteID: name, version: written.etag).noting(notes)
                    } catch let error as GoogleContactsError where error.disposition == .rowRejected {
                        results[k] = .rejected(reason: error.message)
                    }
                case .gone?: results[k] = .failed(reason: "\(name) was deleted in Google Contacts while LeadPort updated it; the next run creates it again")
                case .conflict?: results[k] = .failed(reason: "\(name) kept changing while LeadPort updated it; the next run tries again")
                case nil: results[k] = .failed(reason: "Google did not answer for \(name)")
                }
            }
        }
        return results.map { $0 ?? .failed(reason: "not sent") }
    }

    /// Takes out of `person` the field a refusal's reason names (`phoneNumbers[0].value: …`),
    /// noting it, when Google refused only that field and `--strict-fields` is not given; false
    /// otherwise (no field named, or one LeadPort needs: its import key, the labels, the email
    /// contacts are found again by, as Follow Up Boss matches people and HubSpot upserts by it).
    func leaveOut(refusedIn reason: String, of person: inout GooglePerson, noting notes: inout [String]) -> Bool {
        guard !policy.strictFields, let field = reason.split(separator: ":").first.map({ String($0.prefix { $0.isLetter }) }) else { return false }
        switch field {
        case "names": person.names = nil
        case "nicknames": person.nicknames = nil
        case "phoneNumbers": person.phoneNumbers = nil
        case "addresses": person.addresses = nil
        case "organizations": person.organizations = nil
        case "biographies": person.biographies = nil
        case "userDefined": person.userDefined = nil
        default: return false
        }
        notes.append("\(field) not written: \(reason)")
        return true
    }

    /// The label (contact group) named `name`, found or created once a run.
    private func label(named name: String) throws -> String {
        if let known = cachedLabel(name) { return known }
        let group = try api.contactGroup(named: name).resourceName
        cacheLabel(name, group)
        return group
    }
}
