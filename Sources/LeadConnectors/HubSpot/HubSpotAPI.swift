import Foundation
import HTTPKit

/// How the HubSpot client paces and retries; the defaults are HubSpot's documented limits for a
/// private app (crm-apis.md §1.3) and the project's backoff (1, 2, 4 … s, 6 attempts).
public struct HubSpotClientPolicy: Sendable {
    public var backoff: BackoffPolicy
    /// Requests per `interval` seconds until HubSpot's headers say otherwise.
    public var burst: Int
    public var interval: Double
    /// Search requests a second (search is outside the ten-second window and sends no headers).
    public var searchPerSecond: Int
    /// Seconds for one whole request.
    public var timeout: Double
    /// Seconds to wait after a 423 Locked.
    public var lockedWait: Double
    /// After a create whose answer was lost: the waits before each search for what it made
    /// (HubSpot's search sees writes some seconds late), 15 s in all (`settleLostCreate`).
    public var settleWaits: [Double]

    public init(backoff: BackoffPolicy = BackoffPolicy(quotaWindow: 10), burst: Int = 100, interval: Double = 10, searchPerSecond: Int = 5, timeout: Double = 30, lockedWait: Double = 2,
                settleWaits: [Double] = [1, 2, 4, 8]) {
        (self.backoff, self.burst, self.interval, self.searchPerSecond, self.timeout, self.lockedWait) = (backoff, burst, interval, searchPerSecond, timeout, lockedWait)
        self.settleWaits = settleWaits
    }
}

/// HubSpot's contacts API (CRM v3) as the destination needs it: batch upsert, create, update and
/// read in batches of at most 100, search by phone and name, the daily budget.
///
/// Every request goes `Retry` → `HubSpotGuard` → `RateLimit` (`RateLimits.hubSpot`) → log → bearer token →
/// transport: paced by HubSpot's own rate-limit headers, 429 and 5xx waited out (a
/// `Retry-After` obeyed), a refused connection or a `DAILY` 429 thrown at once. Every message
/// it throws or returns went through `redactor`, so the token never shows even when HubSpot
/// repeats it. Safe to use from several threads.
public final class HubSpotAPI: @unchecked Sendable {
    /// Inputs per batch request (crm-apis.md §1.3).
    public static let largestBatch = 100

    public let config: HubSpotConfig
    public let redactor: Redactor
    let policy: HubSpotClientPolicy
    let clock: any HTTPClock
    private let client: HTTPClient
    private let limits: RateLimit
    private let lock = NSLock()
    private var usage: HubSpotDailyUsage?
    private var prepared = false

    /// `log` gets one line per attempt (method, URL, status, time), secrets taken out. Without
    /// a `transport`, requests go through libcurl, a request that must not be sent twice on a
    /// connection of its own (`OneShotsOnFreshConnections`). `onRetry` hears of every retry
    /// (for the `batch` progress events).
    public init(config: HubSpotConfig, transport: (any HTTPTransport)? = nil, policy: HubSpotClientPolicy = HubSpotClientPolicy(),
                clock: any HTTPClock = SystemClock(), log: (@Sendable (String) -> Void)? = nil,
                onRetry: @escaping @Sendable (Retry.Event) -> Void = { _ in }) {
        let transport = transport ?? OneShotsOnFreshConnections(pooled: CurlTransport())
        self.config = config
        self.policy = policy
        self.clock = clock
        redactor = Redactor(secrets: config.secrets)
        limits = RateLimit(.hubSpot(burst: policy.burst, interval: policy.interval, searchPerSecond: policy.searchPerSecond), clock: clock)
        var chain: [any HTTPMiddleware] = [Retry(policy: policy.backoff, clock: clock, onRetry: onRetry), HubSpotGuard(clock: clock, lockedWait: policy.lockedWait), limits]
        if let log { chain.append(RedactedLog(redactor: redactor, clock: clock, log: log)) }
        chain.append(Auth(.bearer(config.token)))
        client = HTTPClient(transport: transport, chain)
    }

    // MARK: Daily budget

    /// The account's daily budget, asked of HubSpot (one request) and kept, so that a `DAILY`
    /// stop can say when the count resets. The client asks once by itself before its first
    /// other request; a failure of that first ask (other than credentials, connection or the
    /// limit itself) is ignored.
    public func dailyUsage() throws(HubSpotError) -> HubSpotDailyUsage {
        let answer = try call("GET", "/account-info/v3/api-usage/daily/private-apps", replayable: true, prepare: false)
        guard answer.status == 200, let first = ((answer.json as? [String: Any])?["results"] as? [[String: Any]])?.first,
              let limit = (first["usageLimit"] as? NSNumber)?.intValue, let used = (first["currentUsage"] as? NSNumber)?.intValue
        else {
            throw HubSpotError(.refused(status: answer.status), "HubSpot's daily usage answer was not understood: " + redactor.redact(String(answer.text.prefix(200))))
        }
        let reading = HubSpotDailyUsage(limit: limit, used: used, resetsAt: (first["resetsAt"] as? String).flatMap(Self.date))
        lock.withLock { (usage, prepared) = (reading, true) }
        return reading
    }

    /// Requests left today by the last `X-HubSpot-RateLimit-Daily-Remaining` (nil before any,
    /// and for OAuth tokens, which are not sent it).
    public var dailyRemaining: Int? { limits.reading("daily")?.statedRemaining.map { Int($0) } }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    private func prepareOnce() throws(HubSpotError) {
        guard lock.withLock({ () -> Bool in defer { prepared = true }; return !prepared }) else { return }
        do {
            _ = try dailyUsage()
        } catch {
            switch error.kind {
            case .credentialsRefused, .unreachable, .dailyLimit: throw error
            default: break  // an account without the usage endpoint still takes contacts
            }
        }
    }

    // MARK: Requests

    struct Answer {
        var status: Int
        var json: Any?
        var text: String
    }

    /// One request through the chain. 2xx and other 4xx come back for the caller to read; what
    /// stops the run (no connection, refused credentials, the daily limit, 429 or 5xx after
    /// every retry, a lost answer) is thrown.
    func call(_ method: String, _ path: String, query: [URLQueryItem] = [], body: String? = nil, replayable: Bool, prepare: Bool = true) throws(HubSpotError) -> Answer {
        if prepare { try prepareOnce() }
        var parts = URLComponents(url: config.baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        parts.path = path
        if !query.isEmpty { parts.queryItems = query }
        guard let url = parts.url else { throw HubSpotError(.refused(status: 0), "cannot form a URL for \(path) from HUBSPOT_BASE_URL") }
        var headers = HTTPHeaders([("Accept", "application/json")])
        if body != nil { headers.add("Content-Type", "application/json") }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body.map { Data($0.utf8) }, replayable: replayable, timeout: policy.timeout)
        // `Retry` sends a request again after a 5xx or a lost answer only when it is replayable
        // (after a 429 or 503, always: HubSpot did nothing).
        let tries = replayable ? "after \(policy.backoff.maxAttempts) attempts" : "(not sent again: it could create contacts twice)"
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch let stop as HubSpotGuard.Stop {
            throw stopped(stop)
        } catch let error as HTTPTransportError {
            throw HubSpotError(.answerLost, "no answer from \(config.baseURL.absoluteString) \(tries) (\(redactor.redact(error.description))); "
                               + "a write may or may not have been applied: the rows stay pending for the next run")
        } catch {
            throw HubSpotError(.answerLost, redactor.redact(String(describing: error)))
        }
        let answer = Answer(status: response.status, json: try? JSONSerialization.jsonObject(with: response.body), text: response.text)
        switch response.status {
        case 200..<300:
            return answer
        case 401, 403:
            throw credentialsRefused(answer)
        case 429, 500...:
            throw HubSpotError(.gaveUp(status: response.status), "HubSpot answered \(response.status) \(summary(answer)) \(response.status == 429 || response.status == 503 ? "after \(policy.backoff.maxAttempts) attempts" : tries); "
                               + "the rows stay pending for the next run")
        default:
            return answer
        }
    }

    /// HubSpot's `category` and `message` from an error body, redacted and cut to 300 characters.
    func summary(_ answer: Answer) -> String {
        let object = answer.json as? [String: Any]
        guard let message = object?["message"] as? String else { return "" }
        let category = (object?["category"] as? String) ?? (object?["policyName"] as? String)
        // Redacted before it is cut: a token cut in two is no longer recognised as one (a
        // 401 body repeating a 150-character token past the cut showed its first part).
        return "(" + (category.map { redactor.redact($0) + ": " } ?? "") + String(redactor.redact(message).prefix(300)) + ")"
    }

    private func credentialsRefused(_ answer: Answer) -> HubSpotError {
        let variable = HubSpotConfig.tokenVariable
        let category = (answer.json as? [String: Any])?["category"] as? String
        let advice: String
        switch category {
        case "MISSING_SCOPES":
            advice = "give the private app behind \(variable) the scopes crm.objects.contacts.read and crm.objects.contacts.write"
        case "EXPIRED_AUTHENTICATION":
            advice = "the token in \(variable) has expired: set \(variable) to a current private app access token"
        default:
            advice = "set \(variable) to the access token of a private app in this HubSpot account"
        }
        return HubSpotError(.credentialsRefused, "HubSpot refused the token in \(variable) (\(answer.status) \(summary(answer))): \(advice)")
    }

    private func stopped(_ stop: HubSpotGuard.Stop) -> HubSpotError {
        switch stop {
        case .unreachable(let error):
            return HubSpotError(.unreachable, "cannot reach HubSpot at \(redactor.redact(config.baseURL.absoluteString)) (\(redactor.redact(error.description))): "
                                + "check \(HubSpotConfig.baseURLVariable) and the network; the rows stay pending for the next run")
        case .dailyLimit:
            let known = lock.withLock { usage }
            var when = "at midnight in the HubSpot account's time zone"
            if let resetsAt = known?.resetsAt {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
                when = "at " + formatter.string(from: resetsAt)
            }
            let limit = known.map { " (\($0.limit) requests)" } ?? limits.reading("daily")?.statedLimit.map { " (\(Int($0)) requests)" } ?? ""
            return HubSpotError(.dailyLimit(resetsAt: known?.resetsAt),
                                "the HubSpot account's daily API limit\(limit) is used up; it resets \(when). The unsent rows stay pending: run the import again after that")
        }
    }
}

/// Sends a request that is not replayable on a new connection. libcurl sends a request again by
/// itself when a kept-alive connection it reused closes before any answer ("connection died,
/// retrying a fresh connect"), and HubSpot may have applied the first: measured against the
/// double, a batch create without emails whose answer was dropped made the contact twice. On a
/// new connection libcurl has nothing to retry, and the loss comes back as an error.
struct OneShotsOnFreshConnections: HTTPTransport {
    let pooled: CurlTransport

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try (request.replayable ? pooled : CurlTransport()).send(request)
    }
}
