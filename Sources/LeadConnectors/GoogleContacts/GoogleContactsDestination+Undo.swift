import Foundation

/// `leadport undo` at Google Contacts: a contact the run created is deleted while its etag is
/// still the one LeadPort recorded (no one changed it since). Giving back an update is not
/// done here in this version: such records are listed.
extension GoogleContactsDestination {
    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        try stopping {
            let created = items.filter(\.created).map(\.remoteID)
            let current = created.isEmpty ? [:] : try api.getContacts(created, personFields: "metadata")
            var doomed: [String] = []
            let results: [UndoResult] = items.map { item in
                guard item.created else {
                    return .notUndoable("giving back an update is not done at Google Contacts in this version (the values it replaced: "
                                        + item.before.keys.sorted().map { "\($0) \"\(item.before[$0] ?? "")\"" }.joined(separator: ", ") + ")")
                }
                guard let person = current[item.remoteID] else { return .undone("already gone") }
                guard let version = item.version, person.etag == version else { return .changedSince("the contact changed since LeadPort created it (its etag moved on)") }
                doomed.append(item.remoteID)
                return .undone("deleted")
            }
            if !dryRun { try api.batchDeleteContacts(doomed) }
            return results
        }
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
}
