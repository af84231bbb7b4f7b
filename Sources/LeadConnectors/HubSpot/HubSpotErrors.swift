import Foundation
import LeadCore

/// Why HubSpot refused one input of a batch, as HubSpot said it: the property it names (from the
/// `VALIDATION_ERROR`'s embedded JSON), its error code and message.
public struct HubSpotRejection: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status of the input's error (400 validation, 404 unknown id, 409 conflict).
    public var status: Int
    /// HubSpot's `category` (`VALIDATION_ERROR`, `OBJECT_NOT_FOUND`, `CONFLICT`).
    public var category: String?
    /// The property HubSpot named, when it named one (`email`, `hs_lead_status`).
    public var property: String?
    /// HubSpot's code for the property's problem (`INVALID_EMAIL`, `INVALID_OPTION`).
    public var code: String?
    /// HubSpot's message, secrets taken out.
    public var message: String
    /// Each property the `VALIDATION_ERROR` named, with its own code and message.
    public var problems: [Problem] = []

    /// One property's refusal: `hs_lead_status`, `INVALID_OPTION`, `HOT was not one of the allowed options: […]`.
    public struct Problem: Sendable, Equatable {
        public var property: String
        public var code: String?
        public var message: String

        public init(property: String, code: String?, message: String) { (self.property, self.code, self.message) = (property, code, message) }
    }

    public init(status: Int, category: String? = nil, property: String? = nil, code: String? = nil, message: String, problems: [Problem] = []) {
        (self.status, self.category, self.property, self.code, self.message, self.problems) = (status, category, property, code, message, problems)
    }

    /// The properties of `payload` to send it without, when nothing but them was refused (a
    /// `VALIDATION_ERROR` naming only properties the payload holds, none of them in `keys`, the
    /// properties the write is keyed by); nil when the record as a whole was refused.
    public func refusedFields(of payload: HubSpotContactPayload, keys: Set<String>) -> [Problem]? {
        guard category == "VALIDATION_ERROR", !problems.isEmpty,
              problems.allSatisfy({ payload[$0.property] != nil && !keys.contains($0.property) }) else { return nil }
        return problems
    }

    /// The reason as a report shows it: `email: Email address x@ is invalid (INVALID_EMAIL)`.
    public var description: String {
        var text = property.map { "\($0): " } ?? ""
        text += message
        if let code = code ?? category { text += " (\(code))" }
        return text
    }
}

/// Everything the HubSpot client throws. Its `message` names what to do (the variable to set,
/// when the limit resets) and never holds a secret: every text that came from HubSpot or the
/// transport passed through the client's `Redactor` first.
public struct HubSpotError: Error, Sendable, Equatable, CustomStringConvertible, Classified {
    public enum Kind: Sendable, Equatable {
        /// A variable is missing or malformed.
        case configuration(variable: String)
        /// 401 or 403: the token is wrong, expired, revoked or lacks the contacts scopes.
        case credentialsRefused
        /// No connection: refused, unknown host, TLS failure.
        case unreachable
        /// The answer was lost (dropped connection, time-out) after every retry; the write may
        /// have been applied.
        case answerLost
        /// The account's daily request limit is used up until `resetsAt` (nil when unknown).
        case dailyLimit(resetsAt: Date?)
        /// 429 or 5xx outlasted every retry.
        case gaveUp(status: Int)
        /// HubSpot refused a whole request for a cause that is not one row's (a 4xx the
        /// client did not expect).
        case refused(status: Int)
        /// HubSpot refused one row.
        case rowRejected(HubSpotRejection)
    }

    public var kind: Kind
    /// For people: what happened and what to do, without secrets.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        (self.kind, self.message) = (kind, message)
    }

    /// Missing or malformed settings: nothing was sent (`usage`). HubSpot refused one row: the
    /// others go on (`rowRejected`). HubSpot cannot be reached, refuses the credentials, or the
    /// day's requests are used up: this destination stops, its unsent rows pending for the next
    /// run (`terminal`).
    public var disposition: FailureDisposition {
        switch kind {
        case .configuration: return .usage
        case .rowRejected: return .rowRejected
        case .credentialsRefused, .unreachable, .answerLost, .dailyLimit, .gaveUp, .refused: return .terminal
        }
    }

    public var description: String { "hubspot: " + message }

    /// Whether HubSpot may have applied the write all the same: the answer was lost, or was a
    /// 500, 502 or 504, which a proxy or HubSpot may give after the write went through.
    var outcomeUnknown: Bool {
        switch kind {
        case .answerLost: return true
        case .gaveUp(let status): return status == 500 || status == 502 || status == 504
        default: return false
        }
    }
}
