import Foundation
import HTTPKit

/// Follow Up Boss's rate limits as the client keeps to them: a sliding window per context
/// (crm-apis.md §2.5), each followed on its own from the headers of its answers.
///
/// | what | what the windows do |
/// | --- | --- |
/// | (start) | the documented table: `global` 250 per 10 s (125 without a system key), `events` (GET /v1/events) 20 (10), `POST.events` unlimited |
/// | `X-RateLimit-Context: c` | the request's route (`PUT.people`) belongs to context c from now on |
/// | `X-RateLimit-Limit`, `-Window` | that context's limit and window; a context answered without a limit is unlimited |
/// | `X-RateLimit-Remaining: r` on an answer the server processed | requests the window holds that are not ours (another process on the same key) are counted as made just now |
/// | 429 with `Retry-After: s` | nothing goes to that context for s seconds (other contexts go on); the 429 is not counted |
/// | 5xx | its headers are not trusted (a failing server may not have counted) |
///
/// A request is counted from the moment its answer arrived, which is never earlier than the
/// server counted it: a request sent once the window has moved on by that time cannot be
/// refused for the window. Requests are granted in order, each at the earliest time the
/// window has room for it.
public struct FollowUpBossRateWindows: Sendable {
    struct Window: Sendable {
        var limit: Int?
        var span: Double
        /// When each counted request (or reserved one, in the future) was, oldest first.
        var stamps: [Double] = []
        var blockedUntil: Double = 0
    }

    /// A granted request: its context and the time reserved for it.
    public struct Ticket: Sendable, Equatable {
        public let context: String
        let stamp: Double
    }

    private var windows: [String: Window] = [:]
    private var contextOfRoute: [String: String] = [:]
    private let registered: Bool

    /// `registered`: whether the client sends a system key (which picks the higher table).
    public init(registered: Bool) { self.registered = registered }

    /// `METHOD.resource` for a path under `/v1/`: `PUT.people` for `PUT /v1/people/12`.
    public static func route(method: String, path: String) -> String {
        let parts = path.split(separator: "/")
        let resource = parts.first == "v1" ? parts.dropFirst().first : parts.first
        return method.uppercased() + "." + (resource.map(String.init) ?? "")
    }

    /// The context a route is in until an answer says otherwise.
    static func documentedContext(_ route: String) -> String {
        switch route {
        case "GET.events": return "events"
        case "POST.events": return "POST.events"
        default: return "global"
        }
    }

    private func fresh(_ context: String) -> Window {
        switch context {
        case "global": return Window(limit: registered ? 250 : 125, span: 10)
        case "events": return Window(limit: registered ? 20 : 10, span: 10)
        case "POST.events": return Window(limit: nil, span: 10)
        default: return Window(limit: registered ? 250 : 125, span: 10)
        }
    }

    /// The context `route` is in now.
    public func context(of route: String) -> String { contextOfRoute[route] ?? Self.documentedContext(route) }

    /// Grants a request on `route`: how long to wait before sending it, and the ticket to
    /// hand back with its answer.
    public mutating func acquire(route: String, now: Double) -> (wait: Double, ticket: Ticket) {
        let context = context(of: route)
        var w = windows[context] ?? fresh(context)
        Self.prune(&w, now: now)
        var at = max(now, w.blockedUntil, w.stamps.last ?? now)
        if let limit = w.limit, limit > 0, w.stamps.count >= limit {
            at = max(at, w.stamps[w.stamps.count - limit] + w.span)
        }
        w.stamps.append(at)
        windows[context] = w
        return (at - now, Ticket(context: context, stamp: at))
    }

    /// Takes in the answer to a granted request (`status` nil: no answer came, which may
    /// still have been counted).
    public mutating func complete(_ ticket: Ticket, route: String, status: Int?, headers: HTTPHeaders, now: Double) {
        if var w = windows[ticket.context], let at = w.stamps.firstIndex(of: ticket.stamp) {
            w.stamps.remove(at: at)
            windows[ticket.context] = w
        }
        var context = ticket.context
        if let named = headers["X-RateLimit-Context"], !named.isEmpty, status.map({ $0 < 500 }) ?? false {
            context = named
            contextOfRoute[route] = named
        }
        var w = windows[context] ?? fresh(context)
        Self.prune(&w, now: now)
        if let status, status < 500, headers["X-RateLimit-Context"] != nil {
            w.limit = headers["X-RateLimit-Limit"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if let span = headers["X-RateLimit-Window"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), span > 0 { w.span = span }
        }
        if status == 429 {
            let wait = retryAfterSeconds(headers["Retry-After"]) ?? w.span
            w.blockedUntil = max(w.blockedUntil, now + wait)
        } else {
            Self.insert(now, into: &w)
            if let status, status < 500, let limit = w.limit, let remaining = headers["X-RateLimit-Remaining"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                let counted = w.stamps.filter { $0 <= now }.count
                for _ in 0..<max(0, limit - remaining - counted) { Self.insert(now, into: &w) }
            }
        }
        windows[context] = w
    }

    /// Requests this context's window holds at `now` (those counted, not those reserved).
    public func held(_ context: String, now: Double) -> Int {
        guard let w = windows[context] else { return 0 }
        return w.stamps.filter { $0 > now - w.span && $0 <= now }.count
    }

    private static func prune(_ w: inout Window, now: Double) {
        let expired = w.stamps.prefix { $0 <= now - w.span }.count
        if expired > 0 { w.stamps.removeFirst(expired) }
    }

    private static func insert(_ stamp: Double, into w: inout Window) {
        let at = w.stamps.lastIndex { $0 <= stamp }.map { $0 + 1 } ?? 0
        w.stamps.insert(stamp, at: at)
    }
}

/// Paces every request through `FollowUpBossRateWindows`, shared by every thread that sends
/// through the client, and feeds it each answer.
public final class FollowUpBossRateLimit: HTTPMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var windows: FollowUpBossRateWindows
    private let clock: any HTTPClock

    public init(registered: Bool, clock: any HTTPClock = SystemClock()) {
        windows = FollowUpBossRateWindows(registered: registered)
        self.clock = clock
    }

    public func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        let route = FollowUpBossRateWindows.route(method: request.method, path: request.url.path)
        let (wait, ticket) = lock.withLock { windows.acquire(route: route, now: clock.now) }
        clock.sleep(wait)
        do {
            let response = try next(request)
            lock.withLock { windows.complete(ticket, route: route, status: response.status, headers: response.headers, now: clock.now) }
            return response
        } catch {
            lock.withLock { windows.complete(ticket, route: route, status: nil, headers: HTTPHeaders(), now: clock.now) }
            throw error
        }
    }
}
