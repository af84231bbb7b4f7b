import Foundation
import HTTPKit

/// Keeps an OpenAI-compatible endpoint's two limits, requests and tokens, for
/// every request in flight at once.
///
/// Each limit is a bucket that holds `limit` and refills continuously over its window (limit /
/// window a second), as OpenAI describes its limits. A request takes one request and its
/// estimated tokens (its prompt's characters / 4 plus its `max_tokens`: what OpenAI charges when
/// it admits one) before it is sent, waiting until both buckets hold that much. The limits are
/// learnt from the answers' `x-ratelimit-limit-*` headers, and the levels brought down to their
/// `x-ratelimit-remaining-*` (other clients of the same key spend from them too); until the
/// first answer, one request at a time goes. A 429 empties the bucket it names for the
/// `retry-after-ms` (else `retry-after`) it gives, or, without either, until the
/// `x-ratelimit-reset-*` of the limits it left at nothing.
///
/// The window is learnt too, not assumed a minute: `x-ratelimit-reset-*` says
/// how long until the bucket is full again, so it refills `limit − remaining` in that time and
/// the whole `limit` in `limit × reset / (limit − remaining)` seconds. That is a minute for
/// OpenAI's per-minute limits, ten seconds or one for Azure's shorter evaluation windows, and a
/// day for Groq, whose request limit is per day. Until an answer gives a reset, 60 s.
///
/// | header sample | read as |
/// | --- | --- |
/// | OpenAI: limit-requests 60, remaining 59, reset-requests `1s` | window 60 s |
/// | Groq: limit-requests 14400, remaining 14370, reset-requests `2m59.56s` | window ≈ 1 day |
/// | OpenAI: limit-tokens 150000, remaining 149984, reset-tokens `6m0s`; Groq: limit-tokens 18000, remaining 17997, reset-tokens `7.66s` | the window kept (under a thousandth spent: rounding) |
/// | Azure: limit-tokens `-1`, reset-tokens `0` | nothing (no limit stated) |
/// | reset formats `6m0s`, `1s`, `20ms`, `2.5s`, `7.66s`, `1h0m0s`, a bare number of seconds | seconds |
public final class TokenPacer: @unchecked Sendable {
    public struct Bucket: Sendable, Equatable {
        public var limit: Double
        public var level: Double
        /// Holds nothing until then (after a 429).
        public var closedUntil: Double = 0
        /// Seconds in which it refills from nothing to `limit`, learnt from the reset headers.
        public var window: Double = 60

        /// The shortest and longest windows believed.
        static let windows: ClosedRange<Double> = 1...(2 * 86_400)
        /// The least spent, as a share of the limit, that a window is learnt from: below it the
        /// count is within the server's rounding (tokens are estimated when a request is admitted
        /// and corrected later), as in OpenAI's documented sample (16 of 150,000 tokens spent,
        /// `6m0s` to reset) and Groq's (3 of 18,000, `7.66s`).
        static let leastSpent = 0.001

        mutating func refill(_ elapsed: Double) { level = min(limit, level + limit / window * elapsed) }

        /// What one answer says of this limit: its size, what is left, when it is full again.
        mutating func learn(limit: Double, remaining: Double?, reset: Double?) {
            self.limit = limit
            if let remaining { level = min(level, max(0, remaining)) }
            if let remaining, let reset, reset > 0, limit - remaining >= max(1, limit * Self.leastSpent) {
                let learnt = limit * reset / (limit - max(0, remaining))
                if Self.windows.contains(learnt) { window = learnt }
            }
        }
    }

    private let clock: any HTTPClock
    private let lock = NSCondition()
    private var requests: Bucket?
    private var tokens: Bucket?
    private var last: Double
    /// Before the limits are known, the one request allowed in flight.
    private var probing = false

    public init(clock: any HTTPClock = SystemClock()) {
        self.clock = clock
        last = clock.now
    }

    /// The limits as learnt (nil until an answer gave them).
    public var limits: (requests: Bucket?, tokens: Bucket?) { lock.withLock { (requests, tokens) } }

    /// Waits until a request of `cost` tokens may go, and takes it from the buckets. Returns the
    /// seconds waited.
    @discardableResult
    public func acquire(tokens cost: Int) -> Double {
        let started = clock.now
        lock.lock()
        defer { lock.unlock() }
        while true {
            refill()
            let now = clock.now
            if requests == nil && tokens == nil {
                if !probing {
                    probing = true
                    return clock.now - started
                }
                // Until the first answer says the limits, one request at a time.
                lock.unlock()
                clock.sleep(0.02)
                lock.lock()
                continue
            }
            var wait = 0.0
            for bucket in [requests, tokens].compactMap({ $0 }) where bucket.closedUntil > now { wait = max(wait, bucket.closedUntil - now) }
            if wait == 0, let r = requests, r.level < 1 { wait = (1 - r.level) * r.window / r.limit }
            // A request larger than the whole bucket goes once the bucket is full.
            if wait == 0, let t = tokens, t.level < min(Double(cost), t.limit) { wait = (min(Double(cost), t.limit) - t.level) * t.window / t.limit }
            if wait == 0 {
                requests?.level -= 1
                tokens?.level -= Double(cost)
                return clock.now - started
            }
            lock.unlock()
            clock.sleep(min(wait, 1))
            lock.lock()
        }
    }

    /// What an answer's headers say of the limits (any answer, a 429 included).
    public func observe(status: Int, headers: HTTPHeaders) {
        lock.lock()
        defer { lock.unlock() }
        refill()
        probing = false
        func learn(_ bucket: inout Bucket?, _ name: String) {
            guard let limit = headers["x-ratelimit-limit-" + name].flatMap(Double.init), limit > 0 else { return }
            if bucket == nil { bucket = Bucket(limit: limit, level: limit) }
            bucket!.learn(limit: limit, remaining: headers["x-ratelimit-remaining-" + name].flatMap(Double.init),
                          reset: Self.duration(headers["x-ratelimit-reset-" + name]))
        }
        learn(&requests, "requests")
        learn(&tokens, "tokens")
        guard status == 429 else { return }
        let now = clock.now
        if let wait = Self.retryAfter(headers) {
            // The answer says which limit ran out only in its body; both wait, which is what the
            // server asked of this request anyway.
            if var r = requests { r.closedUntil = max(r.closedUntil, now + wait); requests = r }
            if var t = tokens { t.closedUntil = max(t.closedUntil, now + wait); tokens = t }
            return
        }
        // No Retry-After: the limits left at nothing wait for their reset.
        func close(_ bucket: inout Bucket?, _ name: String) {
            guard var b = bucket, b.level < 1, let reset = Self.duration(headers["x-ratelimit-reset-" + name]) else { return }
            b.closedUntil = max(b.closedUntil, now + reset)
            bucket = b
        }
        close(&requests, "requests")
        close(&tokens, "tokens")
    }

    /// Whether a 429 without Retry-After left a limit waiting for its reset, and the longest
    /// window of the limits known (what a quota refusal is backed off for at least otherwise).
    public var resetWait: (closed: Bool, window: Double) {
        lock.withLock {
            let known = [requests, tokens].compactMap { $0 }
            return (known.contains { $0.closedUntil > clock.now }, known.map(\.window).max() ?? 60)
        }
    }

    /// A Go duration as OpenAI and Groq write their resets (`6m0s`, `1s`, `20ms`, `2.5s`,
    /// `1h2m3.5s`), or a bare number of seconds (Azure), in seconds; nil for anything else.
    public static func duration(_ text: String?) -> Double? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Double(text) { return seconds.isFinite && seconds >= 0 ? seconds : nil }
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

    /// `retry-after-ms`, else `retry-after`, in seconds.
    public static func retryAfter(_ headers: HTTPHeaders) -> Double? {
        if let ms = headers["retry-after-ms"].flatMap(Double.init), ms.isFinite, ms >= 0 { return ms / 1000 }
        return retryAfterSeconds(headers["retry-after"])
    }

    private func refill() {
        let now = clock.now
        let elapsed = max(0, now - last)
        last = now
        requests?.refill(elapsed)
        tokens?.refill(elapsed)
    }
}
