import Foundation
import HTTPKit
import LeadCore

extension GoogleContactsDestination {
    /// Creates the new leads (and those whose contact was deleted in Google since), then
    /// updates the changed ones one at a time, then labels the updated contacts that lack the
    /// campaign's label. A contact Google refuses is that row's rejection, with the field Google
    /// named; what stops the destination (credentials, quota, an unreachable server) is thrown,
    /// and the leads of this batch go with the next run, which finds those already made by
    /// their import key instead of making them twice.
    public func send(_ leads: ArraySlice<OutboundLead>, campaign: String?, user: String) throws -> BatchAnswer {
        let leads = Array(leads)
        return try stopping {
            let label = try campaign.map(label(named:))
            let seen = take(leads.compactMap { $0.action == .update ? $0.contactID : nil })
            var results = [DeliveryResult?](repeating: nil, count: leads.count)
            let creating = leads.indices.filter { k in
                leads[k].action == .create || leads[k].contactID.map { seen[$0]?.gone ?? false } ?? true
            }
            if !creating.isEmpty {
                let groups = label.map { [Self.myContacts, $0] } ?? []
                let created = try api.batchCreateContacts(creating.map { Self.person(leads[$0], groups: groups) })
                for (k, result) in zip(creating, created) {
                    switch result {
                    case .created(let resourceName, _):
                        results[k] = leads[k].action == .update ? .updated(remoteID: resourceName) : .created(remoteID: resourceName)
                    case .rejected(let reason):
                        results[k] = .rejected(reason: reason)
                    }
                }
            }
            var unlabelled: [String] = []
            for k in leads.indices where results[k] == nil {
                guard let resourceName = leads[k].contactID else { continue }
                results[k] = try update(leads[k], resourceName, etag: seen[resourceName]?.etag)
                if case .updated? = results[k], let label, !(seen[resourceName]?.labels.contains(label) ?? false) { unlabelled.append(resourceName) }
            }
            if let label, !unlabelled.isEmpty { _ = try api.addMembers(unlabelled, to: label) }
            return .rows(results.map { $0 ?? .failed(reason: "not sent") })
        }
    }

    /// One contact's update, carrying `etag` (read by prepare). Google's refusal of this
    /// contact is the row's; what stops the run is thrown.
    private func update(_ lead: OutboundLead, _ resourceName: String, etag: String?) throws -> DeliveryResult {
        let person = Self.person(lead, groups: [])
        do {
            _ = try api.updateContact(resourceName, with: person, etag: etag, fields: person.fieldMask)
            return .updated(remoteID: resourceName)
        } catch let error as GoogleContactsError where error.disposition == .rowRejected {
            switch error.kind {
            case .notFound:
                return .failed(reason: "\(resourceName) was deleted in Google Contacts while LeadPort updated it; the next run creates it again")
            case .conflict:
                return .failed(reason: error.message)
            default:
                return .rejected(reason: error.message)
            }
        }
    }

    /// The label (contact group) named `name`, found or created once a run.
    private func label(named name: String) throws -> String {
        if let known = cachedLabel(name) { return known }
        let group = try api.contactGroup(named: name).resourceName
        cacheLabel(name, group)
        return group
    }
}
