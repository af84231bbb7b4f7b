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
