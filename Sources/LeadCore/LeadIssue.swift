/// A problem found in the input or while processing a lead, tied to where it happened.
public struct LeadIssue: Sendable, Equatable, CustomStringConvertible {
    public var code: IssueCode
    public var message: String
    public var location: SourceLocation?

    public init(_ code: IssueCode, _ message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }
}

/// Stable codes for grouping issues in reports; messages are for people.
public enum IssueCode: String, Sendable, Codable, CaseIterable {
    /// A CSV record has a different number of fields from the first record.
    case raggedRow = "ragged_row"
    /// Bytes that were not valid UTF-8 were decoded as Windows-1252.
    case encodingFallback = "encoding_fallback"
    case invalidPhone = "invalid_phone"
    case invalidEmail = "invalid_email"
    case emailSuggestion = "email_suggestion"
    case invalidAddress = "invalid_address"
    case repairedValue = "repaired_value"
    case invalidDate = "invalid_date"
    case ambiguousDate = "ambiguous_date"
    /// A latitude or longitude that is no number of degrees, out of its range, or without the other.
    case invalidCoordinate = "invalid_coordinate"

    /// Problems met while reading the file, before any rule.
    public var isReadProblem: Bool {
        self == .raggedRow || self == .encodingFallback
    }
}

/// What a failure means for the run (dlt's terminal/transient split), and so the exit status
/// the executable's one exit map gives it (design.md §4.6).
public enum FailureDisposition: Sendable, Equatable {
    /// Worth retrying: a timeout, a 429, a 5xx. Still failing when retries run out: exit 1.
    case transient
    /// Stops the run: unreadable input, a destination that cannot be reached or refuses the
    /// credentials. Exit 1; a rerun resumes.
    case terminal
    /// The command cannot start as given: a bad option, a missing file or sheet, a missing or
    /// unreadable setting. Exit 2.
    case usage
    /// Record it against the row and go on. Exit 3 at the end.
    case rowRejected
}

/// An error that can say where it happened.
public protocol Locatable {
    var location: SourceLocation? { get }
}

/// An error that can say what it means for the run.
public protocol Classified {
    var disposition: FailureDisposition { get }
}
