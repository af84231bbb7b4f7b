import HTTPKit
import LeadEnrich
import LeadTesting
import Testing

/// The OpenAI client's use of its limiter: each request acquired with its cost, and an answer
/// handed back for the oldest request not yet answered.
private final class Pacer {
    let limit: RateLimit
    private var granted: [RateLimiter.Grant] = []
    init(clock: ManualClock) { limit = RateLimit(.openAI, clock: clock) }

    /// The seconds waited.
    @discardableResult
    func acquire(tokens: Int) -> Double {
        let (grant, waited) = limit.acquire(cost: Double(tokens))
        granted.append(grant)
        return waited
    }

    func observe(status: Int, headers: HTTPHeaders) {
        limit.complete(granted.isEmpty ? limit.acquire().grant : granted.removeFirst(), status: status, headers: headers)
    }

    var requests: RateLimiter.Reading? { limit.reading("requests") }
    var tokens: RateLimiter.Reading? { limit.reading("tokens") }
}

/// The two per-minute limits of an OpenAI-compatible endpoint (`RateLimits.openAI`), kept
/// before sending, on a clock that moves only when slept on.
@Suite struct OpenAIRateLimitsTests {
    static func headers(requests: Int = 500, remainingRequests: Int? = nil, tokens: Int, remainingTokens: Int? = nil, extra: [(String, String)] = []) -> HTTPHeaders {
        HTTPHeaders([("x-ratelimit-limit-requests", "\(requests)"), ("x-ratelimit-remaining-requests", "\(remainingRequests ?? requests)"),
                     ("x-ratelimit-limit-tokens", "\(tokens)"), ("x-ratelimit-remaining-tokens", "\(remainingTokens ?? tokens)")] + extra)
    }

    /// Tokens: a minute's worth at once, then as they refill (limit / 60 a second).
    @Test func tokensAreSpentThenWaitedForAsTheyRefill() {
        let clock = ManualClock()
        let pacer = Pacer(clock: clock)
        #expect(pacer.acquire(tokens: 100) == 0)  // the first, before any limit is known
        pacer.observe(status: 200, headers: Self.headers(tokens: 6_000, remainingTokens: 5_900))
        #expect(pacer.acquire(tokens: 3_000) == 0)
        #expect(pacer.acquire(tokens: 2_900) == 0)
        // Empty: 3,000 tokens at 100 a second.
        #expect(abs(pacer.acquire(tokens: 3_000) - 30) < 0.01)
        // A request larger than the whole minute goes once the bucket is full.
        #expect(abs(pacer.acquire(tokens: 10_000) - 60) < 0.01)
    }

    /// What the server says remains wins over what the pacer counted (other clients spend too).
    @Test func theServersRemainingCountsOverTheLocalCount() {
        let clock = ManualClock()
        let pacer = Pacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 200, headers: Self.headers(tokens: 6_000, remainingTokens: 600))
        #expect(pacer.acquire(tokens: 600) == 0)
        #expect(abs(pacer.acquire(tokens: 100) - 1) < 0.01)
    }

    /// Requests: with 60 a minute left at none, one a second.
    @Test func requestsPerMinuteAreKeptToo() {
        let clock = ManualClock()
        let pacer = Pacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 200, headers: Self.headers(requests: 60, remainingRequests: 0, tokens: 1_000_000))
        #expect(abs(pacer.acquire(tokens: 10) - 1) < 0.01)
        #expect(abs(pacer.acquire(tokens: 10) - 1) < 0.01)
    }

    /// A 429 closes the buckets for what it asks: retry-after-ms first, else retry-after.
    @Test func a429IsWaitedOutByItsHeaders() {
        let clock = ManualClock()
        let pacer = Pacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 429, headers: Self.headers(tokens: 1_000_000, extra: [("retry-after-ms", "1574"), ("retry-after", "2")]))
        #expect(abs(pacer.acquire(tokens: 10) - 1.574) < 0.01)
        pacer.observe(status: 429, headers: Self.headers(tokens: 1_000_000, extra: [("retry-after", "3")]))
        #expect(abs(pacer.acquire(tokens: 10) - 3) < 0.01)
        #expect(RateLimits.openAI.retryAfter(HTTPHeaders([("retry-after-ms", "250")])) == 0.25)
        #expect(RateLimits.openAI.retryAfter(HTTPHeaders()) == nil)
    }

    // MARK: Windows learnt from x-ratelimit-reset-* (issue 22 item 2)

    @Test func resetDurationsAreReadInEveryFormTheServersWrite() {
        let cases: [(String, Double)] = [("6m0s", 360), ("1s", 1), ("20ms", 0.02), ("2.5s", 2.5), ("7.66s", 7.66),
                                         ("2m59.56s", 179.56), ("1h0m0s", 3600), ("0", 0), ("5", 5), ("12.5", 12.5)]
        for (text, seconds) in cases {
            let read = HeaderTime.duration.seconds(text)
            #expect(read != nil && abs(read! - seconds) < 1e-9, "\(text) read as \(String(describing: read))")
        }
        for bad in ["", "soon", "5x", "1m-2s", "-3"] { #expect(HeaderTime.duration.seconds(bad) == nil, "\(bad)") }
    }

    /// OpenAI's documented sample: 60 requests, 59 left, full again in 1 s: a minute's window.
    /// Its token sample (16 of 150,000 spent, `6m0s`) is under the rounding and changes nothing.
    @Test func openAIsSampleIsAMinute() {
        let pacer = Pacer(clock: ManualClock())
        pacer.acquire(tokens: 1)
        pacer.observe(status: 200, headers: Self.headers(requests: 60, remainingRequests: 59, tokens: 150_000, remainingTokens: 149_984,
                                                         extra: [("x-ratelimit-reset-requests", "1s"), ("x-ratelimit-reset-tokens", "6m0s")]))
        #expect(pacer.requests?.span == 60)
        #expect(pacer.tokens?.span == 60)
    }

    /// Groq's documented sample: the request limit is per day (14,400 a day, 14,370 left, full
    /// again in 2m59.56s): the requests refill over a day, not a minute, so with none left the
    /// next request waits six seconds, not a quarter of one.
    @Test func groqsRequestLimitIsLearntPerDay() throws {
        let clock = ManualClock()
        let pacer = Pacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 200, headers: Self.headers(requests: 14_400, remainingRequests: 14_370, tokens: 18_000, remainingTokens: 17_997,
                                                         extra: [("x-ratelimit-reset-requests", "2m59.56s"), ("x-ratelimit-reset-tokens", "7.66s")]))
        let day = try #require(pacer.requests?.span)
        #expect(abs(day - 86_188.8) < 0.1, "\(day)")
        #expect(pacer.tokens?.span == 60, "3 tokens of 18,000 spent is under the rounding")
        pacer.observe(status: 200, headers: Self.headers(requests: 14_400, remainingRequests: 0, tokens: 18_000,
                                                         extra: [("x-ratelimit-reset-requests", "23h59m54s")]))
        #expect(abs(pacer.acquire(tokens: 10) - 86_394 / 14_400) < 0.01)
    }

    /// Azure counts requests in short windows: 10 a window, 9 left, full again in 1 s is a
    /// 10-second window, and with none left a request waits 1 s, not 6. Its `-1` limits and a
    /// `0` reset (seen on Azure's Responses API) say nothing and change nothing.
    @Test func azuresShorterWindowsAndItsEmptyHeaders() {
        let clock = ManualClock()
        let pacer = Pacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 200, headers: Self.headers(requests: 10, remainingRequests: 9, tokens: 10_000, remainingTokens: 9_000,
                                                         extra: [("x-ratelimit-reset-requests", "1s"), ("x-ratelimit-reset-tokens", "1")]))
        #expect(pacer.requests?.span == 10)
        #expect(pacer.tokens?.span == 10)
        pacer.observe(status: 200, headers: HTTPHeaders([("x-ratelimit-limit-tokens", "-1"), ("x-ratelimit-remaining-tokens", "-1"),
                                                         ("x-ratelimit-reset-tokens", "0"), ("x-ratelimit-limit-requests", "10"),
                                                         ("x-ratelimit-remaining-requests", "0")]))
        #expect(pacer.tokens?.span == 10 && pacer.tokens?.limit == 10_000)
        #expect(abs(pacer.acquire(tokens: 10) - 1) < 0.01)
    }

    /// A 429 without retry-after waits for the reset of the limit it spent.
    @Test func a429WithoutRetryAfterWaitsForTheResetOfTheSpentLimit() {
        let clock = ManualClock()
        let pacer = Pacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 429, headers: Self.headers(requests: 60, remainingRequests: 0, tokens: 1_000_000,
                                                         extra: [("x-ratelimit-reset-requests", "20s"), ("x-ratelimit-reset-tokens", "1ms")]))
        #expect(pacer.limit.blocked)
        #expect(pacer.requests?.span == 20)
        #expect(abs(pacer.acquire(tokens: 10) - 20) < 0.01)
        #expect(!pacer.limit.blocked)
    }
}
