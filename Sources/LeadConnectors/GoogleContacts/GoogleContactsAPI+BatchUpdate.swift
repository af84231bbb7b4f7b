import Foundation
import HTTPKit

/// What became of one contact of a batch update.
public enum GoogleContactsUpdateResult: Sendable, Equatable {
    /// Updated: the contact's new etag (nil when Google's answer left it out).
    case updated(etag: String?)
    /// Google refused this contact; the reason names the field (`emailAddresses[0].value: …`).
    case rejected(reason: String)
    /// The contact is gone (deleted in Google Contacts since it was read).
    case gone
    /// Its etag was stale again after every re-read: the contact keeps changing.
    case conflict
}

extension GoogleContactsAPI {
    /// One contact of a batch update: the fields to write and the etag last read (nil: read first).
    public struct ContactUpdate: Sendable {
        public var resourceName: String
        public var person: GooglePerson
        public var etag: String?

        public init(resourceName: String, person: GooglePerson, etag: String?) {
            (self.resourceName, self.person, self.etag) = (resourceName, person, etag)
        }
    }

    /// Updates contacts 200 a request (`people.batchUpdateContacts`), every one of them the
    /// fields `fields` names: a field in the mask that a person leaves out is cleared, so give
    /// one call only contacts that send the same fields.
    ///
    /// Google applies nothing of a batch it refuses, and names each contact at fault
    /// (`BatchUpdateContactsErrorDetails`): a stale etag is read again (one `batchGet` for all
    /// of them, up to `policy.staleEtagRetries` times), a contact refused for its data is
    /// rejected with the field Google names, one that is gone is answered so, and the rest are
    /// sent again. Sending the same update twice changes nothing more, so a lost answer is
    /// simply retried (its etags are then stale, and read again).
    /// - Returns: each contact's result, by resource name.
    /// - Throws: `GoogleContactsError` for what stops the run (credentials, quota, unreachable).
    public func batchUpdateContacts(_ updates: [ContactUpdate], fields: [String]) throws -> [String: GoogleContactsUpdateResult] {
        guard !updates.isEmpty else { return [:] }
        return try write {
            var results: [String: GoogleContactsUpdateResult] = [:]
            var start = 0
            while start < updates.count {
                let end = min(start + Self.largestBatch, updates.count)
                try updateBatch(Array(updates[start..<end]), mask: fields.joined(separator: ","), into: &results)
                start = end
            }
            return results
        }
    }

    private func updateBatch(_ updates: [ContactUpdate], mask: String, into results: inout [String: GoogleContactsUpdateResult]) throws {
        var people: [String: GooglePerson] = [:]
        for update in updates {
            var person = update.person
            person.resourceName = update.resourceName
            person.etag = update.etag
            person.metadata = nil
            people[update.resourceName] = person
        }
        try refreshEtags(people.filter { $0.value.etag == nil }.map(\.key), of: &people, into: &results)
        var stale = 0
        var backoff = Backoff(policy: policy.backoff)
        while !people.isEmpty {
            let body = try GooglePerson.encoder.encode(UpdateRequest(contacts: people, updateMask: mask, readMask: "metadata"))
            let response = try call("POST", "/v1/people:batchUpdateContacts", body: body, replayable: true)
            if (200..<300).contains(response.status) {
                // The new etags, for the ledger (`readMask: metadata` makes Google send them).
                let answered = ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])?["updateResult"] as? [String: Any] ?? [:]
                for name in people.keys {
                    results[name] = .updated(etag: ((answered[name] as? [String: Any])?["person"] as? [String: Any])?["etag"] as? String)
                }
                return
            }
            if waitAfterAbort(response, &backoff) { continue }
            let errors = GoogleErrorBody(response.body).contactErrors.filter { people[$0.key] != nil }
            guard response.status == 400, !errors.isEmpty else { throw failure(response, doing: "updating \(people.count) contacts") }
            var outdated: [String] = []
            for (name, status) in errors {
                switch status["code"] as? Int {
                case 5: results[name] = .gone
                case 9: outdated.append(name)
                default: results[name] = .rejected(reason: redactor.redact(GoogleErrorBody.contactReason(status).text))
                }
                if results[name] != nil { people[name] = nil }
            }
            guard !outdated.isEmpty else { continue }
            stale += 1
            guard stale <= policy.staleEtagRetries else {
                for name in outdated { results[name] = .conflict; people[name] = nil }
                continue
            }
            try refreshEtags(outdated, of: &people, into: &results)
        }
    }

    /// Reads the current etags of `names` into `people`; a contact that is gone leaves the batch.
    private func refreshEtags(_ names: [String], of people: inout [String: GooglePerson], into results: inout [String: GoogleContactsUpdateResult]) throws {
        guard !names.isEmpty else { return }
        let current = try getContacts(names, personFields: "metadata")
        for name in names {
            if let etag = current[name]?.etag {
                people[name]?.etag = etag
            } else {
                results[name] = .gone
                people[name] = nil
            }
        }
    }

    private struct UpdateRequest: Encodable {
        var contacts: [String: GooglePerson]
        var updateMask: String
        var readMask: String
    }
}
