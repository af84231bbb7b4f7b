import Foundation
import LeadCore

/// Google Contacts' part in a plan (`import --dry-run`, `--plan FILE`, `leadport apply`): each
/// lead's contact as read from Google and as the write would leave it, by the People API's own
/// field names:
///
/// | field | its value in a plan |
/// | --- | --- |
/// | `names` | prefix, given, middle, family and suffix names joined with spaces (the unstructured name when there are none) |
/// | `nicknames`, `emailAddresses`, `phoneNumbers` | the values in the contact's order, joined with ", " |
/// | `addresses` | each as `type: street, extended, city, region, postal code, country code`, joined with "; " |
/// | `organizations` | each name, with its title in brackets, joined with "; " |
/// | `biographies` | the notes, joined with blank lines |
/// | `memberships` | the campaign's label by name: in `before` when the contact has it |
///
/// `clientData` (LeadPort's import key and hash, which the user never sees) and the system
/// group "My contacts" of a create are left out. `prepare` has already matched the new leads
/// against the account's contacts; here each update's contact is read whole (`people:batchGet`,
/// 200 a request) unless `prepare` did for the field policies, and the campaign's label is
/// looked for without being made. Reads only.
extension GoogleContactsDestination {
    public func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? {
        let campaign = labelName
        return try stopping {
            let contacts = try currentContacts(leads)
            // A label not made yet is on no contact: it is made by the first send.
            let label = try campaign.flatMap { name in try cachedLabel(name) ?? api.existingContactGroup(named: name)?.resourceName }
            if let campaign, let label { cacheLabel(campaign, label) }
            return leads.indices.map { k in
                snapshot(&leads[k], contact: leads[k].remoteID.flatMap { contacts[$0] }, campaign: campaign.map { ($0, label) })
            }
        }
    }

    /// The contacts of the leads at Google, whole, by resource name: as `prepare` read them for
    /// the field policies, else read now (a deleted one is absent). What is read of an update's
    /// contact is kept for `send`, as `prepare` keeps it, so that `apply` writes over the etag
    /// and values the plan was checked against.
    private func currentContacts(_ leads: [OutboundLead]) throws -> [String: GooglePerson] {
        var contacts: [String: GooglePerson] = [:]
        var unread: [String] = []
        for lead in leads where lead.action == .update || lead.alreadyThere {
            guard let name = lead.remoteID, contacts[name] == nil, !unread.contains(name) else { continue }
            let seen = peek(name)
            if let current = seen?.current ?? seen?.whole { contacts[name] = current } else if seen?.gone != true { unread.append(name) }
        }
        guard !unread.isEmpty else { return contacts }
        let read = try api.getContacts(unread, personFields: GooglePerson.writtenFields)
        let updated = Set(leads.compactMap { $0.action == .update ? $0.remoteID : nil })
        for name in unread {
            contacts[name] = read[name]
            guard updated.contains(name) else { continue }
            remember(name, read[name].map { Seen(etag: $0.etag, labels: Self.labels(of: $0), current: policy.overwritesAll ? nil : $0) }
                                ?? Seen(etag: nil, labels: [], gone: true))
        }
        return contacts
    }

    /// One lead's snapshot. `contact`: as read (nil: none, or deleted since, and then `send`
    /// creates it). `campaign`: its name and its label's resource name (nil: not made yet).
    /// An update that would change nothing marks the lead `alreadyThere`.
    private func snapshot(_ lead: inout OutboundLead, contact: GooglePerson?, campaign: (name: String, label: String?)?) -> FieldSnapshot {
        let person = Self.person(lead, groups: [])
        var after = Self.fields(of: person)
        after["memberships"] = campaign?.name
        guard let contact else { return FieldSnapshot(before: nil, after: lead.alreadyThere ? [:] : after) }
        var before = Self.fields(of: contact).filter { after[$0.key] != nil }
        if let campaign, let label = campaign.label, Self.labels(of: contact).contains(label) { before["memberships"] = campaign.name }
        // A contact carrying the lead's hash is sent nothing.
        guard !lead.alreadyThere else { return FieldSnapshot(before: before, after: [:]) }
        after = Self.fields(of: updating(person, over: contact))
        after["memberships"] = campaign?.name
        let snapshot = FieldSnapshot(before: before, after: after)
        if lead.action == .update, snapshot.changed.isEmpty { lead.alreadyThere = true }
        return snapshot
    }

    /// A contact's fields as a plan shows them (see the table above); an empty field is absent.
    static func fields(of person: GooglePerson) -> [String: String] {
        func joined<T>(_ items: [T]?, _ separator: String, _ text: (T) -> String?) -> String? {
            let texts = (items ?? []).compactMap(text).filter { !$0.isEmpty }
            return texts.isEmpty ? nil : texts.joined(separator: separator)
        }
        func parts(_ values: [String?], _ separator: String) -> String {
            values.compactMap(GooglePerson.text).joined(separator: separator)
        }
        var fields: [String: String] = [:]
        fields["names"] = joined(person.names, "; ") { name in
            let structured = parts([name.honorificPrefix, name.givenName, name.middleName, name.familyName, name.honorificSuffix], " ")
            return structured.isEmpty ? GooglePerson.text(name.unstructuredName) : structured
        }
        fields["nicknames"] = joined(person.nicknames, ", ") { GooglePerson.text($0.value) }
        fields["emailAddresses"] = joined(person.emailAddresses, ", ") { GooglePerson.text($0.value) }
        fields["phoneNumbers"] = joined(person.phoneNumbers, ", ") { GooglePerson.text($0.value) }
        fields["addresses"] = joined(person.addresses, "; ") { address in
            let text = parts([address.streetAddress, address.extendedAddress, address.city, address.region, address.postalCode, address.countryCode], ", ")
            return address.type.map { $0 + ": " + text } ?? text
        }
        fields["organizations"] = joined(person.organizations, "; ") { organization in
            GooglePerson.text(organization.name).map { name in GooglePerson.text(organization.title).map { name + " (" + $0 + ")" } ?? name }
        }
        fields["biographies"] = joined(person.biographies, "\n\n") { GooglePerson.text($0.value) }
        return fields
    }
}
