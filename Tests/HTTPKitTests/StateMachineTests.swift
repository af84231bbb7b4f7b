import Foundation
import HTTPKit
import LeadTesting
import Testing

@Suite struct BackoffTests {
    @Test func withoutJitterTheWaitsDoubleUpToTheCapThenGiveUp() {
        var b = Backoff(policy: BackoffPolicy(maxAttempts: 10, jitter: false))
        var waits: [Backoff.Decision] = []
        for _ in 0..<10 { waits.append(b.failed()) }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { .retry(after: $0) } + [.giveUp])
    }

    @Test func jitterStaysBetweenHalfAndAllOfTheScheduleAndReplaysFromItsSeed() {
        func run(_ seed: UInt64) -> [Double] {
            var b = Backoff(policy: .standard, seed: seed)
            return (0..<5).compactMap { _ in if case .retry(let w) = b.failed() { return w } else { return nil } }
        }
        let waits = run(42)
        #expect(waits.count == 5)
        for (k, w) in waits.enumerated() {
            let scheduled = pow(2, Double(k))
            #expect(w >= scheduled / 2 && w <= scheduled, "attempt \(k + 1) waited \(w)")
        }
        #expect(run(42) == waits)
        #expect(run(43) != waits)
        var b = Backoff(policy: .standard, seed: 1)
        for _ in 0..<5 { _ = b.failed() }
        #expect(b.failed() == .giveUp, "six attempts in all")
    }

    @Test func retryAfterReplacesTheScheduleUnlessItIsTooLong() {
        var b = Backoff(policy: .standard, seed: 7)
        #expect(b.failed(retryAfter: 12) == .retry(after: 12))
        #expect(b.failed(retryAfter: 0) == .retry(after: 0))
        #expect(b.failed(retryAfter: 3_600) == .giveUp)
    }

    /// Issue 22 item 2: a quota refusal without Retry-After is backed off until its window
    /// has passed (60 s for a per-minute quota), not given up after six attempts in 31 s.
    @Test func aQuotaRefusalIsBackedOffUntilItsWindowHasPassed() {
        var b = Backoff(policy: BackoffPolicy(jitter: false))
        var waits: [Backoff.Decision] = []
        for _ in 0..<7 { waits.append(b.failed(quota: true)) }
        // 1 + 2 + 4 + 8 + 16 = 31 s; the sixth wait cut to 30 s, so the seventh attempt is the
        // first after the minute; refused even then, it is given up.
        #expect(waits == [1, 2, 4, 8, 16, 30].map { .retry(after: $0) } + [.giveUp])
        #expect(b.quotaWaited == 61)
        var hubSpot = Backoff(policy: BackoffPolicy(jitter: false, quotaWindow: 10))
        #expect((0..<6).map { _ in hubSpot.failed(quota: true) } == [1, 2, 4, 4, 16].map { .retry(after: $0) } + [.giveUp])
        // 5xx and a 429 with Retry-After keep their six attempts.
        var failures = Backoff(policy: BackoffPolicy(jitter: false))
        for _ in 0..<5 { _ = failures.failed(retryAfter: 2, quota: true) }
        #expect(failures.failed(retryAfter: 2, quota: true) == .giveUp)
    }

    @Test func retryAfterIsReadAsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(retryAfterSeconds("120") == 120)
        #expect(retryAfterSeconds(" 3 ") == 3)
        #expect(retryAfterSeconds("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(retryAfterSeconds("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == 0, "a date past is now")
        #expect(retryAfterSeconds("soon") == nil)
        #expect(retryAfterSeconds("-5") == nil)
        #expect(retryAfterSeconds(nil) == nil)
    }
}

@Suite struct RateLimiterTests {
    @Test func theDeclaredBudgetAllowsABurstThenPaces() {
        var l = RateLimiter(.declared(requests: 10, per: 1), now: 0)
        let burst = (0..<10).map { _ in l.acquire(now: 0) }
        #expect(burst.allSatisfy { $0.wait == 0 && $0.grant != nil })
        let next = l.acquire(now: 0)
        #expect(abs(next.wait - 0.1) < 1e-9 && next.grant == nil, "asked again after the wait, it takes its token then")
        // A second later the bucket has refilled what was owed and more.
        #expect(l.acquire(now: 1.2).wait == 0)
    }

    @Test func anEmptiedServerWindowWaitsForItsReset() throws {
        var l = RateLimiter(.declared(requests: 100, per: 10), now: 0)
        let grant = try #require(l.acquire(now: 0).grant)
        l.complete(grant, status: 200, headers: HTTPHeaders([("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "4")]), now: 0.5)
        let wait = l.acquire(now: 0.5).wait
        #expect(wait >= 4 && wait < 4.2, "\(wait)")
    }

    @Test func theServersRemainingNarrowsTheBudget() throws {
        var l = RateLimiter(.declared(requests: 100, per: 10), now: 0)
        let grant = try #require(l.acquire(now: 0).grant)
        l.complete(grant, status: 200, headers: HTTPHeaders([("RateLimit-Remaining", "2")]), now: 0)
        #expect(l.acquire(now: 0).wait == 0 && l.acquire(now: 0).wait == 0)
        #expect(l.acquire(now: 0).wait > 0, "two left in the server's window, not a hundred")
    }

    @Test func retryAfterOnA429BlocksEveryone() throws {
        var l = RateLimiter(.declared(requests: 100, per: 1), now: 0)
        let grant = try #require(l.acquire(now: 0).grant)
        l.complete(grant, status: 429, headers: HTTPHeaders([("Retry-After", "7")]), now: 1)
        #expect(l.acquire(now: 1).wait >= 7)
    }
}

/// A transport that answers from a script, one entry per request, and keeps what it was sent.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    enum Answer { case response(HTTPResponse), failure(HTTPTransportError) }
    private let lock = NSLock()
    private var script: [Answer]
    private(set) var sent: [HTTPRequest] = []

    init(_ script: [Answer]) { self.script = script }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let answer: Answer = lock.withLock {
            sent.append(request)
            return script.isEmpty ? .response(HTTPResponse(status: 200)) : script.removeFirst()
        }
        switch answer {
        case .response(let r): return r
        case .failure(let e): throw e
        }
    }
}

@Suite struct RetryTests {
    let url = URL(string: "https://api.example.com/v1/people")!

    @Test func a429WithRetryAfterWaitsExactlyThatLong() throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.response(HTTPResponse(status: 429, headers: HTTPHeaders([("Retry-After", "7")]))), .response(HTTPResponse(status: 201))])
        let client = HTTPClient(transport: transport, [Retry(clock: clock, seed: 1)])
        let response = try client.send(HTTPRequest(method: "POST", url: url, replayable: false))
        #expect(response.status == 201)
        #expect(clock.sleeps == [7])
        #expect(transport.sent.count == 2, "a 429 was refused before any work, so even a create is sent again")
    }

    @Test func aStormOf5xxBacksOffAndGivesUpWithTheLastAnswer() throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(Array(repeating: .response(HTTPResponse(status: 503)), count: 10))
        nonisolated(unsafe) var events: [Retry.Event] = []
        let client = HTTPClient(transport: transport, [Retry(clock: clock, seed: 9) { events.append($0) }])
        let response = try client.send(HTTPRequest(method: "PUT", url: url))
        #expect(response.status == 503)
        #expect(transport.sent.count == 6)
        #expect(clock.sleeps.count == 5)
        for (k, wait) in clock.sleeps.enumerated() { #expect(wait >= pow(2, Double(k)) / 2 && wait <= pow(2, Double(k))) }
        #expect(events.map(\.attempt) == [1, 2, 3, 4, 5] && events.allSatisfy { $0.status == 503 })
    }

    /// The issue's night: Google's per-minute write quota refusing (429 RESOURCE_EXHAUSTED, no
    /// Retry-After) until 58 s after the first refusal. The request gets through on the first
    /// attempt after that, on every jitter seed, instead of being given up at about 30 s.
    @Test func aQuotaWithoutRetryAfterIsWaitedOutToTheEndOfItsMinute() throws {
        for seed in UInt64(1)...20 {
            let clock = ManualClock()
            let transport = QuotaServer(clock: clock, refusingUntil: 58)
            let client = HTTPClient(transport: transport, [Retry(clock: clock, seed: seed)])
            let response = try client.send(HTTPRequest(method: "POST", url: url, replayable: false))
            #expect(response.status == 200, "seed \(seed): given up at \(clock.now) s")
            #expect(clock.now >= 58 && clock.now <= 61, "seed \(seed): \(clock.sleeps)")
        }
    }

    @Test func aDroppedConnectionIsRetriedOnlyWhenTheRequestCanBeReplayed() throws {
        let dropped = HTTPTransportError.connectionLost(url: url.absoluteString, reason: "reset by peer")
        let upsert = ScriptedTransport([.failure(dropped), .response(HTTPResponse(status: 200))])
        #expect(try HTTPClient(transport: upsert, [Retry(clock: ManualClock(), seed: 1)]).send(HTTPRequest(method: "POST", url: url, replayable: true)).status == 200)
        #expect(upsert.sent.count == 2)
        let create = ScriptedTransport([.failure(dropped), .response(HTTPResponse(status: 200))])
        #expect(throws: HTTPTransportError.self) {
            try HTTPClient(transport: create, [Retry(clock: ManualClock(), seed: 1)]).send(HTTPRequest(method: "POST", url: url, replayable: false))
        }
        #expect(create.sent.count == 1, "the server may have created it: not sent twice")
    }

    @Test func clientErrorsAreNotRetried() throws {
        let transport = ScriptedTransport([.response(HTTPResponse(status: 400)), .response(HTTPResponse(status: 200))])
        #expect(try HTTPClient(transport: transport, [Retry(clock: ManualClock(), seed: 1)]).send(HTTPRequest(url: url)).status == 400)
        #expect(transport.sent.count == 1)
    }

    @Test func eachRetryWaitsForTheLimiterAndCarriesTheCredentials() throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.response(HTTPResponse(status: 500)), .response(HTTPResponse(status: 200))])
        let client = HTTPClient(transport: transport, [Retry(policy: BackoffPolicy(jitter: false), clock: clock), RateLimit(requests: 1, per: 10, clock: clock), Auth(.bearer("s3cret-token"))])
        #expect(try client.send(HTTPRequest(url: url)).status == 200)
        // Backoff 1 s, then the limiter's remaining 9 s of its one-per-10-s window.
        #expect(clock.sleeps == [0, 1, 9])
        #expect(transport.sent.allSatisfy { $0.headers["authorization"] == "Bearer s3cret-token" })
    }
}

@Suite struct AuthAndRedactionTests {
    @Test func schemesSetTheirHeaders() throws {
        let transport = ScriptedTransport([])
        let auth = Auth(.apiKey(header: "apikey", value: "anon-key-1234"), .basic(user: "fub-key-5678", password: ""))
        _ = try HTTPClient(transport: transport, [auth]).send(HTTPRequest(url: URL(string: "https://x.example")!))
        let sent = try #require(transport.sent.first)
        #expect(sent.headers["APIKEY"] == "anon-key-1234")
        #expect(sent.headers["Authorization"] == "Basic " + Data("fub-key-5678:".utf8).base64EncodedString())
    }

    @Test func secretsLeaveNoTraceInTextHeadersOrURLs() {
        let auth = Auth(.bearer("eyJhbGciOi.secret.jwt"), .apiKey(header: "apikey", value: "sb_secret_abcdef"))
        let r = Redactor(secrets: auth.secrets)
        #expect(r.redact("401: token eyJhbGciOi.secret.jwt is expired") == "401: token [redacted] is expired")
        let headers = r.redact(HTTPHeaders([("Authorization", "Bearer anything"), ("X-Trace", "sb_secret_abcdef-1"), ("Accept", "application/json")]))
        #expect(headers["authorization"] == "[redacted]" && headers["x-trace"] == "[redacted]-1" && headers["accept"] == "application/json")
        let url = r.redact(URL(string: "https://user:pw@api.example.com/v1?hapikey=abc123&limit=5")!)
        #expect(!url.contains("abc123") && !url.contains(":pw@") && url.contains("limit=5"), "\(url)")
        #expect(Redactor(secrets: ["ab"]).redact("tab") == "tab", "too short to mask safely")
    }

    @Test func theLogLineCarriesNoSecret() throws {
        nonisolated(unsafe) var lines: [String] = []
        let auth = Auth(.bearer("tok-98765"))
        let failing = ScriptedTransport([.failure(.failed(url: "https://x.example/?token=tok-98765", reason: "refused tok-98765"))])
        let client = HTTPClient(transport: failing, [RedactedLog(redactor: Redactor(secrets: auth.secrets), clock: ManualClock()) { lines.append($0) }, auth])
        _ = try? client.send(HTTPRequest(url: URL(string: "https://x.example/?token=tok-98765")!))
        #expect(lines.count == 1 && !lines[0].contains("tok-98765"), "\(lines)")
    }

    @Test func concurrencyIsBounded() throws {
        final class Counting: HTTPTransport, @unchecked Sendable {
            let lock = NSLock()
            var now = 0, most = 0
            func send(_ request: HTTPRequest) throws -> HTTPResponse {
                lock.withLock { now += 1; most = max(most, now) }
                Thread.sleep(forTimeInterval: 0.05)
                lock.withLock { now -= 1 }
                return HTTPResponse(status: 200)
            }
        }
        let transport = Counting()
        let client = HTTPClient(transport: transport, concurrency: 3)
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread { _ = try? client.send(HTTPRequest(url: URL(string: "https://x.example")!)); group.leave() }.start()
        }
        group.wait()
        #expect(transport.most == 3, "eight threads at once, three in flight")
    }
}

/// A quota that refuses every request until a moment on the clock, as Google does: 429
/// RESOURCE_EXHAUSTED with no Retry-After.
struct QuotaServer: HTTPTransport {
    let clock: ManualClock
    let refusingUntil: Double

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        guard clock.now >= refusingUntil else {
            return HTTPResponse(status: 429, body: Data(#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}"#.utf8))
        }
        return HTTPResponse(status: 200)
    }
}

/// `FailFast` (issue 22 item 6) on a manual clock: the streak of server failures across
/// requests, ended by any other answer, stopping the client once it lasts `failAfter`.
@Suite struct FailFastTests {
    let url = URL(string: "https://hooks.example.com/catch")!

    @Test func aStreakOf5xxLongerThanTheLimitStopsAcrossRequests() throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(Array(repeating: .response(HTTPResponse(status: 500)), count: 20))
        let client = HTTPClient(transport: transport, [Retry(clock: clock, seed: 3), FailFast(after: 10, clock: clock)])
        // The first request's six attempts span some 15-31 s of backoff: the limit ends them,
        // with FailFast's error rather than the last 500.
        #expect(throws: FailFast.Unavailable.self) { try client.send(HTTPRequest(method: "POST", url: url)) }
        #expect(clock.now >= 10)
        let attempts = transport.sent.count
        // The next request, still failing, stops at its first attempt.
        #expect(throws: FailFast.Unavailable.self) { try client.send(HTTPRequest(method: "POST", url: url)) }
        #expect(transport.sent.count == attempts + 1)
    }

    @Test func anyOtherAnswerEndsTheStreak() throws {
        let clock = ManualClock()
        let dropped = HTTPTransportError.connectionLost(url: url.absoluteString, reason: "reset")
        let transport = ScriptedTransport([.response(HTTPResponse(status: 502)), .failure(dropped), .response(HTTPResponse(status: 422)),
                                           .response(HTTPResponse(status: 503)), .response(HTTPResponse(status: 200))])
        let failFast = FailFast(after: 2, clock: clock)
        let client = HTTPClient(transport: transport, [failFast])
        #expect(try client.send(HTTPRequest(url: url)).status == 502)
        clock.sleep(1.5)
        #expect(throws: HTTPTransportError.self) { try client.send(HTTPRequest(url: url)) }
        clock.sleep(1.5)
        // 3 s after the streak began, but a 4xx ends it rather than stopping.
        #expect(try client.send(HTTPRequest(url: url)).status == 422)
        clock.sleep(1.5)
        #expect(try client.send(HTTPRequest(url: url)).status == 503, "a new streak, 0 s old")
        #expect(try client.send(HTTPRequest(url: url)).status == 200)
    }
}
