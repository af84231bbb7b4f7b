import Foundation
import HTTPKit

extension GoogleContactsAPI {
    private struct CreateRequest: Encodable {
        struct Contact: Encodable { var contactPerson: GooglePerson }
        var contacts: [Contact]
        var readMask = "metadata"
    }

    private struct CreateAnswer: Decodable {
        struct Created: Decodable { var person: GooglePerson? }
        var createdPeople: [Created]?
    }

    /// Creates contacts, 200 a request (`people.batchCreateContacts`), and answers for each in
    /// order.
    ///
    /// Google creates nothing of a batch it refuses: a batch with bad contacts comes back with
    /// one error per bad contact (`BatchCreateContactsErrorDetails`), those are rejected with
    /// the field Google names, and the rest are sent again. Google dedupes nothing either, so a
    /// create whose answer is lost (the connection dropped, a timeout, 500, 502, 504) is never
    /// simply sent again: after the backoff the account's contacts are listed, the contacts
    /// found there (by import key, email or phone) count as created, and only the others are
    /// sent. A contact with none of those three cannot be found so; give every contact its
    /// import key.
    /// - Throws: `GoogleContactsError` for what stops the run (credentials, quota, unreachable).
    public func batchCreateContacts(_ people: [GooglePerson]) throws -> [GoogleContactsCreateResult] {
        try write {
            var results: [GoogleContactsCreateResult] = []
            var start = 0
            while start < people.count {
                let end = min(start + Self.largestBatch, people.count)
                results += try createBatch(Array(people[start..<end]))
                start = end
            }
            return results
        }
    }

    private func createBatch(_ people: [GooglePerson]) throws -> [GoogleContactsCreateResult] {
        var results = [GoogleContactsCreateResult?](repeating: nil, count: people.count)
        var pending = Array(people.indices)
        var backoff = Backoff(policy: policy.backoff)
        while !pending.isEmpty {
            let body = try GooglePerson.encoder.encode(CreateRequest(contacts: pending.map { CreateRequest.Contact(contactPerson: people[$0]) }))
            let response: HTTPResponse
            do {
                // Not replayable: `Retry` sends it again only after a 429 or 503, which Google
                // answers before acting.
                response = try call("POST", "/v1/people:batchCreateContacts", body: body, replayable: false)
            } catch let error as HTTPTransportError {
                try reconcile(&pending, &results, people, backoff: &backoff, after: redactor.redact(error.description), status: nil)
                continue
            }
            switch response.status {
            case 200..<300:
                let created = try decode(CreateAnswer.self, response, doing: "creating contacts").createdPeople ?? []
                guard created.count == pending.count else {
                    throw GoogleContactsError(.serverFailed(status: response.status), "Google answered \(created.count) contacts created for \(pending.count) sent", status: response.status)
                }
                for (k, answer) in zip(pending, created) {
                    guard let name = answer.person?.resourceName else {
                        throw GoogleContactsError(.serverFailed(status: response.status), "Google answered a created contact without its resource name", status: response.status)
                    }
                    results[k] = .created(resourceName: name, etag: answer.person?.etag)
                }
                pending = []
            case 400:
                pending = try reject(response, pending, &results)
            case 500, 502, 504:
                try reconcile(&pending, &results, people, backoff: &backoff, after: "\(response.status)", status: response.status)
            case 409 where waitAfterAbort(response, &backoff):
                continue
            default:
                throw failure(response, doing: "creating contacts")
            }
        }
        return results.map { $0! }
    }

    /// Rejects the contacts a 400 names and returns the others, to be sent again. A refusal that
    /// names no contact rejects the whole batch with its reason.
    private func reject(_ response: HTTPResponse, _ pending: [Int], _ results: inout [GoogleContactsCreateResult?]) throws -> [Int] {
        let body = GoogleErrorBody(response.body)
        var refused: [Int: String] = [:]
        for (key, status) in body.contactErrors {
            guard let k = Int(key), pending.indices.contains(k) else { continue }
            refused[k] = GoogleErrorBody.contactReason(status).text
        }
        // A parse error names its contact only in the path (`contacts[3].contact_person.names`).
        for violation in body.fieldViolations {
            guard let k = Self.batchIndex(violation.field), pending.indices.contains(k), refused[k] == nil else { continue }
            refused[k] = GoogleErrorBody.shortField(violation.field) + ": " + violation.description
        }
        if refused.isEmpty {
            let reason = failure(response, doing: "creating contacts").message
            for k in pending { results[k] = .rejected(reason: reason) }
            return []
        }
        for (k, reason) in refused { results[pending[k]] = .rejected(reason: redactor.redact(reason)) }
        return pending.enumerated().filter { refused[$0.offset] == nil }.map(\.element)
    }

    /// Whether `response` is Google refusing a write because another was in flight for the
    /// account (409 `ABORTED`: another program, or another LeadPort run, writing as the same
    /// user): nothing was applied, so after the backoff's wait it is sent again. False when it
    /// is something else, or the backoff gives up.
    func waitAfterAbort(_ response: HTTPResponse, _ backoff: inout Backoff) -> Bool {
        guard response.status == 409, GoogleErrorBody(response.body).status == "ABORTED", case .retry(let wait) = backoff.failed() else { return false }
        clock.sleep(wait)
        return true
    }

    /// N in a path starting `contacts[N]`.
    static func batchIndex(_ path: String) -> Int? {
        guard path.hasPrefix("contacts["), let close = path.firstIndex(of: "]") else { return nil }
        return Int(path[path.index(path.startIndex, offsetBy: 9)..<close])
    }

    /// After a create whose answer was lost: waits as the backoff says, lists the account, and
    /// takes the contacts found there out of `pending` as created.
    private func reconcile(_ pending: inout [Int], _ results: inout [GoogleContactsCreateResult?], _ people: [GooglePerson], backoff: inout Backoff,
                           after what: String, status: Int?) throws {
        guard case .retry(let wait) = backoff.failed() else {
            throw GoogleContactsError(.serverFailed(status: status), "creating contacts kept failing (\(what)) after \(backoff.attempts) attempts; a rerun finds what was made and sends the rest", status: status)
        }
        clock.sleep(wait)
        let index = try contactIndex()
        for k in pending {
            if let found = index.match(people[k]), let name = found.resourceName { results[k] = .created(resourceName: name, etag: found.etag) }
        }
        pending.removeAll { results[$0] != nil }
    }

    /// Updates the fields `fields` names (by default those `person` holds, so a blank never
    /// wipes a remote value) of contact `resourceName` (`people.updateContact`), carrying `etag`
    /// (read first when nil). A stale etag — the contact changed since it was read — is read
    /// again and the update sent again, up to `policy.staleEtagRetries` times. Sending the same
    /// update twice changes nothing more, so lost answers are simply retried.
    /// - Returns: the contact as updated, with its new etag.
    public func updateContact(_ resourceName: String, with person: GooglePerson, etag: String?, fields: [String]? = nil) throws -> GooglePerson {
        let mask = (fields ?? person.fieldMask).joined(separator: ",")
        guard !mask.isEmpty else { return try getContact(resourceName, personFields: "metadata") }
        return try write {
            var current = try etag ?? getContact(resourceName, personFields: "metadata").etag
            var stale = 0
            var backoff = Backoff(policy: policy.backoff)
            while true {
                var body = person
                body.resourceName = resourceName
                body.etag = current
                body.metadata = nil
                let response = try call("PATCH", "/v1/\(resourceName):updateContact", query: [("updatePersonFields", mask), ("personFields", GooglePerson.writtenFields)],
                                        body: body.canonicalJSON, replayable: true)
                if (200..<300).contains(response.status) { return try decode(GooglePerson.self, response, doing: "updating \(resourceName)") }
                if waitAfterAbort(response, &backoff) { continue }
                guard response.status == 400, GoogleErrorBody(response.body).status == "FAILED_PRECONDITION" else {
                    throw failure(response, doing: "updating \(resourceName)")
                }
                stale += 1
                guard stale <= policy.staleEtagRetries else {
                    throw GoogleContactsError(.conflict, "\(resourceName) kept changing while LeadPort updated it (\(stale) stale etags); a rerun tries again", status: 400)
                }
                current = try getContact(resourceName, personFields: "metadata").etag
            }
        }
    }

    // MARK: Contact groups

    private struct GroupsPage: GooglePage {
        var contactGroups: [GoogleContactGroup]?
        var nextPageToken: String?
        var items: [GoogleContactGroup] { contactGroups ?? [] }
    }

    /// Every contact group of the account, system groups included.
    public func contactGroups() throws -> [GoogleContactGroup] {
        try all(GroupsPage.self, "/v1/contactGroups", query: [("pageSize", "1000")], doing: "listing the contact groups")
    }

    /// The user's group (label) named `name`, if there is one: reads only.
    public func existingContactGroup(named name: String) throws -> GoogleContactGroup? {
        try contactGroups().first { $0.groupType == "USER_CONTACT_GROUP" && $0.name == name }
    }

    /// The user's group (label) named `name`, created when there is none. A create whose answer
    /// is lost, or that finds the name taken (409), looks again instead of creating twice; so
    /// does one answered 500, 502 or 504 (which Google may send after making the group), after
    /// the backoff's wait, before it is sent again.
    public func contactGroup(named name: String) throws -> GoogleContactGroup {
        func existing() throws -> GoogleContactGroup? { try existingContactGroup(named: name) }
        if let group = try existing() { return group }
        return try write {
            let body = try JSONSerialization.data(withJSONObject: ["contactGroup": ["name": name]], options: [.sortedKeys])
            var backoff = Backoff(policy: policy.backoff)
            while true {
                do {
                    let response = try call("POST", "/v1/contactGroups", body: body, replayable: false)
                    if response.status == 409, let group = try existing() { return group }
                    if [500, 502, 504].contains(response.status), case .retry(let wait) = backoff.failed() {
                        clock.sleep(wait)
                        if let group = try existing() { return group }
                        continue
                    }
                    return try decode(GoogleContactGroup.self, response, doing: "creating the group \(name)")
                } catch let error as HTTPTransportError {
                    if let group = try existing() { return group }
                    throw GoogleContactsError(.serverFailed(status: nil), "creating the group \(name) failed: \(redactor.redact(error.description))")
                }
            }
        }
    }

    private struct ModifyAnswer: Decodable {
        var notFoundResourceNames: [String]?
    }

    /// Adds contacts to group `group` (`contactGroups.members.modify`, 1,000 a request; adding
    /// a member twice changes nothing, so lost answers are retried).
    /// - Returns: the resource names Google did not find.
    public func addMembers(_ resourceNames: [String], to group: String) throws -> [String] {
        try write {
            var notFound: [String] = []
            var start = 0
            while start < resourceNames.count {
                let end = min(start + 1000, resourceNames.count)
                let body = try JSONSerialization.data(withJSONObject: ["resourceNamesToAdd": Array(resourceNames[start..<end])], options: [.sortedKeys])
                let answer = try decode(ModifyAnswer.self, call("POST", "/v1/\(group)/members:modify", body: body, replayable: true), doing: "adding contacts to \(group)")
                notFound += answer.notFoundResourceNames ?? []
                start = end
            }
            return notFound
        }
    }
}
