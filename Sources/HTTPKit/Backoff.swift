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
/// | `maxAttempts` (6) | give up |
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

    public init(base: Double = 1, factor: Double = 2, cap: Double = 60, maxAttempts: Int = 6, jitter: Bool = true, longestRetryAfter: Double = 900) {
        (self.base, self.factor, self.cap, self.maxAttempts, self.jitter, self.longestRetryAfter) = (base, factor, cap, maxAttempts, jitter, longestRetryAfter)
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
    private var random: SplitMix

    public init(policy: BackoffPolicy = .standard, seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.policy = policy
        random = SplitMix(seed: seed)
    }

    /// Records a failed attempt and says what to do next. `retryAfter` is the server's
    /// `Retry-After` in seconds, when it sent one.
    public mutating func failed(retryAfter: Double? = nil) -> Decision {
        attempts += 1
        guard attempts < policy.maxAttempts else { return .giveUp }
        if let retryAfter {
            return retryAfter <= policy.longestRetryAfter ? .retry(after: max(0, retryAfter)) : .giveUp
        }
        let scheduled = min(policy.cap, policy.base * pow(policy.factor, Double(attempts - 1)))
        guard policy.jitter else { return .retry(after: scheduled) }
        let unit = Double(random.next() >> 11) / Double(1 << 53)  // [0, 1)
        return .retry(after: scheduled / 2 + unit * scheduled / 2)
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
