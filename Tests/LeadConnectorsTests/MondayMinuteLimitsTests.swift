import Foundation
import HTTPKit
@testable import LeadConnectors
import LeadTesting
import Testing

/// monday.com's per-minute limit answers through the client's chain, on a manual clock: each
/// pauses the run as long as monday.com says, and the same request then goes again.
@Suite struct MondayMinuteLimitsTests {
    /// Answers in turn, counting the requests.
    final class Answers: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var left: [HTTPResponse]
        private(set) var sent = 0
        init(_ answers: [(Int, [(String, String)], String)]) {
            left = answers.map { HTTPResponse(status: $0.0, headers: HTTPHeaders($0.1), body: Data($0.2.utf8)) }
        }
        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            try lock.withLock {
                sent += 1
                guard !left.isEmpty else { throw HTTPTransportError.connectionLost(url: request.url.absoluteString, reason: "no more answers") }
                return left.removeFirst()
            }
        }
    }

    static let created = (200, [(String, String)](), #"{"data": {"create_item": {"id": "91"}}}"#)

    func api(_ transport: Answers, _ clock: ManualClock) -> MondayAPI {
        MondayAPI(config: MondayConfig(token: "monday-secret-token", board: "1"), policy: MondayClientPolicy(backoff: BackoffPolicy(jitter: false)),
                  transport: transport, clock: clock)
    }

    static func error(_ body: () throws -> MondayAPI.Written) -> MondayError? {
        do { _ = try body() } catch let error as MondayError { return error } catch { return nil }
        return nil
    }

    @Test func anExhaustedBudgetAnsweredWith200PausesForItsRetryInSeconds() throws {
        let exhausted = (200, [(String, String)](), #"{"errors": [{"message": "Complexity budget exhausted", "extensions": {"code": "COMPLEXITY_BUDGET_EXHAUSTED", "retry_in_seconds": 40, "status_code": 429}}]}"#)
        let transport = Answers([exhausted, Self.created])
        let clock = ManualClock()
        let written = try api(transport, clock).create(board: "1", name: "Ann", values: "{}")
        #expect(written == .item(id: "91"))
        #expect(transport.sent == 2, "the create went again: the refused one did nothing")
        #expect(clock.now >= 40 && clock.now < 41, "\(clock.sleeps)")
    }

    @Test func theOlderComplexityExceptionIsWaitedOutFromItsText() throws {
        let old = (200, [(String, String)](), #"{"error_code": "ComplexityException", "status_code": 429, "error_message": "Complexity budget exhausted, query cost 30001 budget remaining 100 out of 1000000 reset in 3 seconds"}"#)
        let transport = Answers([old, Self.created])
        let clock = ManualClock()
        #expect(try api(transport, clock).create(board: "1", name: "Ann", values: "{}") == .item(id: "91"))
        #expect(clock.now >= 3 && clock.now < 4, "\(clock.sleeps)")
    }

    @Test func a429WithoutRetryAfterTakesItFromTheBodyOrBacksOff() throws {
        let fromBody = (429, [(String, String)](), #"{"errors": [{"message": "Rate Limit Exceeded", "extensions": {"code": "RATE_LIMIT_EXCEEDED", "retry_in_seconds": 7}}]}"#)
        let bare = (429, [(String, String)](), #"{"errors": [{"message": "Rate Limit Exceeded", "extensions": {"code": "RATE_LIMIT_EXCEEDED"}}]}"#)
        let transport = Answers([fromBody, bare, Self.created])
        let clock = ManualClock()
        #expect(try api(transport, clock).create(board: "1", name: "Ann", values: "{}") == .item(id: "91"))
        #expect(transport.sent == 3)
        // 7 s as the body said, then the backoff's second step (2 s, no jitter here).
        #expect(clock.now >= 9 && clock.now < 10, "\(clock.sleeps)")
    }

    @Test func theDailyLimitStopsAndTheTokenNeverShows() throws {
        let daily = (200, [(String, String)](), #"{"errors": [{"message": "Daily limit exceeded for monday-secret-token", "extensions": {"code": "DAILY_LIMIT_EXCEEDED", "status_code": 429}}]}"#)
        let clock = ManualClock()
        let error = Self.error { try api(Answers([daily]), clock).create(board: "1", name: "Ann", values: "{}") }
        #expect(error?.kind == .dailyLimit && error?.message.contains("midnight UTC") == true, "\(String(describing: error))")
        #expect(error?.message.contains("monday-secret-token") == false)
        #expect(clock.now == 0)
    }

    @Test func aLostCreateIsNotSentAgainByTheClient() throws {
        let transport = Answers([])
        #expect(Self.error { try api(transport, ManualClock()).create(board: "1", name: "Ann", values: "{}") }?.kind == .answerLost)
        #expect(transport.sent == 1, "the destination settles it by a look-up")
    }
}
