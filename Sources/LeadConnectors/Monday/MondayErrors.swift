import Foundation
import LeadCore

/// Everything the monday.com client throws. `message` says what to do and never holds a
/// secret: what came from monday.com or the transport went through the client's `Redactor`.
///
/// | kind | the run | exit |
/// | --- | --- | --- |
/// | `configuration` | nothing sent | 2 |
/// | `credentialsRefused`, `unreachable`, `dailyLimit`, `gaveUp` | this destination stops; its unsent rows stay pending | 1 |
/// | `answerLost` | settled inside the run by a look-up (`MondayDestination+Settle`); thrown on only when the look-up fails too | 1 |
public struct MondayError: Error, Sendable, Equatable, CustomStringConvertible, Classified {
    public enum Kind: Sendable, Equatable {
        case configuration
        /// 401 or 403, or `UNAUTHENTICATED`: the token is wrong, revoked, or cannot reach the board.
        case credentialsRefused
        /// Nothing answered: refused connection, unknown host, TLS.
        case unreachable
        /// The request went and its answer was lost (dropped, timed out, or a 500, 502 or 504
        /// that may follow a write monday.com applied).
        case answerLost
        /// `DAILY_LIMIT_EXCEEDED`: the account's calls for the day are used up (midnight UTC).
        case dailyLimit
        /// 429 or 5xx outlasted every retry, or the server failed for `LEADPORT_FAIL_AFTER`.
        case gaveUp
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        (self.kind, self.message) = (kind, message)
    }

    public var disposition: FailureDisposition { kind == .configuration ? .usage : .terminal }
    public var description: String { "monday: " + message }

    /// As the run sees it: settings are a usage error (exit 2), the rest stops the destination.
    var stop: DestinationError { DestinationError(destination: MondayDestination.kind, message: message, disposition: disposition) }
}

/// One GraphQL error as monday.com sends it (`errors[]`: `message`, `extensions.code`,
/// `extensions.error_data`), or the older shape (`error_code`, `error_message` at the top).
struct MondayGraphQLError: Sendable, Equatable, CustomStringConvertible {
    var code: String?
    var message: String
    /// `extensions.retry_in_seconds` (or `retry_in_seconds` at the top), for the per-minute limits.
    var retryIn: Double?

    /// The errors of a GraphQL answer body, in both shapes.
    static func all(in json: [String: Any]?) -> [MondayGraphQLError] {
        guard let json else { return [] }
        var found = (json["errors"] as? [[String: Any]] ?? []).map { error -> MondayGraphQLError in
            let extensions = error["extensions"] as? [String: Any]
            return MondayGraphQLError(code: extensions?["code"] as? String, message: error["message"] as? String ?? "",
                                      retryIn: (extensions?["retry_in_seconds"] as? NSNumber)?.doubleValue)
        }
        if let code = json["error_code"] as? String {
            let message = json["error_message"] as? String ?? code
            found.append(MondayGraphQLError(code: code, message: message, retryIn: (json["retry_in_seconds"] as? NSNumber)?.doubleValue ?? Self.resetIn(message)))
        }
        return found
    }

    /// "… reset in 23 seconds" (the older `ComplexityException` says when only in its text).
    static func resetIn(_ message: String) -> Double? {
        guard let range = message.range(of: "reset in ") else { return nil }
        return Double(message[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    /// The codes of monday.com's per-minute limits: nothing was done, and the same request
    /// succeeds once the minute (or `retryIn`) has passed.
    static let minuteLimitCodes: Set<String> = ["COMPLEXITY_BUDGET_EXHAUSTED", "ComplexityException", "RATE_LIMIT_EXCEEDED", "Rate Limit Exceeded",
                                                "IP_RATE_LIMIT_EXCEEDED", "maxConcurrencyExceeded"]
    var isMinuteLimit: Bool { code.map(Self.minuteLimitCodes.contains) ?? false }
    var isDailyLimit: Bool { code == "DAILY_LIMIT_EXCEEDED" }
    var isUnauthenticated: Bool { code == "UNAUTHENTICATED" || code == "UserUnauthorizedException" || message == "Not Authenticated" }

    var description: String { code.map { "\($0): \(message)" } ?? message }
}
