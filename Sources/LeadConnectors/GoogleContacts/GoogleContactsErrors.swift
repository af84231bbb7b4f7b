import Foundation
import LeadCore
import HTTPKit

/// Everything the Google Contacts client throws. The message is already scrubbed of every
/// secret the client holds (client secret, refresh token, access tokens), even when it repeats
/// what the server sent back.
public struct GoogleContactsError: Error, Sendable, Equatable, CustomStringConvertible, Classified {
    public enum Kind: Sendable, Equatable {
        /// A variable is missing or malformed.
        case configuration(variable: String)
        /// Connection refused, DNS or TLS failure: nothing reached the server.
        case unreachable(variable: String)
        /// Google refused the credentials (wrong client, a token without the contacts scope, an
        /// access token refused even after a refresh).
        case credentialsRefused(variable: String)
        /// The refresh token has expired or been revoked (`invalid_grant`): the user must sign in again.
        case signInAgain
        /// The per-minute quota outlasted every retry, or the daily quota is spent.
        case quotaExhausted(daily: Bool)
        /// 5xx, timeouts or lost answers that outlasted every retry, or an answer that makes no sense.
        case serverFailed(status: Int?)
        /// Google refused this contact; `field` is the field it named, when it named one.
        case rejected(field: String?)
        /// The contact is gone (deleted in Google Contacts since it was sent).
        case notFound
        /// The contact kept changing under us: every re-read etag was stale again.
        case conflict
    }

    public var kind: Kind
    /// For people: what happened and what to do, without secrets.
    public var message: String
    /// The HTTP status, when an answer came.
    public var status: Int?

    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        (self.kind, self.message, self.status) = (kind, message, status)
    }

    /// A missing or malformed variable: nothing is sent (`usage`). Google refused this contact,
    /// or it is gone or kept changing: the row is reported and the others go on (`rowRejected`).
    /// Anything else stops this destination at once, its unsent rows pending for the rerun
    /// (`terminal`).
    public var disposition: FailureDisposition {
        switch kind {
        case .configuration: return .usage
        case .unreachable, .credentialsRefused, .signInAgain, .quotaExhausted, .serverFailed: return .terminal
        case .rejected, .notFound, .conflict: return .rowRejected
        }
    }

    public var description: String { "google-contacts: " + message }
}

/// A Google error answer, `{"error": {code, message, status, details}}` (crm-apis.md §3.6), and
/// OAuth's `{error, error_description}`, read loosely: a 502 from the front end is HTML.
struct GoogleErrorBody {
    var message: String?
    var status: String?
    /// `ErrorInfo.reason` (`RATE_LIMIT_EXCEEDED`, `ACCESS_TOKEN_SCOPE_INSUFFICIENT`, …).
    var reason: String?
    /// `ErrorInfo.metadata.quota_limit` (`CriticalWriteRequestsPerMinutePerUser`).
    var quotaLimit: String?
    var fieldViolations: [(field: String, description: String)] = []
    /// `BatchCreateContactsErrorDetails.contactErrors`: per input index (or resource name), its status.
    var contactErrors: [String: [String: Any]] = [:]
    /// OAuth's `error` code (`invalid_grant`, `invalid_client`).
    var oauthError: String?

    init(_ body: Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return }
        if let code = object["error"] as? String {
            oauthError = code
            message = object["error_description"] as? String
            return
        }
        guard let error = object["error"] as? [String: Any] else { return }
        message = error["message"] as? String
        status = error["status"] as? String
        for detail in error["details"] as? [[String: Any]] ?? [] {
            if let reason = detail["reason"] as? String { self.reason = reason }
            if let limit = (detail["metadata"] as? [String: Any])?["quota_limit"] as? String { quotaLimit = limit }
            fieldViolations += Self.violations(detail)
            if let errors = detail["contactErrors"] as? [String: [String: Any]] { contactErrors = errors }
        }
    }

    static func violations(_ detail: [String: Any]) -> [(field: String, description: String)] {
        (detail["fieldViolations"] as? [[String: Any]] ?? []).map { (($0["field"] as? String) ?? "", ($0["description"] as? String) ?? "") }
    }

    /// A per-contact status's reason: the field it names (without the batch's own path, so
    /// `contacts[3].contact_person.emailAddresses[0].value` reads `emailAddresses[0].value`)
    /// and Google's description.
    static func contactReason(_ status: [String: Any]) -> (field: String?, text: String) {
        let violation = (status["details"] as? [[String: Any]] ?? []).flatMap(violations).first
        let field = violation.map { shortField($0.field) }
        let text = violation?.description ?? (status["message"] as? String) ?? "refused"
        return (field, field.map { "\($0): \(text)" } ?? text)
    }

    static func shortField(_ path: String) -> String {
        var field = Substring(path)
        // A batch update names its contact by resource name: `contacts[people/c1].names`.
        if field.hasPrefix("contacts["), let close = field.firstIndex(of: "]") {
            field = field[field.index(after: close)...].drop { $0 == "." }
        }
        for prefix in ["person.", "contact_person.", "contactPerson."] {
            if let range = field.range(of: prefix) { field = field[range.upperBound...] }
        }
        return String(field)
    }

    /// One line for an error message: status, message and the first field violation.
    var summary: String {
        var text = [status, oauthError].compactMap { $0 }.joined(separator: " ")
        if let message { text += (text.isEmpty ? "" : ": ") + message }
        if let violation = fieldViolations.first, !(message ?? "").contains(violation.description) {
            text += " (\(Self.shortField(violation.field)): \(violation.description))"
        }
        return text
    }
}
