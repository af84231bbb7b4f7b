import Foundation
import HTTPKit

/// HubSpot's request windows as the client keeps them, from HubSpot's own headers:
///
/// | window | budget | how it is followed |
/// | --- | --- | --- |
/// | ten-secondly, per app | `X-HubSpot-RateLimit-Max` per `-Interval-Milliseconds` (100 per 10 s to start) | a log of the requests answered in the last interval; a request waits until the oldest leaves it |
/// | server's count | `X-HubSpot-RateLimit-Remaining` | when it is below what the log leaves (another client on the token), the difference is logged as sent now |
/// | 429 `TEN_SECONDLY_ROLLING` | | no request until `Retry-After`, or a whole interval |
/// | search, per account | 5 a second, no headers | its own log; a 429 waits `Retry-After` or 1 s |
/// | daily | `X-HubSpot-RateLimit-Daily-Remaining` | kept for the caller; a `DAILY` 429 stops the run (`HubSpotGuard`) |
///
/// A request is logged when its answer arrives, later than HubSpot counted it, so the log
/// frees a slot no sooner than HubSpot does; requests in flight hold a slot meanwhile.
final class HubSpotLimits: @unchecked Sendable {
    private struct Window {
        var max: Int
        var interval: Double
        var answered: [Double] = []
        var inFlight = 0
        var blockedUntil = 0.0

        mutating func prune(_ now: Double) {
            if let keep = answered.firstIndex(where: { $0 > now - interval }) {
                answered.removeFirst(keep)
            } else {
                answered.removeAll()
            }
        }

        /// 0 and a slot taken, or the seconds to wait before asking again.
        mutating func reserve(_ now: Double) -> Double {
            prune(now)
            if now < blockedUntil { return blockedUntil - now }
            if answered.count + inFlight < max {
                inFlight += 1
                return 0
            }
            // Full: the oldest answered request leaves the window first; with none answered
            // yet, the requests in flight will be soon.
            return answered.first.map { $0 + interval - now + 0.001 } ?? 0.05
        }

        /// The answer (or its loss) of a reserved request; `counted` says HubSpot counted it.
        mutating func answered(at now: Double, counted: Bool) {
            inFlight = Swift.max(0, inFlight - 1)
            if counted { answered.append(now) }
        }

        var left: Int { max - answered.count - inFlight }
    }

    private let lock = NSLock()
    private var tenSecondly: Window
    private var search: Window
    private var daily: (limit: Int?, remaining: Int?) = (nil, nil)

    init(burst: Int, interval: Double, searchPerSecond: Int) {
        tenSecondly = Window(max: Swift.max(1, burst), interval: interval)
        search = Window(max: Swift.max(1, searchPerSecond), interval: 1)
    }

    /// 0 and a slot taken, or the seconds to wait before asking again.
    func reserve(search isSearch: Bool, now: Double) -> Double {
        lock.withLock { isSearch ? search.reserve(now) : tenSecondly.reserve(now) }
    }

    /// Follows a response's headers (see the table above).
    func observe(search isSearch: Bool, status: Int, headers: HTTPHeaders, now: Double) {
        lock.withLock {
            let retryAfter = retryAfterSeconds(headers["Retry-After"])
            if isSearch {
                search.answered(at: now, counted: status != 429)
                if status == 429 { search.blockedUntil = Swift.max(search.blockedUntil, now + (retryAfter ?? 1)) }
                return
            }
            if let limit = headers["X-HubSpot-RateLimit-Daily"].flatMap(Int.init) { daily.limit = limit }
            if let remaining = headers["X-HubSpot-RateLimit-Daily-Remaining"].flatMap(Int.init) { daily.remaining = remaining }
            if let ms = headers["X-HubSpot-RateLimit-Interval-Milliseconds"].flatMap(Double.init), ms > 0 { tenSecondly.interval = ms / 1000 }
            if let max = headers["X-HubSpot-RateLimit-Max"].flatMap(Int.init), max > 0 { tenSecondly.max = max }
            tenSecondly.answered(at: now, counted: status != 429)
            if status == 429 {
                tenSecondly.blockedUntil = Swift.max(tenSecondly.blockedUntil, now + (retryAfter ?? tenSecondly.interval))
                return
            }
            tenSecondly.prune(now)
            if let remaining = headers["X-HubSpot-RateLimit-Remaining"].flatMap(Int.init), remaining < tenSecondly.left {
                // Someone else spends this token's window too: their requests count as ours.
                tenSecondly.answered += Array(repeating: now, count: tenSecondly.left - Swift.max(0, remaining))
            }
        }
    }

    /// A reserved request got no answer: HubSpot may have counted it, so it is logged.
    func lost(search isSearch: Bool, now: Double) {
        lock.withLock {
            if isSearch { search.answered(at: now, counted: true) } else { tenSecondly.answered(at: now, counted: true) }
        }
    }

    /// The last daily figures HubSpot sent (`X-HubSpot-RateLimit-Daily`, `-Daily-Remaining`).
    var dailyFromHeaders: (limit: Int?, remaining: Int?) { lock.withLock { daily } }
}

/// Paces each attempt through `HubSpotLimits` (search in its own window) and feeds it the
/// answer's headers. Sits inside `Retry`, so every retry waits its turn too.
struct HubSpotRateLimit: HTTPMiddleware {
    let limits: HubSpotLimits
    let clock: any HTTPClock

    static func isSearch(_ request: HTTPRequest) -> Bool { request.url.path.hasSuffix("/search") }

    func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        let search = Self.isSearch(request)
        while true {
            let wait = limits.reserve(search: search, now: clock.now)
            if wait <= 0 { break }
            clock.sleep(wait)
        }
        let response: HTTPResponse
        do {
            response = try next(request)
        } catch {
            limits.lost(search: search, now: clock.now)
            throw error
        }
        limits.observe(search: search, status: response.status, headers: response.headers, now: clock.now)
        return response
    }
}
