import Crypto
import Foundation
import HTTPKit
import LeadCore

/// `--to followupboss`: a new lead is one `POST /v1/events` (Follow Up Boss routes it, runs its
/// action plans unless the list is historical, and matches it to a person it has by email, or
/// phone and name); a lead the ledger knows and that changed is one `PUT /v1/people/{id}`.
///
/// Follow Up Boss has no batch endpoint: a batch of up to 50 leads is sent one request a lead,
/// `FUB_IN_FLIGHT` (8) requests at a time (one at a time, each 503's backoff idled the
/// whole lane). Each write is answered (or stops the destination) on its own, and nothing
/// confirmed is ever lost with a stop.
public final class FollowUpBossDestination: Destination {
    public static let kind = "followupboss"
    /// One request a lead; the client paces each rate-limit context from its own headers
    /// (`RateLimits.followUpBoss`), so `requests`/`per` only say what the documented table starts at.
    public static let capabilities = DestinationCapabilities(largestBatch: 50, remoteDedupeKeys: ["email"], requests: 250, per: 10, upserts: false)

    public let name = FollowUpBossDestination.kind
    public let ledgerName: String
    public var capabilities: DestinationCapabilities { Self.capabilities }
    public let reconciliation = Reconciliation.lookUp(how: "the person is looked up by email, else phone and names (GET /v1/people); the event is sent again only when nobody is found")
    let api: FollowUpBossAPI
    /// Set by `configure` (before the rows, and not changed after), with the mapping's options.
    var mapping: FollowUpBossMapping
    var policy = DestinationPolicy()
    /// The settings it was opened with, for the mapping's options to be laid over.
    let settings: [String: String]
    let lock = NSLock()
    /// People read by `prepare` for the field policies, by id, until `send` takes them.
    var read: [Int: FollowUpBossPerson] = [:]
    /// Whether `GET /v1/me` has answered: the key is checked once, before the first write.
    private var checked = false
    /// A stop met after part of a slice was confirmed: thrown by the next call.
    private var stopped: DestinationError?

    public init(api: FollowUpBossAPI, mapping: FollowUpBossMapping, settings: [String: String] = [:]) {
        self.api = api
        self.mapping = mapping
        self.settings = settings
        // Every account is reached at the same address: the key tells them apart, so the ledger
        // is per base URL and key (a digest of it, never the key).
        let digest = SHA256.hash(data: Data(api.config.apiKey.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        ledgerName = Self.kind + ":" + api.config.baseURL.absoluteString + "#" + digest
    }

    /// From the settings: a missing or malformed variable is a configuration error (exit 2)
    /// naming it.
    public static func open(settings: Settings, timeout: Double, onRetry: @escaping @Sendable (Retry.Event) -> Void) throws -> FollowUpBossDestination {
        do {
            let config = try FollowUpBossConfig(environment: settings.values)
            // The Basic header's base64 of the key is a secret too; the settings know only the key.
            KnownSecrets.add(config.secrets)
            let mapping = try FollowUpBossMapping(settings: settings.values)
            return FollowUpBossDestination(api: FollowUpBossAPI(config: config, timeout: timeout, onRetry: onRetry), mapping: mapping, settings: settings.values)
        } catch let error as FollowUpBossError {
            throw stop(error)
        }
    }

    /// The error that stops this destination: its settings are to blame (exit 2), or the run
    /// failed (exit 1). The message is the client's, already scrubbed of every secret.
    static func stop(_ error: FollowUpBossError) -> DestinationError {
        DestinationError(destination: kind, message: error.message, disposition: error.disposition)
    }

    /// The name the run files its leads under (`--campaign`), sent as one more tag: Follow Up
    /// Boss has nothing to file them in. Set before the rows, read after.
    private(set) var tag: String?

    public func enter(_ scope: RunScope) throws -> Scope {
        tag = scope.reference
        return Scope(name: scope.reference)
    }

    /// Writes nothing: checks the key once, so that a wrong key or base URL stops the run with
    /// one message before any lead is sent (and in a dry run too). Follow Up Boss dedupes the
    /// events itself, so nothing is looked up, unless the mapping asks for a mode or a field
    /// policy (`lookUp`).
    public func prepare(_ leads: inout [OutboundLead]) throws {
        try checkCredentials()
        guard looksUp else { return }
        do { try lookUp(&leads) } catch let error as FollowUpBossError { throw Self.stop(error) }
    }

    private func checkCredentials() throws {
        if let stopped = lock.withLock({ stopped }) { throw stopped }
        guard !lock.withLock({ checked }) else { return }
        do {
            _ = try api.me()
        } catch let error as FollowUpBossError {
            // An account past its term still takes new leads (403 on everything else): the
            // events go, and an update meeting the 403 stops the run then.
            guard error.kind == .accessDenied else { throw Self.stop(error) }
        }
        lock.withLock { checked = true }
    }

    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        try checkCredentials()
        let leads = Array(leads)
        let campaign = tag
        let answers = Answers(count: leads.count)
        let workers = DispatchGroup()
        // Its state is behind `lock`, and `deliver` is safe from several threads (the client
        // is, and the policies' reads are taken under the lock).
        let destination = Shared(self)
        // As many requests at once, all paced by the one client's rate windows.
        for _ in 0..<min(api.config.inFlight, leads.count) {
            workers.enter()
            Thread.detachNewThread {
                defer { workers.leave() }
                // After a stop, the leads not yet taken are not sent.
                while let n = answers.next() {
                    do {
                        answers.set(n, try destination.value.deliver(leads[n], campaign: campaign))
                    } catch {
                        answers.stop(error as? FollowUpBossError ?? FollowUpBossError(.unexpectedAnswer, destination.value.api.redactor.redact(String(describing: error))))
                    }
                }
            }
        }
        workers.wait()
        guard let error = answers.stoppedBy else { return .rows(answers.results.map { $0! }) }
        // Nothing of this slice was confirmed: stop now, and every lead stays pending.
        let stop = Self.stop(error)
        guard answers.results.contains(where: { $0 != nil }) else { throw stop }
        // Otherwise what was confirmed is returned to be recorded, and the stop comes with the
        // next call.
        lock.withLock { stopped = stop }
        return .rows(answers.results.map { $0 ?? .failed(reason: error.message) })
    }

    /// A slice's answers as its workers fill them in, and the first stop among them.
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = 0
        private(set) var results: [DeliveryResult?]
        private(set) var stoppedBy: FollowUpBossError?

        init(count: Int) { results = Array(repeating: nil, count: count) }

        /// The next lead to send, nil when none is left or a write stopped the destination.
        func next() -> Int? {
            lock.withLock {
                guard stoppedBy == nil, taken < results.count else { return nil }
                defer { taken += 1 }
                return taken
            }
        }

        func set(_ n: Int, _ result: DeliveryResult) { lock.withLock { results[n] = result } }

        func stop(_ error: FollowUpBossError) { lock.withLock { if stoppedBy == nil { stoppedBy = error } } }
    }

    /// The destination handed to the sending threads.
    struct Shared: @unchecked Sendable {
        let value: FollowUpBossDestination
        init(_ value: FollowUpBossDestination) { self.value = value }
    }

    /// One lead's write: a PUT for a lead the ledger knows (an event again when Follow Up Boss
    /// no longer has that person: deleted, or merged into another), else an event. A refusal
    /// naming one field of the person (`Invalid phone: …`) is sent again without that field,
    /// and the field named in the row's reason, unless `--strict-fields`.
    func deliver(_ lead: OutboundLead, campaign: String?) throws -> DeliveryResult {
        var left: [String] = []
        var unwritten: [String] = []
        // What prepare read of the person, for the field policies of every attempt.
        let held = lead.action == .update ? lead.remoteID.flatMap(Int.init).flatMap(takeRead) : nil
        while true {
            let result = try deliver(lead, campaign: campaign, over: held, without: left)
            guard case .rejected = result.outcome, let error = result.refusal, !policy.strictFields, left.count < 3,
                  case .rejected(let field?) = error.kind, !left.contains(field) else {
                return result.outcome.noting(unwritten)
            }
            var person = mapping.person(lead.lead, campaign: campaign)
            guard Self.leaveOut(field, of: &person) else { return result.outcome.noting(unwritten) }
            left.append(field)
            unwritten.append("\(field) not written: \(error.message)")
        }
    }

    /// `person` without the lead field `field`; false when leaving it out is not possible: the
    /// email (what Follow Up Boss matches people by, as HubSpot's upserts are keyed by it), a
    /// phone that is all a person has to be matched by, or no such field.
    static func leaveOut(_ field: String, of person: inout FollowUpBossPersonPayload) -> Bool {
        switch field {
        case "phone" where !person.emails.isEmpty: person.phones = []
        case "first_name": person.firstName = nil
        case "last_name": person.lastName = nil
        case "address": person.addresses = []
        case "tags": person.tags = []
        case let custom where custom.hasPrefix("custom") && person.customFields[custom] != nil: person.customFields[custom] = nil
        default: return false
        }
        return true
    }

    private func deliver(_ lead: OutboundLead, campaign: String?, over held: FollowUpBossPerson?,
                         without left: [String]) throws -> (outcome: DeliveryResult, refusal: FollowUpBossError?) {
        func trimmed(_ person: FollowUpBossPersonPayload) -> FollowUpBossPersonPayload {
            var person = person
            for field in left { _ = Self.leaveOut(field, of: &person) }
            return person
        }
        if lead.action == .update, let id = lead.remoteID.flatMap(Int.init) {
            let person = trimmed(updating(mapping.person(lead.lead, campaign: campaign), over: held))
            // The policies kept every field from this update: nothing to send.
            if person == FollowUpBossPersonPayload() { return (.updated(remoteID: String(id)), nil) }
            switch try api.update(personID: id, with: person, mergeTags: true) {
            case .updated(let person): return (.updated(remoteID: String(person.id)), nil)
            case .rejected(let error): return (.rejected(reason: error.message), error)
            case .notFound: break
            case let other: return (.failed(reason: "Follow Up Boss answered the update of person \(id) with \(other)"), nil)
            }
        }
        var event = mapping.event(lead.lead, system: api.config.system, campaign: campaign)
        event.person = trimmed(event.person)
        switch try api.deliver(event) {
        case .created(let person):
            return (.created(remoteID: String(person.id)), nil)
        case .matched(let person):
            // Follow Up Boss had this person (same email, or phone and name) and added what
            // was new: an update, whatever the ledger knew, and said (a lead whose email
            // changed in the list is matched so).
            return (.updated(remoteID: String(person.id)).noting(["matched by Follow Up Boss to person \(person.id) it had (the same email, or phone and name)"]), nil)
        case .skipped(let reason):
            // The engine's answers have no "skipped": a rejection, so that it is reported with
            // the reason and not recorded; once the lead flow is restored, a rerun sends it.
            return (.rejected(reason: "skipped: " + reason), nil)
        case .rejected(let error):
            return (.rejected(reason: error.message), error)
        case let other:
            return (.failed(reason: "Follow Up Boss answered the event with \(other)"), nil)
        }
    }

    /// The hash of the person as sent: exactly the bytes of the update's body (`PUT
    /// /v1/people/{id}`), which are also the event's `person`. The event's envelope (type,
    /// source, system, `occurredAt`) is left out, as the webhook's is: it says how the lead
    /// first arrived, a PUT cannot change it, and a new source or a list made historical must
    /// not make every lead an update. So are its message and description (the notes, the
    /// company): Follow Up Boss keeps them on the event in the timeline, and no person field
    /// holds them for an update to change.
    public var encoder: @Sendable (Lead) -> Encoded {
        { [mapping, tag] lead in
            Encoded(hash: SHA256.hash(data: mapping.person(lead, campaign: tag).canonicalData).prefix(16).map { String(format: "%02x", $0) }.joined())
        }
    }
}
