import Foundation
import HTTPKit
import LeadTesting
import Testing

/// The one limiter every API's description runs on, as a state machine: windows of each kind,
/// headers in each unit, `Retry-After`, several windows at once, contexts and a daily quota.
@Suite struct RateLimiterWindowTests {
    static func answered(_ l: inout RateLimiter, route: String = "", cost: Double = 1, at now: Double, status: Int = 200, _ headers: [(String, String)] = [],
                         date: Date = Date()) throws {
        let grant = try #require(l.acquire(route: route, cost: cost, now: now).grant, "granted at \(now)")
        l.complete(grant, route: route, status: status, headers: HTTPHeaders(headers), now: now, date: date)
    }

    @Test func aSlidingWindowWaitsForItsOldestAnswerAndHoldsRequestsInFlight() throws {
        var l = RateLimiter(RateLimits(windows: [RateWindow("w", .sliding, limit: 3, span: 10)]), now: 0)
        for t in [1.0, 2, 3] { try Self.answered(&l, at: t) }
        #expect(l.acquire(now: 4).wait == 7, "the answer at 1 s leaves at 11 s")
        #expect(l.acquire(now: 11).grant != nil)
        #expect(abs(l.acquire(now: 11).wait - 1) < 1e-9, "the one in flight holds its slot; the answer at 2 s leaves next")

        var inFlight = RateLimiter(RateLimits(windows: [RateWindow("w", .sliding, limit: 1, span: 10)]), now: 0)
        let grant = try #require(inFlight.acquire(now: 0).grant)
        #expect(inFlight.acquire(now: 0).wait == 0.05, "none answered yet: ask again shortly")
        inFlight.complete(grant, status: nil, headers: HTTPHeaders(), now: 1)
        #expect(inFlight.acquire(now: 1).wait == 10, "a lost answer may have been counted")
    }

    @Test func aBucketRefillsEvenlyAndALargeRequestWaitsForAFullOne() throws {
        var l = RateLimiter(RateLimits(windows: [RateWindow("tokens", .refilling, limit: 600, span: 60, weighted: true)]), now: 0)
        try Self.answered(&l, cost: 500, at: 0)
        #expect(abs(l.acquire(cost: 300, now: 0).wait - 20) < 1e-9, "200 more at 10 a second")
        #expect(abs(l.acquire(cost: 5_000, now: 0).wait - 50) < 1e-9, "larger than the bucket: once it is full")
    }

    @Test func headersStateTheWindowInEachUnit() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(HeaderTime.seconds.seconds("30") == 30)
        #expect(HeaderTime.milliseconds.seconds("1500") == 1.5)
        #expect(HeaderTime.unixTime.seconds("1700000030", now: date) == 30)
        #expect(HeaderTime.secondsOrUnixTime.seconds("12", now: date) == 12 && HeaderTime.secondsOrUnixTime.seconds("1700000040", now: date) == 40)
        #expect(HeaderTime.duration.seconds("1m30.5s") == 90.5 && HeaderTime.duration.seconds("250ms") == 0.25 && HeaderTime.duration.seconds("7") == 7)
        for bad in ["", "soon", "-3"] { #expect(HeaderTime.milliseconds.seconds(bad) == nil && HeaderTime.duration.seconds(bad) == nil, "\(bad)") }

        // A sliding window told its limit and its length in milliseconds.
        let sliding = RateLimitHeaders(limit: ["X-Max"], remaining: ["X-Left"], span: [TimedHeader("X-Interval-Ms", .milliseconds)])
        var l = RateLimiter(RateLimits(windows: [RateWindow("w", .sliding, limit: 100, span: 10, headers: sliding)]), now: 0)
        try Self.answered(&l, at: 0, [("X-Max", "2"), ("X-Left", "1"), ("X-Interval-Ms", "2000")])
        try Self.answered(&l, at: 0.5)
        #expect(l.acquire(now: 0.5).wait == 1.5, "2 per 2 s, from the headers")
        // Another client spent the window: counted as made now.
        var shared = RateLimiter(RateLimits(windows: [RateWindow("w", .sliding, limit: 100, span: 10, headers: sliding)]), now: 0)
        try Self.answered(&shared, at: 1, [("X-Left", "0")])
        #expect(shared.acquire(now: 1).wait == 10)

        // An emptied window waits for its reset, written as seconds, a Unix time or a duration.
        for (header, time, value) in [("Reset", HeaderTime.seconds, "4"), ("Reset-At", .unixTime, "1700000004"), ("Reset-In", .duration, "4s")] {
            let headers = RateLimitHeaders(remaining: ["Left"], reset: [TimedHeader(header, time)])
            var r = RateLimiter(RateLimits(windows: [RateWindow("w", .refilling, limit: 100, span: 100, headers: headers)]), now: 0)
            try Self.answered(&r, at: 0, [("Left", "0"), (header, value)], date: date)
            #expect(r.acquire(now: 0).wait == 4, "\(header)")
        }
    }

    @Test func aResetThatSaysWhenTheBucketIsFullTeachesItsWindow() throws {
        let headers = RateLimitHeaders(limit: ["Limit"], remaining: ["Left"], reset: [TimedHeader("Full-In", .duration)], resetMeans: .fullAgain)
        var l = RateLimiter(RateLimits(windows: [RateWindow("w", .refilling, limit: nil, span: 60, headers: headers, refusal: .reset)]), now: 0)
        try Self.answered(&l, at: 0, [("Limit", "100"), ("Left", "90"), ("Full-In", "1s")])
        #expect(l.reading("w")?.span == 10, "10 spent refill in 1 s: 100 in 10 s")
        try Self.answered(&l, at: 0, [("Limit", "-1")])
        #expect(l.reading("w")?.limit == 100, "-1 states no limit and changes nothing")
    }

    @Test func retryAfterIsReadAsEachAPIWritesIt() throws {
        let limits = RateLimits(windows: [RateWindow("w", .refilling, limit: 100, span: 1)],
                                retryAfter: [TimedHeader("retry-after-ms", .milliseconds), TimedHeader("retry-after", .seconds)])
        #expect(limits.retryAfter(HTTPHeaders([("retry-after-ms", "1574"), ("retry-after", "2")])) == 1.574)
        #expect(limits.retryAfter(HTTPHeaders([("Retry-After", "2")])) == 2)
        #expect(limits.retryAfter(HTTPHeaders()) == nil)
        var l = RateLimiter(limits, now: 0)
        try Self.answered(&l, at: 1, status: 429, [("retry-after-ms", "2500")])
        #expect(l.acquire(now: 1).wait == 2.5)
        try Self.answered(&l, at: 3.5, status: 503, [("retry-after", "9")])
        #expect(l.acquire(now: 3.5).wait == 0, "a 503's Retry-After holds back only where the API says it does")

        // Without Retry-After, as each window says: a whole span, its reset, or nothing.
        var span = RateLimiter(RateLimits(windows: [RateWindow("w", .sliding, limit: 5, span: 10, refusal: .span)]), now: 0)
        try Self.answered(&span, at: 0, status: 429)
        #expect(span.acquire(now: 0).wait == 10)
        #expect(span.acquire(now: 10).grant != nil, "the refused request was not counted")
    }

    @Test func severalWindowsAtOnceTheLongestWaitWins() throws {
        let limits = RateLimits(windows: [RateWindow("requests", .refilling, limit: 2, span: 10), RateWindow("tokens", .refilling, limit: 100, span: 10, weighted: true)])
        var l = RateLimiter(limits, now: 0)
        try Self.answered(&l, cost: 60, at: 0)
        #expect(abs(l.acquire(cost: 60, now: 0).wait - 2) < 1e-9, "20 tokens short at 10 a second")
        try Self.answered(&l, cost: 10, at: 0)
        #expect(abs(l.acquire(cost: 10, now: 0).wait - 5) < 1e-9, "both requests spent: one back in 5 s")
        // Routes spend from their own windows only.
        let split = RateLimits(windows: [RateWindow("reads", .refilling, limit: 1, span: 10), RateWindow("writes", .refilling, limit: 1, span: 10)],
                               route: { $0.method == "GET" ? "reads" : "writes" }, windowsOf: { [$0] })
        var s = RateLimiter(split, now: 0)
        try Self.answered(&s, route: "reads", at: 0)
        #expect(s.acquire(route: "reads", now: 0).wait == 10 && s.acquire(route: "writes", now: 0).wait == 0)
    }

    @Test func aDailyQuotaHoldsUntilItsResetThenRefills() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let headers = RateLimitHeaders(limit: ["Daily"], remaining: ["Daily-Left"], reset: [TimedHeader("Daily-Reset", .unixTime)])
        let limits = RateLimits(windows: [RateWindow("daily", .fixed, limit: nil, span: 86_400, headers: headers)])
        var l = RateLimiter(limits, now: 0)
        try Self.answered(&l, at: 0, [("Daily", "1000"), ("Daily-Left", "1"), ("Daily-Reset", "1700003600")], date: date)
        #expect(l.reading("daily")?.statedRemaining == 1 && l.reading("daily")?.statedLimit == 1000)
        try Self.answered(&l, at: 1)
        #expect(l.acquire(now: 1).wait == 3_599, "spent: until the reset an hour after the answer")
        #expect(l.acquire(now: 3_600).grant != nil && l.reading("daily")?.level == 999, "the whole quota back")
        // Without a stated reset the quota is only kept: the server's refusal decides.
        var kept = RateLimiter(RateLimits(windows: [RateWindow("daily", .fixed, limit: nil, span: 86_400, headers: RateLimitHeaders(limit: ["Daily"], remaining: ["Daily-Left"]))]), now: 0)
        try Self.answered(&kept, at: 0, [("Daily", "1000"), ("Daily-Left", "0")])
        #expect(kept.acquire(now: 0).wait == 0)
    }

    @Test func aContextNamedByTheServerGetsItsOwnWindow() throws {
        let headers = RateLimitHeaders(limit: ["Limit"], remaining: ["Left"])
        let limits = RateLimits(windows: [RateWindow("global", .sliding, limit: 100, span: 10, headers: headers)], route: { $0.url.path },
                                context: (header: "Context", window: { RateWindow($0, .sliding, limit: 100, span: 10, headers: headers) }))
        var l = RateLimiter(limits, now: 0)
        try Self.answered(&l, route: "/search", at: 0, [("Context", "search"), ("Limit", "1"), ("Left", "0")])
        #expect(l.windows(of: "/search") == ["search"])
        #expect(l.acquire(route: "/search", now: 1).wait == 9)
        #expect(l.acquire(route: "/people", now: 1).wait == 0, "other routes stay in the global window")
        try Self.answered(&l, route: "/events", at: 1, [("Context", "events")])
        #expect(l.reading("events")?.limit == nil, "a context named without a limit has none")
        // 5xx headers are not trusted.
        try Self.answered(&l, route: "/people", at: 2, status: 502, [("Context", "people"), ("Limit", "1"), ("Left", "0")])
        #expect(l.windows(of: "/people") == ["global"])
    }

    @Test func limitsLearntNotDeclaredGoOneAtATimeUntilKnown() throws {
        let headers = RateLimitHeaders(limit: ["Limit"], remaining: ["Left"])
        var l = RateLimiter(RateLimits(windows: [RateWindow("w", .refilling, limit: nil, span: 60, headers: headers)], oneAtATimeUntilKnown: true), now: 0)
        let probe = try #require(l.acquire(now: 0).grant)
        #expect(l.acquire(now: 0).grant == nil, "one at a time")
        l.complete(probe, status: 200, headers: HTTPHeaders([("Limit", "60"), ("Left", "60")]), now: 0)
        #expect(l.acquire(now: 0).grant != nil && l.acquire(now: 0).grant != nil)
    }

    @Test func theMiddlewarePacesThroughTheClockAndReadsEveryAnswer() throws {
        let clock = ManualClock()
        let headers = RateLimitHeaders(limit: ["X-Max"])
        let limit = RateLimit(RateLimits(windows: [RateWindow("w", .sliding, limit: 5, span: 10, headers: headers)]), clock: clock)
        let transport = ScriptedTransport([.response(HTTPResponse(status: 200, headers: HTTPHeaders([("X-Max", "2")])))])
        let client = HTTPClient(transport: transport, [limit])
        for _ in 0..<3 { _ = try client.send(HTTPRequest(url: URL(string: "https://api.example.com/v1/x")!)) }
        #expect(clock.sleeps == [0, 0, 10], "two per 10 s, as the first answer said")
        #expect(transport.sent.count == 3)
    }
}
