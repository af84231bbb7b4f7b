import HTTPKit
import LeadEnrich
import Testing

/// The two per-minute limits of an OpenAI-compatible endpoint, kept before sending (issue 14
/// item 4), on a clock that moves only when slept on.
@Suite struct TokenPacerTests {
    static func headers(requests: Int = 500, remainingRequests: Int? = nil, tokens: Int, remainingTokens: Int? = nil, extra: [(String, String)] = []) -> HTTPHeaders {
        HTTPHeaders([("x-ratelimit-limit-requests", "\(requests)"), ("x-ratelimit-remaining-requests", "\(remainingRequests ?? requests)"),
                     ("x-ratelimit-limit-tokens", "\(tokens)"), ("x-ratelimit-remaining-tokens", "\(remainingTokens ?? tokens)")] + extra)
    }

    /// Tokens: a minute's worth at once, then as they refill (limit / 60 a second).
    @Test func tokensAreSpentThenWaitedForAsTheyRefill() {
        let clock = ManualClock()
        let pacer = TokenPacer(clock: clock)
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
        let pacer = TokenPacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 200, headers: Self.headers(tokens: 6_000, remainingTokens: 600))
        #expect(pacer.acquire(tokens: 600) == 0)
        #expect(abs(pacer.acquire(tokens: 100) - 1) < 0.01)
    }

    /// Requests: with 60 a minute left at none, one a second.
    @Test func requestsPerMinuteAreKeptToo() {
        let clock = ManualClock()
        let pacer = TokenPacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 200, headers: Self.headers(requests: 60, remainingRequests: 0, tokens: 1_000_000))
        #expect(abs(pacer.acquire(tokens: 10) - 1) < 0.01)
        #expect(abs(pacer.acquire(tokens: 10) - 1) < 0.01)
    }

    /// A 429 closes the buckets for what it asks: retry-after-ms first, else retry-after.
    @Test func a429IsWaitedOutByItsHeaders() {
        let clock = ManualClock()
        let pacer = TokenPacer(clock: clock)
        pacer.acquire(tokens: 1)
        pacer.observe(status: 429, headers: Self.headers(tokens: 1_000_000, extra: [("retry-after-ms", "1574"), ("retry-after", "2")]))
        #expect(abs(pacer.acquire(tokens: 10) - 1.574) < 0.01)
        pacer.observe(status: 429, headers: Self.headers(tokens: 1_000_000, extra: [("retry-after", "3")]))
        #expect(abs(pacer.acquire(tokens: 10) - 3) < 0.01)
        #expect(TokenPacer.retryAfter(HTTPHeaders([("retry-after-ms", "250")])) == 0.25)
        #expect(TokenPacer.retryAfter(HTTPHeaders()) == nil)
    }
}
