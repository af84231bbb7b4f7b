import Crypto
import Foundation
import HTTPKit
import LeadCore

/// `--to google-contacts`: each lead as a contact of the signed-in Google
/// account, through `GoogleContactsAPI` (which paces, retries, refreshes the token and keeps
/// writes one at a time).
///
/// Google dedupes nothing, so nothing is created before it is looked for:
///
/// | stage | what happens |
/// | --- | --- |
/// | `prepare`, new leads | the account's contacts are listed once a run (import keys, emails, phones, labels). A lead whose contact is there (by LeadPort's import key, an email, or a phone of a contact that is no other lead's) becomes an update of it, or is left alone when that contact carries the lead's content hash (a run killed before it recorded, a lost ledger) |
/// | `prepare`, known leads | their contacts read, 200 a request (`batchGet`): the current etag and labels; one deleted in Google since is created again |
/// | `send`, new | `batchCreateContacts`, 200 a request, in "My contacts" and the campaign's label |
/// | `send`, changed | `batchUpdateContacts`, 200 a request of leads sending the same fields, with the etags just read (stale ones are read again and those contacts resent), then the label added, in one request, to those without it |
///
/// Updates name only the fields the lead has (a blank never wipes what is in Google) and never
/// `memberships` (the contact keeps the labels the user gave it).
public final class GoogleContactsDestination: Destination {
    /// 200 contacts a batch (Google's limit); writes are paced by the client, not the engine.
    public static let capabilities = DestinationCapabilities(largestBatch: GoogleContactsAPI.largestBatch, requests: 90, per: 60, upserts: false)
    /// The `clientData` key of the content hash each contact carries beside its import key.
    static let hashKey = "leadport.hash"
    static let myContacts = "contactGroups/myContacts"
    /// What prepare reads of a contact (the etag comes with any field).
    static let indexFields = "clientData,emailAddresses,memberships,names,phoneNumbers"

    public let name = "google-contacts"
    public let ledgerName: String
    public var capabilities: DestinationCapabilities { Self.capabilities }
    public let reconciliation = Reconciliation.lookUp(how: "the account's contacts are listed and found by LeadPort's key in clientData; only those not found are created again")
    let api: GoogleContactsAPI

    /// A contact as prepare last read it, for send.
    struct Seen {
        var etag: String?
        var labels: Set<String>
        var gone = false
        /// The contact's fields, read when the field policies need them.
        var current: GooglePerson?
        /// The contact's fields as read, for the history `leadport undo` gives an update back from.
        var whole: GooglePerson?
    }

    /// Set by `configure`, before the rows.
    var policy = DestinationPolicy()

    private let lock = NSLock()
    /// The account's contacts, listed at the first batch with new leads.
    private var index: GoogleContactsIndex?
    private var seen: [String: Seen] = [:]
    /// Contact → the key of the lead matched to it this run.
    private var claimed: [String: String] = [:]
    /// Campaign name → its label's resource name.
    private var labels: [String: String] = [:]

    public init(api: GoogleContactsAPI) {
        self.api = api
        // One ledger per server and account: the refresh token stands for the account (signing
        // in again starts a new ledger, and the first run finds its contacts by their keys).
        let config = api.config
        let digest = SHA256.hash(data: Data([config.baseURL.absoluteString, config.clientID, config.refreshToken].joined(separator: "\n").utf8))
        ledgerName = "google-contacts#" + digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The name the run files its contacts under (`--campaign`), as a label (a contact group):
    /// Google Contacts has nothing else to file them in. Set before the rows, read after.
    private(set) var labelName: String?

    public func enter(_ scope: RunScope) throws -> Scope {
        labelName = scope.reference
        return Scope(name: scope.reference)
    }

    // MARK: Prepare

    public func prepare(_ leads: inout [OutboundLead]) throws {
        try stopping {
            var matched: Set<String> = []
            if leads.contains(where: { $0.action == .create }) {
                let index = try contactIndex()
                for k in leads.indices where leads[k].action == .create {
                    guard let (found, rekeyed) = Self.existing(leads[k], in: index), let resourceName = found.resourceName,
                          claim(resourceName, for: leads[k].key) else { continue }
                    (leads[k].remoteID, leads[k].found) = (resourceName, true)
                    if rekeyed { leads[k].matched = "matched by phone and name to Google contact \(resourceName): its dedupe key changed" }
                    if found.clientData?.first(where: { $0.key == Self.hashKey })?.value == leads[k].hash {
                        leads[k].alreadyThere = true
                    } else {
                        leads[k].action = .update
                        matched.insert(resourceName)
                        remember(resourceName, Seen(etag: found.etag, labels: Self.labels(of: found)))
                    }
                }
            }
            // The field policies need what each contact holds: every update's contact is read
            // whole, the matched ones again.
            let whole = !policy.overwritesAll
            let known = leads.compactMap { $0.action == .update ? $0.remoteID : nil }.filter { whole || !matched.contains($0) }
            guard !known.isEmpty else { return }
            // Whole in any case: what an update replaces is kept for `leadport undo`.
            let read = try api.getContacts(known, personFields: GooglePerson.writtenFields)
            for resourceName in known {
                remember(resourceName, read[resourceName].map { Seen(etag: $0.etag, labels: Self.labels(of: $0), current: whole ? $0 : nil, whole: $0) }
                                       ?? Seen(etag: nil, labels: [], gone: true))
            }
        }
    }

    /// Whether `contact` may be `key`'s: a contact matched by email or phone is one lead's in a
    /// run, so that two leads sharing a number do not both write one contact.
    private func claim(_ contact: String, for key: String) -> Bool {
        lock.withLock {
            if let owner = claimed[contact] { return owner == key }
            claimed[contact] = key
            return true
        }
    }

    private func contactIndex() throws -> GoogleContactsIndex {
        if let index = lock.withLock({ index }) { return index }
        let listed = GoogleContactsIndex(try api.listConnections(personFields: Self.indexFields))
        lock.withLock { index = listed }
        return listed
    }

    /// The contact `lead` is already, if any. A key or an email names one person; a phone may
    /// be a household's, so it names a contact that is another lead's of LeadPort's, or has an
    /// email the lead's would contradict, only when the names are the same too: the lead's
    /// key (its email) changed in the list since (`rekeyed`).
    static func existing(_ lead: OutboundLead, in index: GoogleContactsIndex) -> (contact: GooglePerson, rekeyed: Bool)? {
        let probe = GooglePerson(lead: lead.lead, importKey: lead.key)
        guard let (contact, by) = index.find(probe) else { return nil }
        guard by == .phone else { return (contact, false) }
        let anotherLeads = contact.importKey.map { $0 != lead.key } ?? false
        let otherEmail = probe.emailAddresses != nil && !(contact.emailAddresses ?? []).isEmpty
        guard anotherLeads || otherEmail else { return (contact, false) }
        return sameName(probe, contact) ? (contact, true) : nil
    }

    /// Whether two people have the same given and family names (in any case), both given.
    static func sameName(_ a: GooglePerson, _ b: GooglePerson) -> Bool {
        func parts(_ p: GooglePerson) -> (String, String)? {
            guard let name = p.names?.first, let given = name.givenName, let family = name.familyName, !given.isEmpty, !family.isEmpty else { return nil }
            return (given.lowercased(), family.lowercased())
        }
        guard let x = parts(a), let y = parts(b) else { return false }
        return x == y
    }

    static func labels(of person: GooglePerson) -> Set<String> {
        Set((person.memberships ?? []).compactMap(\.contactGroupMembership.contactGroupResourceName))
    }

    func remember(_ resourceName: String, _ contact: Seen) {
        lock.withLock { seen[resourceName] = contact }
    }

    /// What prepare read of a contact, left for send (a plan's look at it).
    func peek(_ resourceName: String) -> Seen? { lock.withLock { seen[resourceName] } }

    /// What prepare read of these contacts, forgotten as it is taken.
    func take(_ resourceNames: [String]) -> [String: Seen] {
        lock.withLock {
            var taken: [String: Seen] = [:]
            for name in resourceNames { taken[name] = seen.removeValue(forKey: name) }
            return taken
        }
    }

    func cachedLabel(_ name: String) -> String? { lock.withLock { labels[name] } }

    func cacheLabel(_ name: String, _ resourceName: String) { lock.withLock { labels[name] = resourceName } }

    // MARK: Payload

    /// The contact a lead becomes, as hashed: its fields, and the campaign's label by name
    /// (`GooglePerson.init(lead:)` has the field mapping). What is sent adds the import key
    /// and this hash (`clientData`, fixed for the ledger entry and derived from the rest) and
    /// puts the label's resource name for its name (one per name in an account).
    static func content(_ lead: Lead, campaign: String?) -> GooglePerson {
        GooglePerson(lead: lead, contactGroups: campaign.map { [$0] } ?? [])
    }

    public var encoder: @Sendable (Lead) -> Encoded {
        { [labelName] lead in
            var h = FNV64()
            h.mix(String(decoding: Self.content(lead, campaign: labelName).canonicalJSON, as: UTF8.self))
            return Encoded(hash: String(h.value, radix: 16))
        }
    }

    /// What is sent for `lead`: with `groups` on a create, without memberships on an update.
    static func person(_ lead: OutboundLead, groups: [String]) -> GooglePerson {
        var person = GooglePerson(lead: lead.lead, importKey: lead.key, contactGroups: groups)
        person.clientData = (person.clientData ?? []) + [GooglePerson.KeyValue(key: hashKey, value: lead.hash)]
        return person
    }

    // MARK: Errors

    /// Runs `body`, turning what stops the destination into a `DestinationError`: a setting
    /// that is wrong is a configuration error (exit 2), the rest stop the run (exit 1) with what
    /// was not sent left for the next.
    func stopping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GoogleContactsError {
            if error.disposition == .usage { throw DestinationError(destination: name, message: error.message, disposition: .usage) }
            throw DestinationError(destination: name, message: error.message + "; nothing more is sent to it, and what was not sent goes with the next run")
        } catch let error as HTTPTransportError {
            throw DestinationError(destination: name, message: "no answer from Google (\(api.redactor.redact(error.description))); what was not sent goes with the next run")
        }
    }
}
