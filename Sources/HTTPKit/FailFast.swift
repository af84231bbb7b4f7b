import Foundation

/// Stops a destination that has answered nothing but 5xx (or timeouts and dropped connections)
/// for `failAfter` seconds, across all its requests: retries help a server that stumbles, not
/// one that is down, and a webhook answering 500 to everything kept a 9-row import busy past a
/// minute. It sits inside `Retry`, so it sees every attempt; one answer that is not
/// a server failure (a 2xx, a 4xx, a 429) ends the streak.
///
/// | what the destination answers | streak |
/// | --- | --- |
/// | 5xx, timeout, dropped connection | starts (or goes on) |
/// | anything else | ends |
/// | a failure `failAfter` seconds or more after the streak's first | `Unavailable` is thrown: the destination stops |
public final class FailFast: HTTPMiddleware, @unchecked Sendable {
    /// The destination answered only failures for `seconds`; not an `HTTPTransportError`, so
    /// `Retry` does not try again.
    public struct Unavailable: Error, CustomStringConvertible {
        public var seconds: Double
        public var last: String
        public var description: String {
            "answered nothing but server errors for \(Self.format(seconds)) s (the last: \(last)); "
                + "stopped after LEADPORT_FAIL_AFTER (\(Self.format(seconds)) s), and what was not sent goes with the next run"
        }

        static func format(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
        }
    }

    /// The default `LEADPORT_FAIL_AFTER`, in seconds.
    public static let standard: Double = 60

    public let failAfter: Double
    private let clock: any HTTPClock
    private let lock = NSLock()
    private var streakStart: Double?

    public init(after seconds: Double = FailFast.standard, clock: any HTTPClock = SystemClock()) {
        failAfter = seconds
        self.clock = clock
    }

    public func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try next(request)
        } catch let error as HTTPTransportError where error.isTransient {
            try failed(error.description)
            throw error
        }
        if response.status >= 500 {
            try failed("\(response.status)")
        } else {
            lock.withLock { streakStart = nil }
        }
        return response
    }

    private func failed(_ what: String) throws {
        let now = clock.now
        let start = lock.withLock { () -> Double in
            if streakStart == nil { streakStart = now }
            return streakStart!
        }
        if now - start >= failAfter { throw Unavailable(seconds: failAfter, last: what) }
    }
}
