import Foundation

/// When to try a failed request again: truncated exponential backoff with full jitter, and a
/// server's `Retry-After` obeyed over it.
///
/// | attempt that failed | wait before the next (before jitter) |
/// | --- | --- |
/// | 1 | `base` (1 s) |
/// | 2 | `base × factor` (2 s) |
/// | 3 | 4 s |
/// | n | `min(cap, base × factor^(n-1))` (cap 60 s) |
/// | `maxAttempts` (6) | give up, unless a quota is still inside its window (below) |
///
/// A quota refusal (429 without `Retry-After`) is not given up inside the quota's window: a
/// per-minute quota refuses until its minute ends, which six attempts in about 30 s never
/// reached. Its backoff goes on, on the same schedule, until the waits since
/// the first refusal add up to `quotaWindow`; the last wait is cut so that the next attempt is
/// the first one after the window. Only an attempt refused after the window has passed, and
/// after `maxAttempts`, gives up. The windows, per API:
///
/// | API | quota refusal without `Retry-After` | `quotaWindow` |
/// | --- | --- | --- |
/// | Google People | 429 `RESOURCE_EXHAUSTED` (per-minute per-user quotas, crm-apis.md §3.5) | 60 s |
/// | HubSpot | 429 `TEN_SECONDLY_ROLLING` (burst per 10 s, §1.3) | 10 s |
/// | Follow Up Boss | 429 always has `Retry-After` (sliding 10 s window, §2.5) | 10 s |
/// | webhook, Supabase, others | unknown | 60 s |
/// | OpenAI-compatible | learnt from `x-ratelimit-reset-*` (`RateLimits.openAI`) | — |
///
/// With jitter the wait is drawn uniformly from [wait/2, wait] ("equal jitter"), so clients
/// that failed together do not come back together, and no wait is shorter than half the
/// schedule. A `Retry-After` from the server replaces the drawn wait (no jitter: the server
/// asked for that time), unless it exceeds `longestRetryAfter`, when the request gives up
/// instead of blocking the run for hours.
public struct BackoffPolicy: Sendable, Equatable {
    public var base: Double = 1
    public var factor: Double = 2
    public var cap: Double = 60
    /// Attempts in all, the first included.
    public var maxAttempts: Int = 6
    public var jitter: Bool = true
    public var longestRetryAfter: Double = 900
    /// Seconds a quota refusal is backed off for at least, whatever `maxAttempts` says.
    public var quotaWindow: Double = 60

    public init(base: Double = 1, factor: Double = 2, cap: Double = 60, maxAttempts: Int = 6, jitter: Bool = true, longestRetryAfter: Double = 900,
                quotaWindow: Double = 60) {
        (self.base, self.factor, self.cap, self.maxAttempts, self.jitter, self.longestRetryAfter) = (base, factor, cap, maxAttempts, jitter, longestRetryAfter)
        self.quotaWindow = quotaWindow
    }

    public static let standard = BackoffPolicy()
}

/// One request's retry state.
public struct Backoff: Sendable {
    public enum Decision: Sendable, Equatable {
        case retry(after: Double)
        case giveUp
    }

    public let policy: BackoffPolicy
    /// Attempts made so far.
    public private(set) var attempts = 0
    /// Seconds waited since the first quota refusal (nil before one).
    public private(set) var quotaWaited: Double?
    private var random: SplitMix

    public init(policy: BackoffPolicy = .standard, seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.policy = policy
        random = SplitMix(seed: seed)
    }

    /// Records a failed attempt and says what to do next. `retryAfter` is the server's
    /// `Retry-After` in seconds, when it sent one; `quota` says the refusal was a quota's (a
    /// 429), which without `retryAfter` is backed off until `policy.quotaWindow` has passed.
    public mutating func failed(retryAfter: Double? = nil, quota: Bool = false) -> Decision {
        attempts += 1
        let inWindow = quota && retryAfter == nil && (quotaWaited ?? 0) < policy.quotaWindow
        if quota && retryAfter == nil && quotaWaited == nil { quotaWaited = 0 }
        guard attempts < policy.maxAttempts || inWindow else { return .giveUp }
        if let retryAfter {
            return retryAfter <= policy.longestRetryAfter ? .retry(after: max(0, retryAfter)) : .giveUp
        }
        var wait = min(policy.cap, policy.base * pow(policy.factor, Double(min(attempts - 1, 60))))
        if policy.jitter {
            let unit = Double(random.next() >> 11) / Double(1 << 53)  // [0, 1)
            wait = wait / 2 + unit * wait / 2
        }
        if inWindow, let waited = quotaWaited {
            // No further than just past the window: the next attempt is its first one after.
            wait = min(wait, policy.quotaWindow - waited + min(policy.base, 1))
            quotaWaited = waited + wait
        }
        return .retry(after: wait)
    }
}

/// `Retry-After` as seconds from now: delay-seconds (`120`) or an HTTP-date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`, measured against `date`, the wall-clock now). Nil when the
/// header is absent or neither form.
public func retryAfterSeconds(_ value: String?, now date: Date = Date()) -> Double? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Double(value), seconds.isFinite, seconds >= 0 { return seconds }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
        formatter.dateFormat = format
        if let when = formatter.date(from: value) { return max(0, when.timeIntervalSince(date)) }
    }
    return nil
}

/// SplitMix64: the jitter's random source, seeded so a test can replay it.
struct SplitMix: Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
