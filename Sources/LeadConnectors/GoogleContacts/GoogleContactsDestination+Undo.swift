import Foundation

/// `leadport undo` at Google Contacts: a contact the run created is deleted, and one it updated
/// given back the fields it replaced, each only while its etag is still the
/// one the run left (no one changed it since).
///
/// An update is given back from the fields as the run's history keeps them (the plan's text,
/// `GoogleContactsDestination+Plan`): names as one unstructured name (Google splits it again),
/// emails, phones and nicknames each a value of its own (their labels are not kept), an address
/// as its text in the street line with its type, an organization's name and title, the notes. A
/// field that was empty before is cleared. A campaign label the run added is taken off.
extension GoogleContactsDestination {
    public var undoesUpdates: Bool { true }

    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        try stopping {
            let current = items.isEmpty ? [:] : try api.getContacts(items.map(\.remoteID), personFields: "metadata,memberships")
            var doomed: [String] = []
            var results: [UndoResult] = []
            for item in items {
                guard let person = current[item.remoteID] else {
                    results.append(item.created ? .undone("already gone") : .changedSince("the contact was deleted since"))
                    continue
                }
                guard let version = item.version, person.etag == version else {
                    results.append(.changedSince("the contact changed since LeadPort \(item.created ? "created" : "updated") it (its etag moved on)"))
                    continue
                }
                if item.created {
                    doomed.append(item.remoteID)
                    results.append(.undone("deleted"))
                    continue
                }
                let fields = item.after.keys.filter { $0 != "memberships" }.sorted()
                let label = try item.after["memberships"].flatMap { name in item.before["memberships"] == nil ? try labelHeld(name, by: person) : nil }
                if !dryRun {
                    if !fields.isEmpty { _ = try api.updateContact(item.remoteID, with: Self.person(given: item.before, fields: fields), etag: version, fields: fields) }
                    if let label { try api.removeMembers([item.remoteID], from: label) }
                }
                var given = fields.map { "\($0) \"\(item.before[$0] ?? "")\"" }
                if let name = item.after["memberships"], label != nil { given.append("label \"\(name)\" taken off") }
                results.append(.undone("restored: " + given.joined(separator: ", ")))
            }
            if !dryRun { try api.batchDeleteContacts(doomed) }
            return results
        }
    }

    /// The resource name of the label `name` when `person` is in it.
    private func labelHeld(_ name: String, by person: GooglePerson) throws -> String? {
        guard let group = try cachedLabel(name) ?? api.existingContactGroup(named: name)?.resourceName else { return nil }
        return Self.labels(of: person).contains(group) ? group : nil
    }

    /// A person holding `fields` as the history's text gives them (see above); a field without
    /// a value in `before` is left empty, which clears it.
    static func person(given before: [String: String], fields: [String]) -> GooglePerson {
        var person = GooglePerson()
        func split(_ name: String, _ separator: String) -> [String] {
            (before[name] ?? "").components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        for field in fields {
            switch field {
            case "names":
                person.names = split("names", "; ").map { text in var name = GooglePerson.Name(); name.unstructuredName = text; return name }
            case "nicknames": person.nicknames = split("nicknames", ", ").map(GooglePerson.Value.init)
            case "emailAddresses": person.emailAddresses = split("emailAddresses", ", ").map { GooglePerson.Typed($0) }
            case "phoneNumbers": person.phoneNumbers = split("phoneNumbers", ", ").map { GooglePerson.Phone($0) }
            case "addresses":
                person.addresses = split("addresses", "; ").map { text in
                    var address = GooglePerson.Address()
                    if let colon = text.range(of: ": ") { (address.type, address.streetAddress) = (String(text[..<colon.lowerBound]), String(text[colon.upperBound...])) }
                    else { address.streetAddress = text }
                    return address
                }
            case "organizations":
                person.organizations = split("organizations", "; ").map { text in
                    guard text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) else { return GooglePerson.Organization(name: text) }
                    return GooglePerson.Organization(name: String(text[..<open.lowerBound]), title: String(text[open.upperBound...].dropLast()))
                }
            case "biographies": person.biographies = split("biographies", "\n\n").map { GooglePerson.Biography($0) }
            default: break
            }
        }
        return person
    }
}

extension GoogleContactsAPI {
    /// Deletes contacts (people.batchDeleteContacts, 500 a request).
    public func batchDeleteContacts(_ resourceNames: [String]) throws {
        for start in stride(from: 0, to: resourceNames.count, by: 500) {
            let chunk = Array(resourceNames[start..<min(start + 500, resourceNames.count)])
            let body = try JSONSerialization.data(withJSONObject: ["resourceNames": chunk])
            let response = try write { try call("POST", "/v1/people:batchDeleteContacts", body: body, replayable: true) }
            guard (200..<300).contains(response.status) else { throw failure(response, doing: "deleting \(chunk.count) contacts") }
        }
    }

    /// Takes contacts out of group `group` (`contactGroups.members.modify`).
    public func removeMembers(_ resourceNames: [String], from group: String) throws {
        let body = try JSONSerialization.data(withJSONObject: ["resourceNamesToRemove": resourceNames], options: [.sortedKeys])
        let response = try write { try call("POST", "/v1/\(group)/members:modify", body: body, replayable: true) }
        guard (200..<300).contains(response.status) else { throw failure(response, doing: "taking contacts out of \(group)") }
    }
}
