import Foundation
import HTTPKit

/// The People API (crm-apis.md §3) for `--to google-contacts`: the reads and writes the
/// destination needs, each a typed call, with no lead logic.
///
/// Every request goes through one `HTTPClient`:
///
///     [RedactedLog?, Retry, RateLimit (`RateLimits.googleContacts`), GoogleOAuth, GoogleFailFast] → transport
///
/// | what happens | what the client does |
/// | --- | --- |
/// | any write | one at a time per client (Google: "mutate requests for the same user should be sent sequentially"), evenly spaced at 95% of `policy.writes` per `policy.per` s |
/// | any read | at 95% of `policy.reads` per `policy.per` s, in bursts of up to `policy.reads` (Google sends no rate-limit headers to follow) |
/// | a create | on a connection of its own: libcurl silently sends a request again on a new connection when a kept-alive one dies before the answer, which for a create is a duplicate contact |
/// | 429 or 503 with `Retry-After` | waits exactly that, then again |
/// | 429 without (quota) | backoff with jitter until the quota's minute has passed (`BackoffPolicy.quotaWindow`, 60 s), never given up inside it |
/// | 5xx, timeout, lost answer | backoff with jitter (`policy.backoff`); a create only after looking for what it may have made |
/// | 429 of the daily quota | stops at once (`.quotaExhausted(daily: true)`) |
/// | connection refused, DNS, TLS | stops at once (`.unreachable`), no retries |
/// | 401 | a new access token, and the request once more; a second 401 stops (`.credentialsRefused`) |
/// | `invalid_grant` from the token endpoint | stops: sign in again (`.signInAgain`) |
///
/// Every message it throws is scrubbed of the client secret, the refresh token and every access
/// token it was given, even when the server repeats them.
public final class GoogleContactsAPI: @unchecked Sendable {
    /// The client's numbers. Google's quotas are per user per minute and set per project in the
    /// Cloud console (90 critical writes and reads a minute are the usual defaults, §3.5).
    public struct Policy: Sendable {
        public var backoff: BackoffPolicy
        public var writes: Int
        public var reads: Int
        public var per: Double
        /// Seconds for one whole request.
        public var timeout: Double
        /// An access token is replaced this many seconds before it expires.
        public var refreshMargin: Double
        /// How often a stale etag is re-read and the update sent again.
        public var staleEtagRetries: Int
        /// Contacts per page of a connections listing (1–1000).
        public var pageSize: Int

        public init(backoff: BackoffPolicy = .standard, writes: Int = 90, reads: Int = 90, per: Double = 60, timeout: Double = 30,
                    refreshMargin: Double = 60, staleEtagRetries: Int = 3, pageSize: Int = 1000) {
            (self.backoff, self.writes, self.reads, self.per, self.timeout) = (backoff, writes, reads, per, timeout)
            (self.refreshMargin, self.staleEtagRetries, self.pageSize) = (refreshMargin, staleEtagRetries, pageSize)
        }

        public static let standard = Policy()
    }

    /// Contacts per `batchCreateContacts` request (Google refuses more).
    public static let largestBatch = 200

    public let config: GoogleContactsConfig
    public let policy: Policy
    let client: HTTPClient
    let token: GoogleAccessToken
    let clock: any HTTPClock
    /// Held for a whole write, retries and look-ups included: one write in flight per account.
    let writeLock = NSRecursiveLock()
    private let stateLock = NSLock()
    /// Whether searches see the writes made so far (a warm-up since the last write).
    private var searchWarm = false

    /// - Parameters:
    ///   - transport: `CurlTransport` unless given.
    ///   - log: every request, redacted, with its status and time.
    ///   - onRetry: each retry (status or error, attempt, wait), for progress events.
    public init(config: GoogleContactsConfig, policy: Policy = .standard, transport: (any HTTPTransport)? = nil, clock: any HTTPClock = SystemClock(),
                log: (@Sendable (String) -> Void)? = nil, onRetry: @escaping @Sendable (Retry.Event) -> Void = { _ in }) {
        self.config = config
        self.policy = policy
        self.clock = clock
        let transport = transport ?? GoogleTransport()
        let logged: [any HTTPMiddleware] = log.map { [RedactedLog(redactor: Redactor(secrets: Self.variants(config.secrets)), clock: clock, log: $0)] } ?? []
        let tokenClient = HTTPClient(transport: transport, logged + [Retry(policy: policy.backoff, clock: clock, onRetry: onRetry), GoogleFailFast(variable: "GOOGLE_TOKEN_URL")])
        token = GoogleAccessToken(config: config, client: tokenClient, clock: clock, margin: policy.refreshMargin, timeout: policy.timeout)
        let pacing = RateLimit(.googleContacts(policy), clock: clock)
        client = HTTPClient(transport: transport, logged + [Retry(policy: policy.backoff, clock: clock, onRetry: onRetry), pacing, GoogleOAuth(token: token),
                                                            GoogleFailFast(variable: "GOOGLE_PEOPLE_BASE_URL")])
    }

    /// Scrubs every secret this client holds (the configuration's and each access token issued).
    public var redactor: Redactor { Redactor(secrets: Self.variants(token.secrets)) }

    /// Each secret as written and as a form or query would encode it.
    static func variants(_ secrets: [String]) -> [String] {
        secrets.flatMap { [$0, GoogleAccessToken.formEncode($0)] }
    }

    /// Gets an access token now, so that wrong credentials stop the run before any lead is read.
    public func checkCredentials() throws { _ = try token.current() }

    // MARK: Requests

    func call(_ method: String, _ path: String, query: [(String, String)] = [], body: Data? = nil, replayable: Bool = true) throws -> HTTPResponse {
        var text = config.baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty { text += "?" + query.map { "\($0.0)=\(GoogleAccessToken.formEncode($0.1))" }.joined(separator: "&") }
        guard let url = URL(string: text) else { throw GoogleContactsError(.configuration(variable: "GOOGLE_PEOPLE_BASE_URL"), "GOOGLE_PEOPLE_BASE_URL makes no URL with \(path)") }
        var headers = HTTPHeaders([("Accept", "application/json")])
        if body != nil { headers.add("Content-Type", "application/json; charset=utf-8") }
        return try client.send(HTTPRequest(method: method, url: url, headers: headers, body: body, replayable: replayable, timeout: policy.timeout))
    }

    /// A 2xx answer decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, doing what: String) throws -> T {
        guard (200..<300).contains(response.status) else { throw failure(response, doing: what) }
        do {
            return try JSONDecoder().decode(T.self, from: response.body.isEmpty ? Data("{}".utf8) : response.body)
        } catch {
            throw GoogleContactsError(.serverFailed(status: response.status), "Google's answer to \(what) could not be read: \(redactor.redact(String(response.text.prefix(200))))", status: response.status)
        }
    }

    /// What a non-2xx answer means for the run, scrubbed.
    func failure(_ response: HTTPResponse, doing what: String) -> GoogleContactsError {
        let body = GoogleErrorBody(response.body)
        let said = redactor.redact(body.summary.isEmpty ? String(response.text.prefix(200)) : body.summary)
        let status = response.status
        switch status {
        case 401:
            return GoogleContactsError(.credentialsRefused(variable: "GOOGLE_REFRESH_TOKEN"), "Google refused the access token for \(what) even after a refresh (\(said)): check GOOGLE_REFRESH_TOKEN, or sign in again with `leadport auth google`", status: status)
        case 403 where body.reason == "ACCESS_TOKEN_SCOPE_INSUFFICIENT":
            return GoogleContactsError(.credentialsRefused(variable: "GOOGLE_REFRESH_TOKEN"), "GOOGLE_REFRESH_TOKEN was granted without the contacts scope, so Google refused \(what): sign in again with `leadport auth google`", status: status)
        case 403:
            return GoogleContactsError(.credentialsRefused(variable: "GOOGLE_CLIENT_ID"), "Google refused \(what) (\(said)): enable the People API for the project of GOOGLE_CLIENT_ID", status: status)
        case 429:
            return GoogleContactsError(.quotaExhausted(daily: false), "Google's per-minute quota kept refusing \(what) for longer than its window (\(Int(policy.backoff.quotaWindow)) s) (\(said)); a rerun sends the rest", status: status)
        case 404:
            return GoogleContactsError(.notFound, "Google has no such contact or group for \(what) (\(said))", status: status)
        case 400:
            let field = body.fieldViolations.first.map { GoogleErrorBody.shortField($0.field) }
            return GoogleContactsError(.rejected(field: field), "Google refused \(what): \(said)", status: status)
        default:
            return GoogleContactsError(.serverFailed(status: status), "Google kept failing \(what) (\(status) \(said)); a rerun sends the rest", status: status)
        }
    }

    /// Runs a write alone (no other write of this client in flight) and marks the search cache cold.
    func write<T>(_ body: () throws -> T) throws -> T {
        writeLock.lock()
        defer {
            stateLock.withLock { searchWarm = false }
            writeLock.unlock()
        }
        return try body()
    }

    // MARK: Reads

    private struct ConnectionsPage: GooglePage {
        var connections: [GooglePerson]?
        var nextPageToken: String?
        var items: [GooglePerson] { connections ?? [] }
    }

    /// Every item of a paged listing, following `nextPageToken`.
    func all<Page: GooglePage>(_ page: Page.Type, _ path: String, query: [(String, String)], doing what: String) throws -> [Page.Item] {
        var items: [Page.Item] = []
        var pageToken: String?
        repeat {
            let answer = try decode(Page.self, call("GET", path, query: query + (pageToken.map { [("pageToken", $0)] } ?? [])), doing: what)
            items += answer.items
            pageToken = answer.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        } while pageToken != nil
        return items
    }

    /// Every contact of the account (`people.connections.list`), page by page.
    /// - Parameter personFields: the fields to read (by default every field LeadPort writes).
    public func listConnections(personFields: String = GooglePerson.writtenFields) throws -> [GooglePerson] {
        try all(ConnectionsPage.self, "/v1/people/me/connections", query: [("personFields", personFields), ("pageSize", String(policy.pageSize))], doing: "listing the contacts")
    }

    /// The account's contacts as an index for matching leads (one listing).
    public func contactIndex() throws -> GoogleContactsIndex {
        GoogleContactsIndex(try listConnections(personFields: "clientData,emailAddresses,phoneNumbers"))
    }

    /// One contact with the given fields.
    public func getContact(_ resourceName: String, personFields: String = GooglePerson.writtenFields) throws -> GooglePerson {
        try decode(GooglePerson.self, call("GET", "/v1/" + resourceName, query: [("personFields", personFields)]), doing: "reading \(resourceName)")
    }

    private struct BatchGetAnswer: Decodable {
        struct Response: Decodable {
            var requestedResourceName: String?
            var person: GooglePerson?
        }
        var responses: [Response]?
    }

    /// Many contacts by resource name (`people.getBatchGet`, 200 a request): one read where
    /// `getContact` would take one each. A contact that is gone (deleted since) is absent from
    /// the answer.
    public func getContacts(_ resourceNames: [String], personFields: String = GooglePerson.writtenFields) throws -> [String: GooglePerson] {
        var found: [String: GooglePerson] = [:]
        var start = 0
        while start < resourceNames.count {
            let end = min(start + Self.largestBatch, resourceNames.count)
            let query = resourceNames[start..<end].map { ("resourceNames", $0) } + [("personFields", personFields)]
            let answer = try decode(BatchGetAnswer.self, call("GET", "/v1/people:batchGet", query: query), doing: "reading \(end - start) contacts")
            for response in answer.responses ?? [] {
                guard let person = response.person, let name = person.resourceName ?? response.requestedResourceName else { continue }
                found[name] = person
            }
            start = end
        }
        return found
    }

    private struct SearchAnswer: Decodable {
        struct Result: Decodable { var person: GooglePerson? }
        var results: [Result]?
    }

    /// `people.searchContacts`: contacts whose names, emails, phones or organizations start with
    /// `query` (at most 30). Sends the warm-up Google asks for (an empty query) first whenever a
    /// write has been made since the last one. Search lags writes by a few seconds in Google.
    public func searchContacts(_ query: String, pageSize: Int = 30, readMask: String = GooglePerson.writtenFields) throws -> [GooglePerson] {
        if !stateLock.withLock({ searchWarm }) {
            _ = try decode(SearchAnswer.self, call("GET", "/v1/people:searchContacts", query: [("query", ""), ("readMask", readMask)]), doing: "warming up search")
            stateLock.withLock { searchWarm = true }
        }
        let answer = try decode(SearchAnswer.self, call("GET", "/v1/people:searchContacts", query: [("query", query), ("readMask", readMask), ("pageSize", String(min(30, max(1, pageSize))))]),
                                doing: "searching the contacts")
        return (answer.results ?? []).compactMap(\.person)
    }

    /// The existing contact `person` would duplicate, found by search (its emails, then its
    /// phones), or nil: for a few leads, cheaper than listing every contact.
    public func findContact(like person: GooglePerson) throws -> GooglePerson? {
        let queries = (person.emailAddresses ?? []).map(\.value) + (person.phoneNumbers ?? []).compactMap { GoogleContactsIndex.phone($0.value) }
        for query in queries {
            if let found = GoogleContactsIndex(try searchContacts(query)).match(person) { return found }
        }
        return nil
    }
}

/// `CurlTransport`, but a request that must not be sent twice (a create) goes on a handle of its
/// own, closed after it: libcurl sends a request again by itself when a reused connection turns
/// out dead before any answer (docs/http.md), and the double showed that a create whose
/// connection dropped after Google applied it was then applied twice. A fresh connection is
/// never retried so; the lost answer surfaces, and `batchCreateContacts` looks before resending.
struct GoogleTransport: HTTPTransport {
    let shared = CurlTransport()

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try (request.replayable ? shared : CurlTransport()).send(request)
    }
}

/// One page of a listing.
protocol GooglePage: Decodable {
    associatedtype Item
    var items: [Item] { get }
    var nextPageToken: String? { get }
}
