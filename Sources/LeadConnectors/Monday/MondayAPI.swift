import Foundation
import HTTPKit

/// How the monday.com client paces and retries.
public struct MondayClientPolicy: Sendable {
    public var backoff: BackoffPolicy
    /// Requests per `interval` seconds before monday.com says otherwise: its minute limit is
    /// the plan's (from a few hundred queries a minute); 1,000 a minute, and a 429 narrows it.
    public var requests: Int
    public var interval: Double
    /// Seconds for one whole request.
    public var timeout: Double
    /// `LEADPORT_FAIL_AFTER`: seconds of nothing but server errors before the destination stops.
    public var failAfter: Double

    public init(backoff: BackoffPolicy = BackoffPolicy(), requests: Int = 1_000, interval: Double = 60, timeout: Double = 30, failAfter: Double = FailFast.standard) {
        (self.backoff, self.requests, self.interval, self.timeout, self.failAfter) = (backoff, requests, interval, timeout, failAfter)
    }
}

/// monday.com's GraphQL API (`POST /v2`) as the destination needs it: a board's columns, items
/// found by a column's values (`items_page_by_column_values`), `create_item` and
/// `change_multiple_column_values`.
///
/// Every request goes `Retry` → `FailFast` → `RateLimit` → `MondayMinuteLimits` → log →
/// token → transport, all HTTPKit's but the one link that reads monday.com's limit errors.
/// Reads and `change_multiple_column_values` (the same values twice change nothing) are
/// replayable; `create_item` is not, and goes on a connection of its own, so a lost answer
/// comes back as `answerLost` for the destination to settle. Safe to use from several threads.
public final class MondayAPI: @unchecked Sendable {
    public let config: MondayConfig
    public let redactor: Redactor
    let policy: MondayClientPolicy
    private let client: HTTPClient

    public init(config: MondayConfig, policy: MondayClientPolicy = MondayClientPolicy(), transport: (any HTTPTransport)? = nil, clock: any HTTPClock = SystemClock(),
                log: (@Sendable (String) -> Void)? = nil, onRetry: @escaping @Sendable (Retry.Event) -> Void = { _ in }) {
        (self.config, self.policy) = (config, policy)
        redactor = Redactor(secrets: config.secrets)
        var chain: [any HTTPMiddleware] = [Retry(policy: policy.backoff, clock: clock, onRetry: onRetry), FailFast(after: policy.failAfter, clock: clock),
                                           RateLimit(requests: policy.requests, per: policy.interval, clock: clock), MondayMinuteLimits()]
        if let log { chain.append(RedactedLog(redactor: redactor, clock: clock, log: log)) }
        chain.append(Auth(.apiKey(header: "Authorization", value: config.token)))
        client = HTTPClient(transport: transport ?? OneShotsOnFreshConnections(pooled: CurlTransport()), chain)
    }

    /// A GraphQL answer: `data`, and the errors monday.com put beside it (answered with 200).
    struct Answer {
        var data: [String: Any]
        var errors: [MondayGraphQLError]
    }

    /// One GraphQL document with its variables. What stops the destination is thrown; errors
    /// about the document's own fields (a refused column value) come back in `errors`.
    func call(_ query: String, _ variables: [String: Any], replayable: Bool) throws(MondayError) -> Answer {
        let body: Data
        do { body = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables], options: [.sortedKeys]) } catch {
            throw MondayError(.gaveUp, "a request could not be written as JSON: \(error)")
        }
        let headers = HTTPHeaders([("Content-Type", "application/json"), ("Accept", "application/json"), ("API-Version", MondayConfig.apiVersion)])
        let request = HTTPRequest(method: "POST", url: config.endpoint, headers: headers, body: body, replayable: replayable, timeout: policy.timeout)
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch let error as HTTPTransportError where !error.isTransient {
            throw MondayError(.unreachable, "cannot reach monday.com at \(config.baseURL.absoluteString) (\(redactor.redact(error.description))): check \(MondayConfig.baseURLVariable) and the network; the rows stay pending for the next run")
        } catch let error as HTTPTransportError {
            throw MondayError(.answerLost, "no answer from monday.com (\(redactor.redact(error.description))); the write may have been applied")
        } catch {
            throw MondayError(.gaveUp, "monday.com " + redactor.redact(String(describing: error)))
        }
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        let errors = MondayGraphQLError.all(in: json)
        let summary = errors.first.map { " (" + String(redactor.redact($0.description).prefix(300)) + ")" } ?? ""
        switch response.status {
        case 200..<300: break
        case 401, 403: throw credentialsRefused(response.status, summary)
        case 500, 502, 504 where !replayable:
            throw MondayError(.answerLost, "monday.com answered \(response.status)\(summary); the write may have been applied")
        case 429, 500...:
            throw MondayError(.gaveUp, "monday.com answered \(response.status)\(summary) after \(policy.backoff.maxAttempts) attempts; the rows stay pending for the next run")
        default:
            throw MondayError(.gaveUp, "monday.com refused the request with \(response.status)\(summary)")
        }
        if errors.contains(where: \.isUnauthenticated) { throw credentialsRefused(response.status, summary) }
        if errors.contains(where: \.isDailyLimit) {
            throw MondayError(.dailyLimit, "the monday.com account's daily API calls are used up\(summary); they reset at midnight UTC. The unsent rows stay pending: run the import again after that")
        }
        return Answer(data: json?["data"] as? [String: Any] ?? [:], errors: errors.map { MondayGraphQLError(code: $0.code, message: redactor.redact($0.message), retryIn: $0.retryIn) })
    }

    private func credentialsRefused(_ status: Int, _ summary: String) -> MondayError {
        let name = MondayConfig.tokenVariable
        return MondayError(.credentialsRefused, "monday.com refused the token in \(name) (\(status)\(summary)): set \(name) to a current API token of a user who can edit the board")
    }
}
