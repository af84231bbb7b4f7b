import Foundation
import HTTPKit
@testable import LeadConnectors
import Testing

/// HubSpot's windows (`RateLimits.hubSpot`) in HTTPKit's limiter, asked as the client's chain
/// asks it: a grant kept per request until its answer.
private final class Limits {
    private var limiter: RateLimiter
    private var granted: [Bool: [RateLimiter.Grant]] = [:]

    init(burst: Int, interval: Double, searchPerSecond: Int) {
        limiter = RateLimiter(.hubSpot(burst: burst, interval: interval, searchPerSecond: searchPerSecond), now: 0)
    }

    /// 0 and a slot taken, or the seconds to wait before asking again.
    func reserve(search: Bool, now: Double) -> Double {
        let (wait, grant) = limiter.acquire(route: search ? "search" : "", now: now)
        if let grant { granted[search, default: []].append(grant) }
        return wait
    }

    func observe(search: Bool, status: Int?, headers: HTTPHeaders, now: Double) {
        guard let grant = granted[search]?.first else { return }
        granted[search]!.removeFirst()
        limiter.complete(grant, route: search ? "search" : "", status: status, headers: headers, now: now)
    }

    func lost(search: Bool, now: Double) { observe(search: search, status: nil, headers: HTTPHeaders(), now: now) }

    var daily: RateLimiter.Reading? { limiter.reading("daily") }
}

/// The HubSpot client's limiter and classifiers as state machines: methods called, returned
/// waits and decisions checked, no I/O.
@Suite struct HubSpotRateLimitTests {
    private func headers(max: Int = 100, remaining: Int, interval: Int = 10000) -> HTTPHeaders {
        HTTPHeaders([("X-HubSpot-RateLimit-Max", String(max)), ("X-HubSpot-RateLimit-Remaining", String(remaining)),
                     ("X-HubSpot-RateLimit-Interval-Milliseconds", String(interval))])
    }

    @Test func aFullWindowWaitsUntilItsOldestAnswerLeavesIt() {
        let limits = Limits(burst: 100, interval: 10, searchPerSecond: 5)
        for n in 0..<100 {
            #expect(limits.reserve(search: false, now: 0) == 0)
            limits.observe(search: false, status: 200, headers: headers(remaining: 99 - n), now: 0.5 + Double(n) * 0.01)
        }
        let wait = limits.reserve(search: false, now: 2)
        #expect(abs(wait - 8.5) < 1e-9, "the first answer (0.5 s) leaves the window at 10.5 s")
        #expect(limits.reserve(search: false, now: 10.502) == 0)
        #expect(limits.reserve(search: false, now: 10.502) > 0, "only the one slot freed")
    }

    @Test func requestsInFlightHoldTheirSlots() {
        let limits = Limits(burst: 3, interval: 10, searchPerSecond: 5)
        for _ in 0..<3 { #expect(limits.reserve(search: false, now: 0) == 0) }
        #expect(limits.reserve(search: false, now: 0) == 0.05, "none answered yet: ask again shortly")
        limits.lost(search: false, now: 1)
        #expect(limits.reserve(search: false, now: 1) > 9, "a lost answer may have been counted: it holds its slot")
    }

    @Test func theServersCountAndMaxAndIntervalOverrideTheDeclaredBudget() {
        let limits = Limits(burst: 100, interval: 10, searchPerSecond: 5)
        #expect(limits.reserve(search: false, now: 0) == 0)
        // Another client on the token has spent 95 of this window.
        limits.observe(search: false, status: 200, headers: headers(remaining: 4), now: 0.1)
        for _ in 0..<4 { #expect(limits.reserve(search: false, now: 0.2) == 0) }
        #expect(limits.reserve(search: false, now: 0.2) > 9.8)

        let bigger = Limits(burst: 100, interval: 10, searchPerSecond: 5)
        #expect(bigger.reserve(search: false, now: 0) == 0)
        bigger.observe(search: false, status: 200, headers: headers(max: 3, remaining: 2, interval: 1000), now: 0.1)
        for _ in 0..<2 { #expect(bigger.reserve(search: false, now: 0.2) == 0) }
        #expect(abs(bigger.reserve(search: false, now: 0.2) - 0.9) < 1e-9, "3 a second, from the headers")
    }

    @Test func a429BlocksForItsRetryAfterOrAWholeIntervalAndIsNotCounted() {
        let limits = Limits(burst: 100, interval: 10, searchPerSecond: 5)
        #expect(limits.reserve(search: false, now: 0) == 0)
        limits.observe(search: false, status: 429, headers: HTTPHeaders([("Retry-After", "2")]), now: 0.1)
        #expect(abs(limits.reserve(search: false, now: 0.1) - 2) < 1e-9)
        #expect(limits.reserve(search: false, now: 2.1) == 0)
        limits.observe(search: false, status: 429, headers: HTTPHeaders(), now: 2.2)
        #expect(abs(limits.reserve(search: false, now: 2.2) - 10) < 1e-9, "no Retry-After: the interval")
        #expect(limits.reserve(search: true, now: 2.2) == 0, "search has its own window")
    }

    @Test func searchTakesFiveASecond() {
        let limits = Limits(burst: 100, interval: 10, searchPerSecond: 5)
        for n in 0..<5 {
            #expect(limits.reserve(search: true, now: 0) == 0)
            limits.observe(search: true, status: 200, headers: HTTPHeaders(), now: 0.1 + Double(n) * 0.1)
        }
        #expect(abs(limits.reserve(search: true, now: 0.6) - 0.5) < 1e-9)
        #expect(limits.reserve(search: false, now: 0.6) == 0, "the ten-second window is untouched")
    }

    @Test func theDailyFiguresAreKeptFromTheHeaders() {
        let limits = Limits(burst: 100, interval: 10, searchPerSecond: 5)
        #expect(limits.reserve(search: false, now: 0) == 0)
        limits.observe(search: false, status: 200, headers: HTTPHeaders([("X-HubSpot-RateLimit-Daily", "250000"), ("X-HubSpot-RateLimit-Daily-Remaining", "17")]), now: 0)
        #expect(limits.daily?.statedLimit == 250000 && limits.daily?.statedRemaining == 17)
    }

    @Test func onlyAConnectionNeverMadeCountsAsUnreachable() {
        let url = "http://127.0.0.1:1/crm/v3/objects/contacts/batch/upsert"
        let never = ["Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server", "Connection refused",
                     "Could not resolve host: api.hubapi.invalid", "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to api.hubapi.com:443",
                     "SSL certificate problem: unable to get local issuer certificate"]
        // CurlTransport reports connect, resolve and TLS failures as unreachable.
        for reason in never { #expect(HubSpotGuard.isUnreachable(.unreachable(url: url, reason: reason)), "\(reason)") }
        let lost = ["Empty reply from server", "Recv failure: Connection reset by peer", "OpenSSL SSL_read: Connection reset by peer, errno 104"]
        for reason in lost { #expect(!HubSpotGuard.isUnreachable(.connectionLost(url: url, reason: reason)), "\(reason)") }
        #expect(!HubSpotGuard.isUnreachable(.timedOut(url: url)))
    }

    @Test func aValidationMessagesEmbeddedJSONNamesThePropertiesEvenWithTextAfterIt() {
        let message = #"Property values were not valid: [{"isValid":false,"message":"Email address x@ is invalid","error":"INVALID_EMAIL","name":"email"}] (credential: [redacted])"#
        let rejection = HubSpotAPI.rejection(status: 400, category: "VALIDATION_ERROR", message: message)
        #expect(rejection == HubSpotRejection(status: 400, category: "VALIDATION_ERROR", property: "email", code: "INVALID_EMAIL", message: "Email address x@ is invalid",
                                              problems: [.init(property: "email", code: "INVALID_EMAIL", message: "Email address x@ is invalid")]))
        // Refused for the property it is keyed by, the record is refused whole; for another, only that property.
        let payload = HubSpotContactPayload(properties: ["email": "x@", "firstname": "Ann"])
        #expect(rejection.refusedFields(of: payload, keys: ["email"]) == nil)
        #expect(rejection.refusedFields(of: payload, keys: [])?.map(\.property) == ["email"])
        #expect(rejection.description == "email: Email address x@ is invalid (INVALID_EMAIL)")
        let plain = HubSpotAPI.rejection(status: 400, category: "VALIDATION_ERROR", message: "At least one of email, firstname or lastname is required")
        #expect(plain.property == nil && plain.description == "At least one of email, firstname or lastname is required (VALIDATION_ERROR)")
    }

    @Test func batchesHoldAtMost100AndNoKeyTwice() {
        let keys = (0..<250).map { $0 == 10 || $0 == 20 ? "same" : "k\($0)" }
        let runs = HubSpotAPI.chunks(Array(keys.indices)) { keys[$0] }
        #expect(runs.map(\.count) == [100, 100, 50])
        #expect(runs.allSatisfy { Set($0.map { keys[$0] }).count == $0.count })
        #expect(runs[1].contains(20), "the repeated key waits for the next request")
        #expect(Set(runs.joined()) == Set(keys.indices))
    }
}
