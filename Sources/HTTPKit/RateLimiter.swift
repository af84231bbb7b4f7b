import Foundation

/// An API's request budget as a state machine on seconds from a clock: the windows its
/// `RateLimits` describes, each followed from the answers' headers. `acquire` says whether a
/// request may go now (and takes its share) or how long to wait before asking again;
/// `complete` takes in its answer.
///
/// | answer | what the windows do |
/// | --- | --- |
/// | a limit header (`limit > 0`) | the window's limit from now on (a context named without one: no limit) |
/// | a span header | the window's length |
/// | a remaining header | a sliding window counts what the server counted beyond its own log as sent now; a bucket holds no more than it; a fixed window holds it |
/// | a reset header (`windowEnds`) | an emptied window waits for it; a fixed window refills then |
/// | a reset header (`fullAgain`) | the bucket's window is learnt: `limit × reset / (limit − remaining)`, between 1 s and two days, when more than a thousandth (and one) is spent |
/// | a context header (`RateLimits.context`) | the route is counted in that window from now on |
/// | a refusal with `Retry-After` | the request's windows hold nothing until then |
/// | 429 without | as the window's `refusal` says: a whole span, its reset, or nothing |
/// | 5xx | its headers are not trusted (a failing server may not have counted) |
/// | no answer | a sliding window counts the request all the same (the server may have) |
///
/// A sliding window logs a request when its answer arrives, later than the server counted it,
/// so the log frees a slot no sooner than the server does; a request in flight holds its slot
/// meanwhile. A 429 is not counted.
public struct RateLimiter: Sendable {
    /// What a granted request took, to hand back with its answer.
    public struct Grant: Sendable, Equatable {
        public let windows: [String]
        public let cost: Double
        let probe: Bool
    }

    /// A window as it stands.
    public struct Reading: Sendable, Equatable {
        public var limit: Double?
        public var span: Double
        /// What a bucket or fixed window holds.
        public var level: Double
        /// Nothing goes before this.
        public var blockedUntil: Double
        /// The last limit and remaining the headers stated.
        public var statedLimit: Double?
        public var statedRemaining: Double?
    }

    struct State: Sendable {
        var window: RateWindow
        var level: Double
        var updated: Double
        var answered: [Double] = []
        var inFlight = 0
        var blockedUntil = 0.0
        var resetsAt: Double?
        var statedLimit: Double?
        var statedRemaining: Double?
    }

    /// How soon to ask again when a sliding window is full of requests still in flight.
    static let poll = 0.05
    /// The learnt windows believed, and the least spent a window is learnt from (below it the
    /// count is within the server's rounding).
    static let learntSpans: ClosedRange<Double> = 1...(2 * 86_400)
    static let leastSpent = 0.001

    public let limits: RateLimits
    private var states: [String: State] = [:]
    private var contextOfRoute: [String: String] = [:]
    private var probes = 0

    public init(_ limits: RateLimits, now: Double) {
        self.limits = limits
        for window in limits.windows { states[window.name] = State(window: window, level: window.limit ?? 0, updated: now) }
    }

    /// The windows `route` spends from now.
    public func windows(of route: String) -> [String] {
        contextOfRoute[route].map { [$0] } ?? limits.windowsOf(route)
    }

    public func reading(_ name: String) -> Reading? {
        states[name].map { Reading(limit: $0.window.limit, span: $0.window.span, level: $0.level, blockedUntil: $0.blockedUntil, statedLimit: $0.statedLimit, statedRemaining: $0.statedRemaining) }
    }

    /// A request on `route` costing `cost` (what weighted windows spend): a grant when it may
    /// go now, or the seconds to wait before asking again.
    public mutating func acquire(route: String = "", cost: Double = 1, now: Double) -> (wait: Double, grant: Grant?) {
        let names = windows(of: route)
        for name in names { touch(name, now: now) }
        if limits.oneAtATimeUntilKnown, !states.values.contains(where: { $0.window.limit != nil }) {
            // Until an answer states the limits, one request at a time.
            if probes > 0 { return (0.02, nil) }
            probes += 1
            return (0, Grant(windows: names, cost: cost, probe: true))
        }
        let wait = names.compactMap { states[$0]?.wait(cost: cost, now: now) }.max() ?? 0
        guard wait <= 0 else { return (wait, nil) }
        for name in names { states[name]?.take(cost) }
        return (0, Grant(windows: names, cost: cost, probe: false))
    }

    /// Takes in the answer to a granted request: `status` nil when none came.
    public mutating func complete(_ grant: Grant, route: String = "", status: Int?, headers: HTTPHeaders, now: Double, date: Date = Date()) {
        if grant.probe { probes = max(0, probes - 1) }
        for name in grant.windows { states[name]?.release() }
        let trusted = status.map { $0 < 500 } ?? false
        var names = grant.windows
        var named = false
        if let context = limits.context, trusted, let name = headers[context.header]?.trimmingCharacters(in: .whitespaces), !name.isEmpty {
            contextOfRoute[route] = name
            touch(name, now: now)
            names = [name]
            named = true
        }
        let wait = status.flatMap { limits.refusals.contains($0) ? limits.retryAfter(headers) : nil }
        for name in names {
            guard var state = states[name] else { continue }
            state.refill(now)
            state.answer(status: status, trusted: trusted, named: named, headers: headers, retryAfter: wait, now: now, date: date)
            states[name] = state
        }
    }

    /// Brings a window up to `now`, first making it for a context not met before.
    private mutating func touch(_ name: String, now: Double) {
        if states[name] == nil, let context = limits.context {
            let window = context.window(name)
            states[name] = State(window: window, level: window.limit ?? 0, updated: now)
        }
        states[name]?.refill(now)
    }
}

extension RateLimiter.State {
    mutating func refill(_ now: Double) {
        defer { updated = max(updated, now) }
        guard let limit = window.limit, limit > 0 else { return }
        switch window.kind {
        case .refilling:
            level = min(limit, level + max(0, now - updated) * (limit / window.span))
        case .fixed:
            if let at = resetsAt, now >= at { (level, resetsAt) = (limit, nil) }
        case .sliding:
            let expired = answered.prefix { $0 <= now - window.span }.count
            if expired > 0 { answered.removeFirst(expired) }
        }
    }

    /// What one request spends of this window.
    func spend(_ cost: Double) -> Double { window.weighted ? cost : 1 }

    func wait(cost: Double, now: Double) -> Double {
        var wait = max(0, blockedUntil - now)
        guard let limit = window.limit, limit > 0 else { return wait }
        switch window.kind {
        case .sliding:
            let over = answered.count + inFlight - Int(limit) + 1
            if over > 0 {
                // The oldest answered leave the window first; with too few answered yet, the
                // requests in flight will be soon.
                wait = max(wait, over <= answered.count ? answered[over - 1] + window.span - now : RateLimiter.poll)
            }
        case .refilling:
            // A request larger than the whole bucket goes once the bucket is full.
            let want = min(spend(cost), limit)
            if level < want - 1e-9 { wait = max(wait, (want - level) / (limit / window.span)) }
        case .fixed:
            if level < spend(cost), let at = resetsAt { wait = max(wait, at - now) }
        }
        return wait
    }

    mutating func take(_ cost: Double) {
        guard window.limit != nil else { return }
        switch window.kind {
        case .sliding: inFlight += 1
        case .refilling, .fixed: level -= spend(cost)
        }
    }

    mutating func release() {
        if window.kind == .sliding { inFlight = max(0, inFlight - 1) }
    }

    /// Follows one answer (see the table on `RateLimiter`).
    mutating func answer(status: Int?, trusted: Bool, named: Bool, headers: HTTPHeaders, retryAfter: Double?, now: Double, date: Date) {
        let h = window.headers
        var reset: Double?
        var remaining: Double?
        if trusted, readLimit(h, named: named, headers: headers) {
            if let span = h.span.lazy.compactMap({ $0.time.seconds(headers[$0.name], now: date) }).first, span > 0 { window.span = span }
            remaining = h.remaining.lazy.compactMap { headers[$0].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }.first
            reset = h.reset.lazy.compactMap { $0.time.seconds(headers[$0.name], now: date) }.first
            if remaining != nil { statedRemaining = remaining }
        }
        let refused = status == 429
        if window.kind == .sliding, !refused, window.limit != nil { answered.append(now) }
        if let remaining, let limit = window.limit, !(refused && window.kind == .sliding) {
            switch window.kind {
            case .sliding:
                let left = Int(limit) - answered.count - inFlight
                // Someone else spends this window too: their requests count as made now.
                if Int(remaining) < left { answered += Array(repeating: now, count: left - max(0, Int(remaining))) }
            case .refilling:
                level = min(level, max(0, remaining))
            case .fixed:
                level = max(0, remaining)
            }
            if let reset {
                switch h.resetMeans {
                case .windowEnds:
                    if window.kind == .fixed { resetsAt = now + reset }
                    else if remaining < 1 { blockedUntil = max(blockedUntil, now + reset) }
                case .fullAgain:
                    if reset > 0, limit - remaining >= max(1, limit * RateLimiter.leastSpent) {
                        let learnt = limit * reset / (limit - max(0, remaining))
                        if RateLimiter.learntSpans.contains(learnt) { window.span = learnt }
                    }
                }
            }
        }
        if let retryAfter {
            blockedUntil = max(blockedUntil, now + retryAfter)
            if window.kind == .refilling { level = min(level, 0) }
        } else if refused {
            switch window.refusal {
            case .span: blockedUntil = max(blockedUntil, now + window.span)
            case .reset: if level < 1, let reset { blockedUntil = max(blockedUntil, now + reset) }
            case .none: break
            }
        }
    }

    /// Reads the limit header; false when it says there is no limit to follow (`-1`).
    private mutating func readLimit(_ h: RateLimitHeaders, named: Bool, headers: HTTPHeaders) -> Bool {
        let stated = h.limit.lazy.compactMap { headers[$0].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }.first
        if named, !h.limit.isEmpty, stated == nil {
            // A context the server names without a limit has none.
            window.limit = nil
            return true
        }
        guard let stated else { return true }
        guard stated > 0 else { return false }
        statedLimit = stated
        if window.limit == nil { level = stated }
        window.limit = stated
        return true
    }
}
