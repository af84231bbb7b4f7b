import Foundation

/// Time as the retry and rate-limit machinery sees it, so tests can run hours of backoff in no
/// time and check every wait.
public protocol HTTPClock: Sendable {
    /// Seconds on a monotonic scale.
    var now: Double { get }
    func sleep(_ seconds: Double)
}

public struct SystemClock: HTTPClock {
    public init() {}

    public var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        Thread.sleep(forTimeInterval: seconds)
    }
}

/// A clock that moves only when slept on (or advanced), and remembers every sleep.
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
