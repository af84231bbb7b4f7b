import Foundation
import HTTPKit
import LeadTesting
import Testing

/// CurlTransport and the middleware against a real HTTP server on this machine
/// (fixtures/servers/scripted_http.py), on the system clock with short waits.
@Suite(.serialized) struct TransportTests {
    let server: LocalServer
    init() throws { server = try LocalServer(script: "servers/scripted_http.py") }

    private func client(_ policy: BackoffPolicy = BackoffPolicy(base: 0.05, cap: 0.2, maxAttempts: 4)) -> HTTPClient {
        HTTPClient(transport: CurlTransport(), [Retry(policy: policy)])
    }

    private func count(_ id: String) throws -> Int {
        Int(try CurlTransport().send(HTTPRequest(url: server.url("/count?id=\(id)"))).text) ?? -1
    }

    @Test func headersBodyAndStatusGoBothWays() throws {
        let request = HTTPRequest(method: "POST", url: server.url("/echo"), headers: HTTPHeaders([("X-Test", "1"), ("Content-Type", "application/json")]),
                                  body: Data(#"[{"a":1}]"#.utf8))
        let response = try CurlTransport().send(request)
        #expect(response.status == 200 && response.headers["content-type"] == "application/json")
        let echoed = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(echoed["method"] as? String == "POST" && echoed["length"] as? Int == 9)
        #expect((echoed["headers"] as? [String: String])?["X-Test"] == "1")
    }

    @Test func a429WithRetryAfterIsWaitedOutThenSucceeds() throws {
        let start = Date()
        let response = try client().send(HTTPRequest(url: server.url("/flaky?id=429a&fail=1&status=429")))
        #expect(response.status == 200)
        let plain = try CurlTransport().send(HTTPRequest(url: server.url("/status/429?retry_after=1")))
        #expect(plain.status == 429 && retryAfterSeconds(plain.headers["retry-after"]) == 1)
        let waited = try client(BackoffPolicy(base: 0.01, maxAttempts: 2)).send(HTTPRequest(url: server.url("/status/429?retry_after=1")))
        #expect(waited.status == 429, "still refused after its one retry")
        #expect(Date().timeIntervalSince(start) >= 1, "the Retry-After second was waited")
    }

    @Test func aStormOf5xxEndsWhenTheServerRecoversOrTheAttemptsRunOut() throws {
        #expect(try client().send(HTTPRequest(url: server.url("/flaky?id=storm1&fail=3&status=502"))).status == 200)
        #expect(try count("storm1") == 4)
        #expect(try client().send(HTTPRequest(url: server.url("/flaky?id=storm2&fail=9&status=503"))).status == 503)
        #expect(try count("storm2") == 4, "four attempts in all")
    }

    @Test func aConnectionDroppedAfterTheServerReadTheRequest() throws {
        // A replayable request is sent again (the server saw it each time); a create is not.
        #expect(throws: HTTPTransportError.self) { try client().send(HTTPRequest(method: "POST", url: server.url("/drop?id=d1"), body: Data("{}".utf8))) }
        #expect(try count("d1") == 4)
        do {
            _ = try client().send(HTTPRequest(method: "POST", url: server.url("/drop?id=d2"), body: Data("{}".utf8), replayable: false))
            Issue.record("a dropped connection must be an error")
        } catch let error as HTTPTransportError {
            #expect(error.isTransient, "\(error)")
        }
        #expect(try count("d2") == 1)
    }

    @Test func aSlowServerTimesOut() throws {
        #expect(throws: HTTPTransportError.timedOut(url: server.url("/slow?seconds=3").absoluteString)) {
            try CurlTransport().send(HTTPRequest(url: server.url("/slow?seconds=3"), timeout: 0.5))
        }
    }

    /// A server that drops a kept-alive connection mid-request: libcurl tries once more on a
    /// new connection, and when that is dropped too the exchange fails at once as a lost
    /// connection. (Foundation's URLSession stalled here until the timeout: docs/http.md.)
    @Test func aDroppedKeptAliveConnectionFailsAtOnce() throws {
        let transport = CurlTransport()
        _ = try transport.send(HTTPRequest(url: server.url("/echo")))
        let start = Date()
        do {
            _ = try transport.send(HTTPRequest(method: "POST", url: server.url("/drop?id=kept"), body: Data("{}".utf8), timeout: 20))
            Issue.record("a dropped connection must be an error")
        } catch let error as HTTPTransportError {
            guard case .connectionLost = error else { Issue.record("\(error)"); return }
        }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(try count("kept") == 2, "libcurl's own second try on a new connection reached the server")
    }

    /// A request that must not be sent twice (a create) never rides a kept-alive connection:
    /// libcurl's own second try on a new connection would have made the record twice (found by
    /// the CRM clients' tests: a dropped create made contacts 103 and 104).
    @Test func aRequestThatMustNotBeSentTwiceIsNotSentAgainByLibcurl() throws {
        let transport = CurlTransport()
        _ = try transport.send(HTTPRequest(url: server.url("/echo")))
        #expect(throws: HTTPTransportError.self) {
            try transport.send(HTTPRequest(method: "POST", url: server.url("/drop?id=once"), body: Data("{}".utf8), replayable: false, timeout: 20))
        }
        #expect(try count("once") == 1)
    }
}
