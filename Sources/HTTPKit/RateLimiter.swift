import Foundation

/// A destination's request budget as a token bucket: `requests` per `interval` seconds, no
/// more than that in any burst. It starts from the budget the destination declares and then
/// follows what the server says about the window it counts:
///
/// | response | what the limiter does |
/// | --- | --- |
/// | `X-RateLimit-Remaining: n` (also `RateLimit-Remaining`, `X-HubSpot-RateLimit-Remaining`) | at most n tokens left in this window |
/// | `X-RateLimit-Reset: s` (seconds, or a Unix time) / `X-HubSpot-RateLimit-Interval-Milliseconds` | the window refills then |
/// | `Retry-After: s` on 429 or 503 | no token until s from now |
/// | none of these | the declared budget alone |
///
/// `acquire` returns how long to wait before sending; the caller sleeps on its clock.
public struct RateLimiter: Sendable {
    public let requests: Double
    public let interval: Double
    private var tokens: Double
    private var updated: Double
    /// No sending before this time (a `Retry-After`, or an emptied server window).
    private var blockedUntil: Double = 0

    public init(requests: Int, per interval: Double, now: Double) {
        self.requests = Double(max(1, requests))
        self.interval = interval
        tokens = Double(max(1, requests))
        updated = now
    }

    private var rate: Double { requests / interval }

    private mutating func refill(_ now: Double) {
        tokens = min(requests, tokens + (now - updated) * rate)
        updated = now
    }

    /// Takes one token: returns 0 when a request may go now, else the seconds to wait (the
    /// token is taken all the same, so the caller sends after waiting).
    public mutating func acquire(now: Double) -> Double {
        refill(now)
        var wait = max(0, blockedUntil - now)
        if tokens >= 1 {
            tokens -= 1
        } else {
            wait = max(wait, (1 - tokens) / rate)
            tokens -= 1
        }
        return wait
    }

    /// Follows a response's rate-limit headers (see the table above).
    public mutating func observe(status: Int, headers: HTTPHeaders, now: Double) {
        refill(now)
        let remaining = ["X-RateLimit-Remaining", "RateLimit-Remaining", "X-HubSpot-RateLimit-Remaining"].lazy.compactMap { headers[$0].flatMap(Double.init) }.first
        var resetIn: Double?
        if let ms = headers["X-HubSpot-RateLimit-Interval-Milliseconds"].flatMap(Double.init) { resetIn = ms / 1000 }
        if let reset = (headers["X-RateLimit-Reset"] ?? headers["RateLimit-Reset"]).flatMap(Double.init) {
            // Small numbers are seconds from now; large ones a Unix time.
            resetIn = reset > 1_000_000_000 ? max(0, reset - Date().timeIntervalSince1970) : reset
        }
        if let remaining {
            tokens = min(tokens, remaining)
            if remaining < 1, let resetIn { blockedUntil = max(blockedUntil, now + resetIn) }
        }
        if status == 429 || status == 503, let after = retryAfterSeconds(headers["Retry-After"]) {
            blockedUntil = max(blockedUntil, now + after)
            tokens = min(tokens, 0)
        }
    }
}
