import Foundation
import LeadCore

/// Anything that goes wrong between LeadPort and Follow Up Boss. `message` is for people and
/// never holds a secret: every text that came from the server or the transport has been
/// through the client's `Redactor`, so a server that echoes the key back echoes it to no one.
public struct FollowUpBossError: Error, Sendable, Equatable, CustomStringConvertible, Classified {
    public enum Kind: Sendable, Equatable {
        /// A variable is missing or malformed.
        case configuration
        /// No connection: refused, DNS, TLS.
        case unreachable
        /// The request went, and its answer was lost (a dropped connection, a timeout), again
        /// and again: Follow Up Boss may have acted on it.
        case answerLost
        /// 401: the API key (or token) was refused.
        case credentialsRefused
        /// 403: the account is locked or expired, or the key's user may not do this.
        case accessDenied
        /// 429 still, after waiting as told, or a `Retry-After` too long to wait out.
        case rateLimited
        /// 5xx still, after the retries.
        case serverFailed
        /// An answer that is not what the API documents.
        case unexpectedAnswer
        /// One event or update refused (400 and other 4xx); `field` is the lead field the
        /// reason names, when it names one.
        case rejected(field: String?)
    }

    public var kind: Kind
    /// Already redacted.
    public var message: String
    /// The HTTP status, when there was an answer.
    public var status: Int?
    /// The environment variable to look at, when one is to blame.
    public var variable: String?

    public init(_ kind: Kind, _ message: String, status: Int? = nil, variable: String? = nil) {
        (self.kind, self.message, self.status, self.variable) = (kind, message, status, variable)
    }

    /// A missing or malformed variable: nothing was sent (`usage`). One refused event or update
    /// (`rowRejected`): the others go on. Anything else (host unreachable, key refused, account
    /// locked, 5xx or 429 outlasting the retries) stops this destination at once, its unsent rows
    /// pending for the rerun (`terminal`).
    public var disposition: FailureDisposition {
        switch kind {
        case .configuration: return .usage
        case .rejected: return .rowRejected
        default: return .terminal
        }
    }

    public var description: String { "followupboss: " + message }

    /// Whether Follow Up Boss may have acted on the request all the same: its answer was lost,
    /// or was a 500, 502 or 504, which may follow a write that went through.
    var outcomeUnknown: Bool {
        kind == .answerLost || (kind == .serverFailed && [500, 502, 504].contains(status ?? 0))
    }

    static func missing(_ variable: String, _ advice: String) -> FollowUpBossError {
        FollowUpBossError(.configuration, "\(variable) is not set: \(advice)", variable: variable)
    }

    static func malformed(_ variable: String, _ problem: String) -> FollowUpBossError {
        FollowUpBossError(.configuration, "\(variable) \(problem)", variable: variable)
    }
}
