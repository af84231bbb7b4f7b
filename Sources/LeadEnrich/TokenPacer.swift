import Foundation
import HTTPKit

/// Keeps an OpenAI-compatible endpoint's two per-minute limits, requests and tokens (issue 14
/// item 4), for every request in flight at once.
///
/// Each limit is a bucket that holds a minute's worth and refills continuously (limit / 60 a
/// second), as OpenAI describes its limits. A request takes one request and its estimated
/// tokens (its prompt's characters / 4 plus its `max_tokens`: what OpenAI charges when it admits
/// one) before it is sent, waiting until both buckets hold that much. The limits are learnt from
/// the answers' `x-ratelimit-limit-*` headers, and the levels brought down to their
/// `x-ratelimit-remaining-*` (other clients of the same key spend from them too); until the
/// first answer, one request at a time goes. A 429 empties the bucket it names for the
/// `retry-after-ms` (else `retry-after`) it gives, so no request in flight is sent into it.
public final class TokenPacer: @unchecked Sendable {
    public struct Bucket: Sendable, Equatable {
        public var limit: Double
        public var level: Double
        /// Holds nothing until then (after a 429).
        public var closedUntil: Double = 0

        mutating func refill(_ elapsed: Double) { level = min(limit, level + limit / 60 * elapsed) }
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
            if wait == 0, let r = requests, r.level < 1 { wait = (1 - r.level) * 60 / r.limit }
            // A request larger than the whole bucket goes once the bucket is full.
            if wait == 0, let t = tokens, t.level < min(Double(cost), t.limit) { wait = (min(Double(cost), t.limit) - t.level) * 60 / t.limit }
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
        func learn(_ bucket: inout Bucket?, limit: String, remaining: String) {
            guard let limit = headers[limit].flatMap(Double.init), limit > 0 else { return }
            if bucket == nil { bucket = Bucket(limit: limit, level: limit) }
            bucket!.limit = limit
            if let remaining = headers[remaining].flatMap(Double.init) { bucket!.level = min(bucket!.level, remaining) }
        }
        learn(&requests, limit: "x-ratelimit-limit-requests", remaining: "x-ratelimit-remaining-requests")
        learn(&tokens, limit: "x-ratelimit-limit-tokens", remaining: "x-ratelimit-remaining-tokens")
        guard status == 429, let wait = Self.retryAfter(headers) else { return }
        let until = clock.now + wait
        // The answer says which limit ran out only in its body; both wait, which is what the
        // server asked of this request anyway.
        if var r = requests { r.closedUntil = max(r.closedUntil, until); requests = r }
        if var t = tokens { t.closedUntil = max(t.closedUntil, until); tokens = t }
    }

    /// Gives back what a request took but was not charged for (refused before it was admitted).
    public func refund(tokens cost: Int) {
        lock.withLock {
            guard var t = tokens else { return }
            t.level = min(t.limit, t.level + Double(cost))
            tokens = t
        }
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
