import Foundation
import HTTPKit

/// The tests' clock for the state machines on `HTTPClock` (retries, rate limits, token pacing,
/// leases): it moves only when slept on (or advanced) and remembers every sleep, so hours of
/// backoff run in no time and every wait can be checked. Tests only: production code runs on
/// `SystemClock`.
public final class ManualClock: HTTPClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time: Double
    private var slept: [Double] = []

    public init(start: Double = 0) { time = start }

    public var now: Double { lock.withLock { time } }

    /// Every sleep asked for, in order.
    public var sleeps: [Double] { lock.withLock { slept } }

    public func sleep(_ seconds: Double) {
        lock.withLock {
            slept.append(seconds)
            time += max(0, seconds)
        }
    }

    public func advance(_ seconds: Double) { lock.withLock { time += seconds } }
}
