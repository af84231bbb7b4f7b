import Foundation
import HTTPKit

/// What one write did at Follow Up Boss.
public enum FollowUpBossOutcome: Sendable, Equatable {
    /// 201: the event made a new person.
    case created(FollowUpBossPerson)
    /// 200 to an event: Follow Up Boss matched a person it had (same email, or same phone and
    /// name) and added what was new.
    case matched(FollowUpBossPerson)
    /// 200 to a PUT.
    case updated(FollowUpBossPerson)
    /// 204: the source's lead flow is archived and the event was ignored.
    case skipped(reason: String)
    /// 404: the person id given (an event's `person.id`, a PUT's) is not there (deleted, merged).
    case notFound(personID: Int)
    /// Refused for what it carries (400…): this write only; the error is `.rowRejected`.
    case rejected(FollowUpBossError)
    /// Not sent: an earlier write of the batch stopped the run.
    case notSent

    /// The person's id, when Follow Up Boss answered with one.
    public var personID: Int? {
        switch self {
        case .created(let p), .matched(let p), .updated(let p): return p.id
        default: return nil
        }
    }
}

/// One write of a batch.
public enum FollowUpBossWrite: Sendable, Equatable {
    /// `POST /v1/events`: a new lead (or one Follow Up Boss will match).
    case event(FollowUpBossEvent)
    /// `PUT /v1/people/{id}`: a changed lead; `mergeTags` adds its tags to those the person has.
    case update(personID: Int, person: FollowUpBossPersonPayload, mergeTags: Bool)
}

/// A batch's answers, one per write in order; `stoppedBy` is the run failure that left the
/// rest `.notSent`.
public struct FollowUpBossBatchResult: Sendable, Equatable {
    public var outcomes: [FollowUpBossOutcome]
    public var stoppedBy: FollowUpBossError?
}

/// The Follow Up Boss API (v1) as LeadPort uses it, through one `HTTPClient`:
///
///     RedactedLog (when a log is given) → Retry → RateLimit (`RateLimits.followUpBoss`) → Auth → fail-fast → transport
///
/// - Retry: 429 after exactly `Retry-After`; 5xx, timeouts and dropped connections with
///   backoff (1, 2, 4, 8, 16 s, jittered), for requests that are harmless twice: reads, PUTs,
///   and, through `send`, events Follow Up Boss can match (an email, or a phone with a first
///   and last name). `deliver` sends an event once and settles a lost answer by a look-up.
/// - A connection that cannot be made (refused, DNS, TLS) is not retried: it throws at once.
/// - 401 and 403 throw at once, naming the variable to check.
/// - Every message is scrubbed of the key, the system key and the Basic credentials, even
///   when the server repeats them.
///
/// Thread-safe: several threads may send through one instance, sharing its rate windows.
public final class FollowUpBossAPI: Sendable {
    public let config: FollowUpBossConfig
    public let client: HTTPClient
    let redactor: Redactor
    /// Seconds for one whole request.
    let timeout: Double
    let attempts: Int
    let clock: any HTTPClock

    public init(config: FollowUpBossConfig, transport: any HTTPTransport = CurlTransport(), clock: any HTTPClock = SystemClock(),
                backoff: BackoffPolicy = BackoffPolicy(quotaWindow: 10), timeout: Double = 30, log: (@Sendable (String) -> Void)? = nil,
                onRetry: @escaping @Sendable (Retry.Event) -> Void = { _ in }) {
        self.config = config
        self.timeout = timeout
        attempts = backoff.maxAttempts
        self.clock = clock
        redactor = Redactor(secrets: config.secrets)
        var chain: [any HTTPMiddleware] = []
        if let log { chain.append(RedactedLog(redactor: redactor, clock: clock, log: log)) }
        chain += [Retry(policy: backoff, clock: clock, onRetry: onRetry), RateLimit(.followUpBoss(registered: config.systemKey != nil), clock: clock),
                  config.auth, FollowUpBossFailFast(config: config)]
        client = HTTPClient(transport: transport, chain)
    }

    // MARK: Operations

    /// `GET /v1/me`: the key's user. Run before sending anything, it turns a wrong key or base
    /// URL into one message within seconds.
    public func me() throws -> FollowUpBossUser {
        let response = try perform("GET", "/v1/me")
        guard response.status == 200 else { throw try runFailure(response, doing: "checking the credentials") }
        guard let o = FollowUpBossReading.object(response.body), let id = FollowUpBossReading.int(o["id"]) else { throw unexpected(response, "GET /v1/me") }
        return FollowUpBossUser(id: id, name: o["name"] as? String, email: o["email"] as? String, role: o["role"] as? String)
    }

    /// `POST /v1/events`. Run failures throw; a refusal of this event alone is `.rejected`.
    /// Sent again after a lost answer or a 5xx when `replayable` (by default, when Follow Up
    /// Boss can match the person again); `deliver` looks the person up first instead.
    public func send(_ event: FollowUpBossEvent, replayable: Bool? = nil) throws -> FollowUpBossOutcome {
        let response = try perform("POST", "/v1/events", body: event.canonicalData, replayable: replayable ?? event.person.isIdentifiable)
        switch response.status {
        case 201, 200:
            guard let person = FollowUpBossPerson(FollowUpBossReading.object(response.body)) else { throw unexpected(response, "POST /v1/events") }
            return response.status == 201 ? .created(person) : .matched(person)
        case 204:
            return .skipped(reason: "the lead flow of source \"\(event.source)\" is archived in Follow Up Boss, which ignored the event")
        case 404 where event.person.id != nil:
            return .notFound(personID: event.person.id!)
        default:
            return .rejected(try rejection(response, doing: "the event"))
        }
    }

    /// `PUT /v1/people/{id}`: the fields given replace the person's (lists too), but tags are
    /// added when `mergeTags`; `source` cannot change.
    public func update(personID: Int, with person: FollowUpBossPersonPayload, mergeTags: Bool = true) throws -> FollowUpBossOutcome {
        try put(personID: personID, body: person.canonicalData, query: mergeTags ? [("mergeTags", "true")] : [], doing: "the update of person \(personID)")
    }

    private func put(personID: Int, body: Data, query: [(String, String)], doing what: String) throws -> FollowUpBossOutcome {
        let response = try perform("PUT", "/v1/people/\(personID)", query: query, body: body)
        switch response.status {
        case 200:
            guard let person = FollowUpBossPerson(FollowUpBossReading.object(response.body)) else { throw unexpected(response, "PUT /v1/people/{id}") }
            return .updated(person)
        case 404:
            return .notFound(personID: personID)
        default:
            return .rejected(try rejection(response, doing: what))
        }
    }

    /// Sends the writes in order. A run failure (unreachable, key refused, 5xx or 429 outlasting
    /// the retries) stops the batch: that write and the rest are `.notSent`, and `stoppedBy`
    /// says why; the writes before it keep their answers.
    public func send(_ writes: [FollowUpBossWrite]) -> FollowUpBossBatchResult {
        var outcomes: [FollowUpBossOutcome] = []
        outcomes.reserveCapacity(writes.count)
        for write in writes {
            do {
                switch write {
                case .event(let event): outcomes.append(try send(event))
                case .update(let id, let person, let mergeTags): outcomes.append(try update(personID: id, with: person, mergeTags: mergeTags))
                }
            } catch {
                let stop = error as? FollowUpBossError ?? FollowUpBossError(.unexpectedAnswer, redactor.redact(String(describing: error)))
                outcomes += Array(repeating: .notSent, count: writes.count - outcomes.count)
                return FollowUpBossBatchResult(outcomes: outcomes, stoppedBy: stop)
            }
        }
        return FollowUpBossBatchResult(outcomes: outcomes, stoppedBy: nil)
    }

    /// `GET /v1/people/{id}`; nil when there is no such person (or not yet: new people are
    /// unreachable until assigned).
    public func person(id: Int) throws -> FollowUpBossPerson? {
        let response = try perform("GET", "/v1/people/\(id)")
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw try runFailure(response, doing: "reading person \(id)") }
        guard let person = FollowUpBossPerson(FollowUpBossReading.object(response.body)) else { throw unexpected(response, "GET /v1/people/{id}") }
        return person
    }

    /// `GET /v1/people` filtered (all filters given must hold), newest first, following the
    /// `next` cursor 100 at a time until `atMost` people or the end.
    public func people(email: String? = nil, phone: String? = nil, firstName: String? = nil, lastName: String? = nil, atMost: Int = 100) throws -> [FollowUpBossPerson] {
        var filters = [("email", email), ("phone", phone), ("firstName", firstName), ("lastName", lastName)].compactMap { name, value in value.map { (name, $0) } }
        filters.append(("limit", String(min(100, max(1, atMost)))))
        var found: [FollowUpBossPerson] = []
        var cursor: String?
        repeat {
            let response = try perform("GET", "/v1/people", query: filters + (cursor.map { [("next", $0)] } ?? []))
            guard response.status == 200 else { throw try runFailure(response, doing: "looking people up") }
            guard let o = FollowUpBossReading.object(response.body), let page = o["people"] as? [Any] else { throw unexpected(response, "GET /v1/people") }
            found += page.compactMap { FollowUpBossPerson($0) }
            cursor = ((o["_metadata"] as? [String: Any])?["next"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        } while cursor != nil && found.count < atMost
        return Array(found.prefix(atMost))
    }

    /// `PUT /v1/people/{id}` of `fields` as given, blanks and empty lists included (which clear
    /// what the person holds), tags replaced rather than merged: `leadport undo` giving back
    /// what an update replaced.
    public func restore(personID: Int, fields: [String: FollowUpBossJSON]) throws -> FollowUpBossOutcome {
        try put(personID: personID, body: FollowUpBossJSON.object(fields).canonicalData, query: [], doing: "giving person \(personID) back its values")
    }

    // MARK: Requests

    private func perform(_ method: String, _ path: String, query: [(String, String)] = [], body: Data? = nil, replayable: Bool = true) throws -> HTTPResponse {
        var parts = URLComponents(url: config.baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        parts.path = path
        if !query.isEmpty { parts.percentEncodedQuery = query.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&") }
        guard let url = parts.url else { throw FollowUpBossError(.configuration, "FUB_BASE_URL does not make a URL with \(path)", variable: "FUB_BASE_URL") }
        var headers = HTTPHeaders([("Accept", "application/json"), ("X-System", config.system)])
        if body != nil { headers.add("Content-Type", "application/json") }
        do {
            return try client.send(HTTPRequest(method: method, url: url, headers: headers, body: body, replayable: replayable, timeout: timeout))
        } catch let error as HTTPTransportError {
            throw FollowUpBossError(error.isTransient ? .answerLost : .unreachable, redactor.redact("no answer from Follow Up Boss at \(config.baseURL.absoluteString) (\(method) \(path): \(error))"
                + (replayable ? " after \(attempts) attempts" : "; the request was not sent again, as doing so could make a duplicate") + "; what is unsent stays pending for the next run"))
        }
    }

    /// A query value with everything but unreserved characters percent-encoded (`+` in a phone
    /// number would otherwise read as a space).
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
