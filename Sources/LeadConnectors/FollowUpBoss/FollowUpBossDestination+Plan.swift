import Foundation
import LeadCore

/// Follow Up Boss's part in a plan (`import --dry-run`, `--plan FILE`, `leadport apply`): each
/// lead's person as read from Follow Up Boss and as the write would leave it, by the API's own
/// field names:
///
/// | field | its value in a plan |
/// | --- | --- |
/// | `firstName`, `lastName` | the name |
/// | `emails`, `phones` | the values in the person's order (the primary first), joined with ", " |
/// | `addresses` | each as `type: street, city, state, code, country`, joined with "; " |
/// | `tags` | joined with ", "; after an update, the person's tags then the lead's new ones, since the PUT merges tags (`mergeTags=true`) rather than replacing them |
/// | `custom…` | each custom field the mapping names, by its API name |
/// | `source`, `message`, `description` | a create only: the event's source, which the new person keeps, and the note and company line the event puts on the timeline |
///
/// Without a mode or a field policy, `prepare` looks nothing up (Follow Up Boss matches events
/// itself), so here each new lead is looked for as `lookUp` does (email, else phone) and one
/// found becomes a PUT of that person, as `apply` then sends it. Every update's person is read
/// with `GET /v1/people/{id}`, unless `prepare` read it already. Reads only.
extension FollowUpBossDestination {
    public func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? {
        do {
            var snapshots: [FieldSnapshot] = []
            for k in leads.indices { snapshots.append(try snapshot(&leads[k], campaign: tag)) }
            return snapshots
        } catch let error as FollowUpBossError {
            throw Self.stop(error)
        }
    }

    /// One lead's snapshot; a lead whose person already holds everything the PUT would send is
    /// marked `alreadyThere`.
    private func snapshot(_ lead: inout OutboundLead, campaign: String?) throws -> FieldSnapshot {
        var person: FollowUpBossPerson?
        if lead.action == .create {
            // With a mode or a policy that needs it, prepare has looked for it already and not
            // found it.
            if !findsNewLeads, let found = try existing(lead.lead) {
                (lead.remoteID, lead.action, lead.found) = (String(found.id), .update, true)
                person = found
            }
        } else if let id = lead.remoteID.flatMap(Int.init) {
            person = try lock.withLock({ read[id] }) ?? api.person(id: id)
        }
        let event = mapping.event(lead.lead, system: api.config.system, campaign: campaign)
        // No person (never there, or deleted since the ledger recorded it): `deliver` sends the event.
        guard let person else {
            let extra = ["source": event.source, "message": event.message, "description": event.description].compactMapValues { $0 }
            return FieldSnapshot(before: nil, after: Self.fields(of: event.person).merging(extra) { $1 })
        }
        let held = FollowUpBossPersonPayload(holding: person)
        let sent = Self.fields(of: updating(event.person, over: person), taggedOver: person.tags)
        let snapshot = FieldSnapshot(before: Self.fields(of: held).filter { Self.fields(of: event.person)[$0.key] != nil }, after: sent)
        if snapshot.changed.isEmpty {
            lead.alreadyThere = true
        } else if !policy.overwritesAll {
            // For `apply`: the field policies of its PUT weigh what was just read.
            remember(person)
        }
        return snapshot
    }

    /// A person's fields as a plan shows them (see the table above); a blank or empty field is
    /// absent. `taggedOver`: the tags the person holds, which the PUT's tags are merged into.
    static func fields(of person: FollowUpBossPersonPayload, taggedOver held: [String]? = nil) -> [String: String] {
        var fields = person.customFields
        fields["firstName"] = person.firstName
        fields["lastName"] = person.lastName
        fields["emails"] = joined(person.emails.map(\.value), ", ")
        fields["phones"] = joined(person.phones.map(\.value), ", ")
        fields["addresses"] = joined(person.addresses.map(text), "; ")
        if !person.tags.isEmpty {
            let before = held ?? []
            fields["tags"] = joined(before + person.tags.filter { !before.contains($0) }, ", ")
        }
        // A custom field Follow Up Boss holds as "" has no value.
        return fields.filter { FollowUpBossMapping.kept($0.value) != nil }
    }

    private static func joined(_ values: [String], _ separator: String) -> String? {
        values.isEmpty ? nil : values.joined(separator: separator)
    }

    private static func text(_ address: FollowUpBossAddress) -> String {
        let parts = [address.street, address.city, address.state, address.code, address.country].compactMap(FollowUpBossMapping.kept).joined(separator: ", ")
        return address.type.map { $0 + ": " + parts } ?? parts
    }
}

extension FollowUpBossPersonPayload {
    /// What `person` holds of the fields a PUT writes, in the payload's shape (blank names nil).
    init(holding person: FollowUpBossPerson) {
        self.init()
        firstName = FollowUpBossMapping.kept(person.firstName)
        lastName = FollowUpBossMapping.kept(person.lastName)
        (emails, phones, addresses, tags, customFields) = (person.emails, person.phones, person.addresses, person.tags, person.customFields)
    }
}
