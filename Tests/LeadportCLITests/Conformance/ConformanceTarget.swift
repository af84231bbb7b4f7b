import Foundation
import LeadTesting
import Testing

/// The cases of the connector conformance suite (issue 13 item 6, issue 22 item 1;
/// docs/destinations.md, "Conformance suite"). Every destination meets each of them, or
/// declares why it cannot.
enum ConformanceCase: String, CaseIterable, Sendable {
    case firstImport = "first import"
    case rerun = "rerun sends nothing"
    case oneChange = "one changed field"
    case fillBlank = "fill_blank"
    case retryAfter = "429 with Retry-After"
    case serverErrors = "5xx storm"
    case droppedAfterApply = "connection dropped after the write"
    case badRecord = "one bad record"
    case credential = "expired or revoked credential"
    case killed = "SIGKILL then rerun"
    case drops = "drops after apply on 5 % of writes"
}

/// A fault a target injects through its double's (or database's) own controls.
enum ConformanceFault {
    /// The next write is answered 429 with `Retry-After: seconds`.
    case rateLimited(seconds: Int)
    /// The next writes are answered these 5xx statuses, one each, in a row.
    case serverErrors([Int])
    /// The next write is applied, then the connection is closed without an answer.
    case droppedAfterApply
    /// The destination is slowed down, so that a SIGKILL lands in the middle of a run.
    case throttled
    /// Every write is applied, then its connection closed unanswered with probability `rate`,
    /// drawn from a random source seeded with `seed` (the doubles' `drop_rate`).
    case dropsAfterApply(rate: Double, seed: Int)
}

/// One destination under the suite: how to start what it writes to, what `--to` and
/// environment reach it, how to inject each fault, and how to read back what it holds. A
/// target is made for one case and stops its double (or drops its database) when it goes.
protocol ConformanceTarget: AnyObject {
    /// Why `check` cannot apply to this destination, or nil when it does.
    static func notApplicable(_ check: ConformanceCase) -> String?
    /// A case this destination fails for a known reason (a finding not fixed here), or nil.
    static func knownIssue(_ check: ConformanceCase) -> String?
    /// Starts the double or database, with `t`'s folder for its files.
    init(_ t: RemoteImport) throws
    /// The `--to` value.
    var destination: String { get }
    /// Settings added to the test's environment for every run.
    var environment: [String: String] { get }
    /// Its section under a mapping's `destinations:`.
    var section: String { get }
    /// `--campaign` and `--user`, where the destination takes them.
    var campaign: String? { get }
    var user: String? { get }
    /// For the SIGKILL case: how many rows, and the span over which the kills are spread
    /// (a throttled run of them lasts longer than that).
    var killRows: Int { get }
    var killSpan: Double { get }
    /// The writes one changed lead costs (1, unless the destination writes it in two tables).
    var writesForOneUpdate: Int { get }

    /// Every record held, one entry per record: the key (the email) and the fields `name`
    /// and `phone` (E.164). A record held twice is two entries.
    func records() throws -> [ConformanceRecord]
    /// The writes the destination has applied or answered so far (requests for a double,
    /// rows written for a database).
    func writes() throws -> Int
    /// What an agent does by hand at the destination: sets (or, with nil, empties) the phone
    /// of the record with this email.
    func setPhone(_ phone: String?, of email: String) throws
    func inject(_ fault: ConformanceFault) throws
    /// How many injected faults the double served, where it counts them and LeadPort's retries
    /// are not all `batch` events; nil to count the events instead.
    func injected() throws -> Int?
    /// Writes the double applied and then dropped the connection for, where it counts them.
    func dropped() throws -> Int?
    /// After case 7: what is wrong with how the dropped write was sent again, where the
    /// destination's own rule can be checked (a webhook's Idempotency-Key), or nil.
    func resendProblem() throws -> String?
    /// Makes the destination refuse every record carrying `email`; returns a text the
    /// remote's reason for it holds.
    func refuse(email: String) throws -> String
    /// Makes the credential expire where the destination refreshes it by itself; false when it
    /// has no such thing.
    func expireCredential() throws -> Bool
    /// Access tokens granted so far, where the destination refreshes its own.
    func grants() throws -> Int
    /// Revokes (or changes) the credential; returns the variable the error must name and the
    /// secrets it must not show.
    func revokeCredential() throws -> (variable: String, secrets: [String])
    /// Gives a good credential again.
    func restoreCredential() throws
}

extension ConformanceTarget {
    static func notApplicable(_ check: ConformanceCase) -> String? { nil }
    static func knownIssue(_ check: ConformanceCase) -> String? { nil }
    var writesForOneUpdate: Int { 1 }
    func injected() throws -> Int? { nil }
    func resendProblem() throws -> String? { nil }
    func dropped() throws -> Int? { nil }
    var campaign: String? { "Spring farm" }
    var user: String? { TestPostgres.user }
    var killRows: Int { 2_000 }
    func expireCredential() throws -> Bool { false }
    func grants() throws -> Int { 0 }
}

struct ConformanceRecord: Equatable, CustomStringConvertible {
    var key: String
    var fields: [String: String]
    var description: String { "\(key) \(fields.sorted { $0.key < $1.key })" }
}

/// The destinations, as the parameterised tests' arguments.
enum ConformanceDestination: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres, supabase, webhook, hubspot, followupboss, googleContacts = "google-contacts", monday

    var testDescription: String { rawValue }

    /// How its `--to` begins (the first column of docs/destinations.md's tables).
    var toPrefix: String {
        switch self {
        case .sqlite: return "sqlite:"
        case .postgres: return "postgres://"
        case .webhook: return "webhook:"
        default: return rawValue
        }
    }

    var target: any ConformanceTarget.Type {
        switch self {
        case .sqlite: return EmbeddedTarget.self
        case .postgres: return PostgresTarget.self
        case .supabase: return SupabaseTarget.self
        case .webhook: return WebhookTarget.self
        case .hubspot: return HubSpotTarget.self
        case .followupboss: return FollowUpBossTarget.self
        case .googleContacts: return GoogleContactsTarget.self
        case .monday: return MondayTarget.self
        }
    }
}
