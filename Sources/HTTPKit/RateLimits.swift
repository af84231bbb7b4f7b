import Foundation

/// How an API writes a time in a header.
public enum HeaderTime: Sendable {
    /// Seconds from now (`30`); an HTTP-date (`Retry-After`'s other form) is read too.
    case seconds
    /// Milliseconds from now (`1500`).
    case milliseconds
    /// The moment, as seconds since 1970.
    case unixTime
    /// Seconds from now when small, a Unix time above 10⁹: `X-RateLimit-Reset` as APIs differ on it.
    case secondsOrUnixTime
    /// A Go duration (`6m0s`, `20ms`, `1h2m3.5s`) or a bare number of seconds.
    case duration

    /// The header's time as seconds from now (`date` the wall-clock now); nil when absent or
    /// not in this form.
    public func seconds(_ text: String?, now date: Date = Date()) -> Double? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let number = Double(text).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        switch self {
        case .seconds: return retryAfterSeconds(text, now: date)
        case .milliseconds: return number.map { $0 / 1000 }
        case .unixTime: return number.map { max(0, $0 - date.timeIntervalSince1970) }
        case .secondsOrUnixTime: return number.map { $0 > 1_000_000_000 ? max(0, $0 - date.timeIntervalSince1970) : $0 }
        case .duration: return number ?? Self.goDuration(text)
        }
    }

    /// `6m0s`, `1s`, `20ms`, `2.5s`, `1h2m3.5s` in seconds; nil for anything else.
    static func goDuration(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("us", 1e-6), ("µs", 1e-6), ("ns", 1e-9), ("h", 3600), ("m", 60), ("s", 1)]
        var total = 0.0
        var rest = Substring(text)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard let value = Double(number), value.isFinite else { return nil }
            rest = rest.dropFirst(number.count)
            guard let (unit, scale) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            total += value * scale
            rest = rest.dropFirst(unit.count)
        }
        return total
    }
}

/// A header naming a time, and how it is written.
public struct TimedHeader: Sendable {
    public var name: String
    public var time: HeaderTime
    public init(_ name: String, _ time: HeaderTime) { (self.name, self.time) = (name, time) }
}

/// The headers in which an API states one window: the first of each list present is read.
public struct RateLimitHeaders: Sendable {
    /// What the reset says.
    public enum Reset: Sendable {
        /// The window's count starts again then: an emptied window waits for it.
        case windowEnds
        /// The bucket is full again then: the refill rate, and so the window's length, is
        /// learnt from it (`limit × reset / spent`).
        case fullAgain
    }

    public var limit: [String]
    public var remaining: [String]
    public var reset: [TimedHeader]
    public var resetMeans: Reset
    /// The window's length (its span).
    public var span: [TimedHeader]

    public init(limit: [String] = [], remaining: [String] = [], reset: [TimedHeader] = [], resetMeans: Reset = .windowEnds, span: [TimedHeader] = []) {
        (self.limit, self.remaining, self.reset, self.resetMeans, self.span) = (limit, remaining, reset, resetMeans, span)
    }

    public static let none = RateLimitHeaders()

    /// The common unprefixed forms, `X-RateLimit-*` and the IETF draft's `RateLimit-*`.
    public static let common = RateLimitHeaders(remaining: ["X-RateLimit-Remaining", "RateLimit-Remaining"],
                                                reset: [TimedHeader("X-RateLimit-Reset", .secondsOrUnixTime), TimedHeader("RateLimit-Reset", .secondsOrUnixTime)])
}

/// One limit an API keeps: `limit` requests (or units of cost) per `span` seconds.
///
/// | kind | counts | a request waits |
/// | --- | --- | --- |
/// | `sliding` | the requests answered in the last `span` s, and those in flight | until the oldest answered leaves the window |
/// | `refilling` | a bucket of `limit` refilled evenly, `limit / span` a second | until the bucket holds what it costs |
/// | `fixed` | what is left of `limit` until the window resets (a daily quota) | until the reset, when the headers give one |
public struct RateWindow: Sendable {
    public enum Kind: Sendable { case sliding, refilling, fixed }

    /// What a refusal (429) without `Retry-After` holds this window back for.
    public enum Refusal: Sendable {
        /// A whole window.
        case span
        /// Until the reset the answer gives, when the window is empty.
        case reset
        /// Nothing: the retry's backoff alone.
        case none
    }

    public var name: String
    public var kind: Kind
    /// Nil: no limit known (none, or not yet stated).
    public var limit: Double?
    public var span: Double
    /// Spends the request's cost (tokens) rather than one.
    public var weighted: Bool
    public var headers: RateLimitHeaders
    public var refusal: Refusal

    public init(_ name: String, _ kind: Kind, limit: Double?, span: Double, weighted: Bool = false, headers: RateLimitHeaders = .none, refusal: Refusal = .none) {
        (self.name, self.kind, self.limit, self.span, self.weighted, self.headers, self.refusal) = (name, kind, limit, span, weighted, headers, refusal)
    }
}

/// An API's limits as `RateLimiter` keeps them: its windows, which of them a request spends
/// from, and how it says to wait. Each API describes its own; HTTPKit names none.
public struct RateLimits: Sendable {
    public var windows: [RateWindow]
    /// The route a request is counted under (Follow Up Boss: `PUT.people`); "" for all alike.
    public var route: @Sendable (HTTPRequest) -> String
    /// The windows a route spends from until an answer names its context; all by default.
    public var windowsOf: @Sendable (String) -> [String]
    /// The header in which an answer names the window that counted it (its context), and the
    /// window for a context not met before.
    public var context: (header: String, window: @Sendable (String) -> RateWindow)?
    /// Where a refusal says how long to wait, the first present read.
    public var retryAfter: [TimedHeader]
    /// The answers whose `Retry-After` holds every window of the request back.
    public var refusals: Set<Int>
    /// Until an answer states a limit, one request at a time (a server whose limits are
    /// learnt, not declared).
    public var oneAtATimeUntilKnown: Bool

    public init(windows: [RateWindow], route: @escaping @Sendable (HTTPRequest) -> String = { _ in "" }, windowsOf: (@Sendable (String) -> [String])? = nil,
                context: (header: String, window: @Sendable (String) -> RateWindow)? = nil, retryAfter: [TimedHeader] = [TimedHeader("Retry-After", .seconds)],
                refusals: Set<Int> = [429], oneAtATimeUntilKnown: Bool = false) {
        let names = windows.map(\.name)
        (self.windows, self.route, self.windowsOf, self.context) = (windows, route, windowsOf ?? { _ in names }, context)
        (self.retryAfter, self.refusals, self.oneAtATimeUntilKnown) = (retryAfter, refusals, oneAtATimeUntilKnown)
    }

    /// A declared budget, `requests` per `interval` seconds in bursts of up to `requests`,
    /// narrowed by the common headers; a 429 or 503 with `Retry-After` holds it back.
    public static func declared(requests: Int, per interval: Double) -> RateLimits {
        RateLimits(windows: [RateWindow("requests", .refilling, limit: Double(max(1, requests)), span: interval, headers: .common)], refusals: [429, 503])
    }

    /// The wait a refusal asks for, in seconds.
    public func retryAfter(_ headers: HTTPHeaders) -> Double? {
        retryAfter.lazy.compactMap { $0.time.seconds(headers[$0.name]) }.first
    }
}
