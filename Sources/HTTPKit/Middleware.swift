import Foundation

/// One link of the client's chain: it may change the request, send it on with `next`, look at
/// the response, or send again.
public protocol HTTPMiddleware: Sendable {
    func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse
}

/// A transport behind a chain of middleware values, the first in the list the outermost.
/// `HTTPClient(transport:, [RedactedLog, Retry, RateLimit, Auth])`: every attempt is logged,
/// each retry waits for the limiter, and each carries the credentials.
public struct HTTPClient: Sendable {
    public let transport: any HTTPTransport
    public let middleware: [any HTTPMiddleware]
    private let gate: ConcurrencyGate?

    /// `concurrency` bounds the requests in flight through this client, from any thread.
    public init(transport: any HTTPTransport, _ middleware: [any HTTPMiddleware] = [], concurrency: Int? = nil) {
        self.transport = transport
        self.middleware = middleware
        gate = concurrency.map(ConcurrencyGate.init)
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        gate?.enter()
        defer { gate?.leave() }
        return try run(request, from: 0)
    }

    private func run(_ request: HTTPRequest, from index: Int) throws -> HTTPResponse {
        guard index < middleware.count else { return try transport.send(request) }
        return try middleware[index].send(request) { try run($0, from: index + 1) }
    }
}

/// At most `limit` holders at a time.
final class ConcurrencyGate: @unchecked Sendable {
    private let semaphore: DispatchSemaphore
    init(_ limit: Int) { semaphore = DispatchSemaphore(value: max(1, limit)) }
    func enter() { semaphore.wait() }
    func leave() { semaphore.signal() }
}

/// Credentials on every request.
public struct Auth: HTTPMiddleware {
    public enum Scheme: Sendable {
        /// `Authorization: Bearer TOKEN`.
        case bearer(String)
        /// A header of the API's choosing (`apikey`, `X-API-Key`).
        case apiKey(header: String, value: String)
        /// `Authorization: Basic base64(user:password)` (Follow Up Boss: the key as user, no password).
        case basic(user: String, password: String)
    }

    public let schemes: [Scheme]

    public init(_ schemes: Scheme...) { self.schemes = schemes }

    public func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        var r = request
        for scheme in schemes {
            switch scheme {
            case .bearer(let token): r.headers["Authorization"] = "Bearer " + token
            case .apiKey(let header, let value): r.headers[header] = value
            case .basic(let user, let password): r.headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            }
        }
        return try next(r)
    }

    /// The secret parts, for a `Redactor`.
    public var secrets: [String] {
        schemes.flatMap { scheme -> [String] in
            switch scheme {
            case .bearer(let token): return [token]
            case .apiKey(_, let value): return [value]
            case .basic(let user, let password): return [user, password, Data("\(user):\(password)".utf8).base64EncodedString()].filter { !$0.isEmpty }
            }
        }
    }
}

/// Tries again after 429, 5xx (but 501 and 505), timeouts and dropped connections, waiting as
/// `Backoff` says on the clock, and only when the request is replayable. Each retry is
/// reported to `onRetry` (status or error, attempt, wait) for progress events.
public struct Retry: HTTPMiddleware {
    public struct Event: Sendable {
        public var attempt: Int
        public var status: Int?
        public var error: HTTPTransportError?
        public var wait: Double
        public var retryAfter: Double?

        public init(attempt: Int, status: Int? = nil, error: HTTPTransportError? = nil, wait: Double, retryAfter: Double? = nil) {
            (self.attempt, self.status, self.error, self.wait, self.retryAfter) = (attempt, status, error, wait, retryAfter)
        }
    }

    public let policy: BackoffPolicy
    public let clock: any HTTPClock
    public let onRetry: @Sendable (Event) -> Void
    private let seed: UInt64?

    public init(policy: BackoffPolicy = .standard, clock: any HTTPClock = SystemClock(), seed: UInt64? = nil, onRetry: @escaping @Sendable (Event) -> Void = { _ in }) {
        (self.policy, self.clock, self.seed, self.onRetry) = (policy, clock, seed, onRetry)
    }

    public static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 408 || (status >= 500 && status != 501 && status != 505)
    }

    public func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        var backoff = seed.map { Backoff(policy: policy, seed: $0) } ?? Backoff(policy: policy)
        while true {
            let outcome: Result<HTTPResponse, HTTPTransportError>
            do {
                outcome = .success(try next(request))
            } catch let error as HTTPTransportError {
                outcome = .failure(error)
            }
            var retryAfter: Double?
            var quota = false
            switch outcome {
            case .success(let response):
                guard Self.isRetryable(status: response.status), request.replayable || response.status == 429 || response.status == 503 else { return response }
                retryAfter = retryAfterSeconds(response.headers["Retry-After"])
                quota = response.status == 429
            case .failure(let error):
                // A request whose body the server may already have acted on is sent again only
                // when doing so twice is harmless.
                guard error.isTransient, request.replayable else { throw error }
            }
            switch backoff.failed(retryAfter: retryAfter, quota: quota) {
            case .giveUp:
                return try outcome.get()
            case .retry(let wait):
                let status = try? outcome.get().status
                let error: HTTPTransportError? = { if case .failure(let e) = outcome { return e }; return nil }()
                onRetry(Event(attempt: backoff.attempts, status: status, error: error, wait: wait, retryAfter: retryAfter))
                clock.sleep(wait)
            }
        }
    }
}

/// Paces every request through one shared `RateLimiter`, from every thread that sends through
/// the client, and feeds it each answer. Callers that send by themselves (the OpenAI client)
/// use `acquire` and `complete` around each request.
public final class RateLimit: HTTPMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var limiter: RateLimiter
    private let limits: RateLimits
    private let clock: any HTTPClock

    public init(_ limits: RateLimits, clock: any HTTPClock = SystemClock()) {
        (self.limits, self.clock) = (limits, clock)
        limiter = RateLimiter(limits, now: clock.now)
    }

    /// A declared budget (`RateLimits.declared`).
    public convenience init(requests: Int, per interval: Double, clock: any HTTPClock = SystemClock()) {
        self.init(.declared(requests: requests, per: interval), clock: clock)
    }

    /// Waits on the clock until a request on `route` may go: its grant, and the seconds waited.
    @discardableResult
    public func acquire(route: String = "", cost: Double = 1) -> (grant: RateLimiter.Grant, waited: Double) {
        let started = clock.now
        var (wait, grant) = lock.withLock { limiter.acquire(route: route, cost: cost, now: clock.now) }
        clock.sleep(wait)
        while grant == nil {
            (wait, grant) = lock.withLock { limiter.acquire(route: route, cost: cost, now: clock.now) }
            if grant == nil { clock.sleep(wait) }
        }
        return (grant!, clock.now - started)
    }

    /// The answer to a granted request (`status` nil: none came).
    public func complete(_ grant: RateLimiter.Grant, route: String = "", status: Int?, headers: HTTPHeaders = HTTPHeaders()) {
        lock.withLock { limiter.complete(grant, route: route, status: status, headers: headers, now: clock.now) }
    }

    /// A window as it stands (nil for a name the limits do not know).
    public func reading(_ window: String) -> RateLimiter.Reading? { lock.withLock { limiter.reading(window) } }

    /// Whether a window holds every request back now.
    public var blocked: Bool { lock.withLock { limits.windows.contains { (limiter.reading($0.name)?.blockedUntil ?? 0) > clock.now } } }

    public func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        let route = limits.route(request)
        let (grant, _) = acquire(route: route)
        do {
            let response = try next(request)
            complete(grant, route: route, status: response.status, headers: response.headers)
            return response
        } catch {
            complete(grant, route: route, status: nil)
            throw error
        }
    }
}
