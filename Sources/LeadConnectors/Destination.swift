import Foundation
import LeadCore
import HTTPKit
import LeadStore

/// What a destination can take, declared once; the engine batches and paces from these values
/// alone.
public struct DestinationCapabilities: Sendable, Equatable {
    /// Rows per request (Supabase REST 500, HubSpot 100, a webhook 1).
    public var largestBatch: Int
    /// The keys the remote side itself dedupes by, when any (`email` for HubSpot's upsert); the
    /// ledger covers the rest.
    public var remoteDedupeKeys: [String]
    /// Requests per interval the destination allows (the rate limiter's starting budget).
    public var requests: Int
    public var per: Double
    /// Whether a batch can be an upsert (sent twice, it changes nothing): only then is a batch
    /// whose answer was lost sent again.
    public var upserts: Bool
    /// Whether its writes go into the ledger's own transaction (the embedded database, which
    /// holds the ledger): it is then sent each batch on the thread that records, just before
    /// the answers are recorded, and the two are committed together — a run killed between
    /// them loses both, so nothing needs sending twice. A failure of such a write fails the run.
    public var writesWithLedger: Bool
    /// Rows the engine hands this destination at a time, when fewer than its usual hand-off: a
    /// destination whose `prepare` is paced by a limit of its own (HubSpot's searches) has the
    /// writes of one hand-off sent while it prepares the next, so that the two limits are spent
    /// side by side and the last writes do not wait behind a long hand-off's look-ups.
    public var handOffRows: Int?

    public init(largestBatch: Int, remoteDedupeKeys: [String] = [], requests: Int, per: Double, upserts: Bool, writesWithLedger: Bool = false,
                handOffRows: Int? = nil) {
        (self.largestBatch, self.remoteDedupeKeys, self.requests, self.per, self.upserts) = (max(1, largestBatch), remoteDedupeKeys, requests, per, upserts)
        self.writesWithLedger = writesWithLedger
        self.handOffRows = handOffRows.map { max(1, $0) }
    }
}

/// One row's answer from a destination: what it calls the record, and the record's version
/// as written where the API has one (Google's etag), which the ledger keeps.
public enum DeliveryResult: Sendable, Equatable {
    /// `unwritten`: the fields the destination refused, which the record was written without,
    /// each with the destination's reason (`hs_lead_status not written: HOT is not an option`),
    /// for the row's report.
    case created(remoteID: String, version: String? = nil, unwritten: String? = nil)
    case updated(remoteID: String, version: String? = nil, unwritten: String? = nil)
    /// The destination refused this row; the reason is for the report.
    case rejected(reason: String)
    /// The row could not be delivered (no answer, or the destination kept failing); a rerun
    /// tries it again.
    case failed(reason: String)
}

extension DeliveryResult {
    /// A created or updated record with `unwritten` (fields the destination refused, each with
    /// its reason) for its report; any other result as it is.
    public func noting(_ unwritten: [String]) -> DeliveryResult {
        guard !unwritten.isEmpty else { return self }
        let note = unwritten.joined(separator: "; ")
        switch self {
        case .created(let id, let version, _): return .created(remoteID: id, version: version, unwritten: note)
        case .updated(let id, let version, _): return .updated(remoteID: id, version: version, unwritten: note)
        default: return self
        }
    }
}

/// How a destination settles a write whose outcome is unknown: the connection was lost after
/// the request went, it timed out, or a 500, 502 or 504 came back, any of which may follow a
/// write the destination applied. The write is settled inside the run, never
/// left to stop it: the destination finds out what landed, and sends only what did not.
///
/// | destination | how |
/// | --- | --- |
/// | embedded SQLite | nothing to settle: written in the ledger's own transaction |
/// | PostgreSQL | connects again and sends the batch again: ids fixed by the lead, `ON CONFLICT (id) DO NOTHING` |
/// | Supabase REST | sends the batch again: ids fixed by the lead, `resolution=ignore-duplicates` |
/// | webhook | sends the document again under the same `Idempotency-Key` |
/// | HubSpot | an upsert (by email or the id property) is sent again; a create (no email) is settled by searching for its contacts by phone and names, through search's lag, and only those not found are created |
/// | Follow Up Boss | the person is looked up by email, else phone and names; the event is sent again only when nobody is found |
/// | Google Contacts | the account's contacts are listed and found by LeadPort's key; only those not found are created |
/// | Monday.com | the board's item is looked up by its dedupe column (`items_page_by_column_values`); only an item not found is created |
///
/// A destination stops only when its credentials are refused, its daily quota is spent, or it
/// answers nothing but server errors past `LEADPORT_FAIL_AFTER` (`FailFast`).
public enum Reconciliation: Sendable, Equatable, CustomStringConvertible {
    /// Nothing can be unknown: the write commits with its record, or neither does.
    case withLedger
    /// The write is idempotent and sent again as it is; `how` says what makes it so.
    case resend(how: String)
    /// What landed is looked for first, and only the rest is sent again; `how` says where.
    case lookUp(how: String)

    public var description: String {
        switch self {
        case .withLedger: return "nothing to settle: written in the ledger's own transaction"
        case .resend(let how): return "sent again: " + how
        case .lookUp(let how): return "looked for, then only what did not land sent again: " + how
        }
    }
}

/// A batch's answer: one result per row, in order, or a failure of the whole batch.
public enum BatchAnswer: Sendable, Equatable {
    case rows([DeliveryResult])
    /// The destination refused the batch as a whole (PostgREST runs a batch as one statement: one
    /// bad row fails them all). `rowLevel` says the cause lies in the rows, so smaller batches
    /// can isolate it; otherwise (auth, a missing table) every row gets the reason.
    case failed(reason: String, rowLevel: Bool)
}

/// Delivers rows in batches of at most `largestBatch`; a batch refused for a row-level cause is
/// split in halves, and the halves split again, until the bad rows stand alone with their own
/// reasons and every other row is delivered. Each input row ends with exactly one result.
///
/// A batch of n rows with one bad row takes about 2·log2(n) extra requests; with k bad rows,
/// at most k·2·log2(n).
public struct BatchSplitter {
    public let largestBatch: Int

    public init(largestBatch: Int) { self.largestBatch = max(1, largestBatch) }

    /// `send` gets consecutive slices of `rows` (their indices into `rows`) and answers for
    /// each; the results come back in the rows' order.
    public func deliver<Row>(_ rows: [Row], send: (ArraySlice<Row>) throws -> BatchAnswer) rethrows -> [DeliveryResult] {
        var results = [DeliveryResult?](repeating: nil, count: rows.count)
        var start = rows.startIndex
        while start < rows.endIndex {
            let end = min(start + largestBatch, rows.endIndex)
            try deliver(rows[start..<end], into: &results, send: send)
            start = end
        }
        return results.map { $0! }
    }

    private func deliver<Row>(_ slice: ArraySlice<Row>, into results: inout [DeliveryResult?], send: (ArraySlice<Row>) throws -> BatchAnswer) rethrows {
        switch try send(slice) {
        case .rows(let answers):
            precondition(answers.count == slice.count, "a destination answered \(answers.count) rows for \(slice.count)")
            for (k, answer) in zip(slice.indices, answers) { results[k] = answer }
        case .failed(let reason, let rowLevel):
            if !rowLevel || slice.count == 1 {
                for k in slice.indices { results[k] = .rejected(reason: reason) }
                return
            }
            let middle = slice.startIndex + slice.count / 2
            try deliver(slice[slice.startIndex..<middle], into: &results, send: send)
            try deliver(slice[middle..<slice.endIndex], into: &results, send: send)
        }
    }
}

/// One lead on its way to a destination, with what the engine knows of it from the ledger.
public struct OutboundLead: Sendable {
    /// The key the ledger knows the lead by (its dedupe key, or its source row).
    public var key: String
    /// The hash of what is sent; the ledger keeps it to tell a changed lead from an unchanged one.
    public var hash: String
    /// The lead itself, shared (not copied) as the batch is filtered and split.
    public var lead: Lead { box.lead }
    private let box: LeadBox
    /// What the destination's encoder made of the lead besides its hash (`Encoded.payload`),
    /// for that destination alone to read.
    public let payload: LeadPayload?
    /// `.update` for a lead the ledger has already sent (with what the destination called it).
    public var action: Action
    /// What the destination calls the lead's record: the ledger's for an update; for a new
    /// lead, set by `prepare` when it gives the lead its id or finds its record there.
    public var remoteID: String?
    /// Set by `prepare`: everything this lead would create is at the destination already.
    public var alreadyThere = false
    /// Set by `prepare`: a record of this lead was found at the destination (by email, phone, a
    /// key), whatever `action` says: `create_only` skips it, `update_only` keeps it.
    public var found = false
    /// Set by `prepare` when the record found is the lead's by other keys than its dedupe key
    /// (its email changed in the list, but its phone and name are the contact's): how it was
    /// matched, said in the row's report and event.
    public var matched: String?

    public enum Action: Sendable, Equatable { case create, update }

    /// `remoteID`: the ledger's id for the lead, which the payload is told of (`LeadPayload.known`).
    public init(key: String, encoded: Encoded, lead: Lead, action: Action, remoteID: String?) {
        self.init(key: key, encoded: encoded, box: LeadBox(lead), action: action, remoteID: remoteID)
    }

    /// Of a lead already boxed: shared with the box's other holders.
    public init(key: String, encoded: Encoded, box: LeadBox, action: Action, remoteID: String?) {
        (self.key, self.hash, self.box, self.payload, self.action) = (key, encoded.hash, box, encoded.payload, action)
        // An empty id names no record.
        if let remoteID, !remoteID.isEmpty {
            self.remoteID = remoteID
            encoded.payload?.known(as: remoteID)
        }
    }
}

/// What a destination makes of a lead on the build threads, once per row (`Destination.encoder`):
/// the hash of what it sends, and whatever it would otherwise work out again on the delivery
/// thread (FLYR's rows: `FlyrRows`).
public struct Encoded: Sendable {
    public var hash: String
    public var payload: LeadPayload?

    public init(hash: String, payload: LeadPayload? = nil) { (self.hash, self.payload) = (hash, payload) }
}

/// A destination's own part of an outbound lead, made by its encoder on a build thread and read
/// (and given ids) by that destination alone, on the threads that prepare and send the lead.
/// One object a lead, handed on with it rather than copied.
open class LeadPayload: @unchecked Sendable {
    public init() {}

    /// The lead is already at the destination as the ledger's `remoteID` (an update): what the
    /// payload needs of that id, before `prepare`.
    open func known(as remoteID: String) {}
}

/// A lead built once and shared, never copied: by the engine's row on its way and by every
/// `OutboundLead` made of it (a copy retains and later releases each of its strings, on the
/// delivery thread).
public final class LeadBox: @unchecked Sendable {
    public let lead: Lead
    public init(_ lead: Lead) { self.lead = lead }
}

/// Where an import is delivered: the embedded database (`EmbeddedDestination`, whose rows are
/// written in the ledger's own transaction: `writesWithLedger`, `Destination+Ledger`) and every
/// remote destination alike.
///
/// The engine gives each batch to `prepare` (reads only: ids for new leads, and leads found to
/// be there already), records nothing until `send` answers, and then records the answers in
/// the ledger. A run killed between a write and its record is therefore safe only if sending
/// the same leads again creates nothing twice: every destination makes its writes idempotent
/// (ids fixed by the lead, upserts, idempotency keys).
///
/// `prepare` of one batch may run while `send` of an earlier one is under way, on another
/// thread (never two `prepare`s, nor two `send`s, at once): what the two share, such as a
/// database connection, the destination guards itself.
public protocol Destination: AnyObject {
    /// How reports and events name it: no secrets.
    var name: String { get }
    /// How the ledger knows it: the same for every run against the same place.
    var ledgerName: String { get }
    var capabilities: DestinationCapabilities { get }
    /// How it settles a write whose outcome is unknown (`Reconciliation`'s table).
    var reconciliation: Reconciliation { get }
    /// Once, after `configure` and before the first `prepare`: where the run files its records
    /// (`RunScope`). A destination whose records belong to a place of its own finds it (or
    /// makes it), keeps it for every `prepare`, `send` and `snapshots` after, and says what the
    /// ledger keys its leads by there (`Scope`); another may keep the name as a tag or a label,
    /// or ignore it (the default, `Destination+Scope`). Its `encoder` is read after this.
    func enter(_ scope: RunScope) throws -> Scope
    /// Before a batch is sent (and in a dry run, instead of sending): gives new leads their ids
    /// and marks those already at the destination. Writes nothing.
    func prepare(_ leads: inout [OutboundLead]) throws
    /// Sends at most `capabilities.largestBatch` leads.
    func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer
    /// What this destination makes of a lead, on the build threads, once per row: the hash of
    /// exactly what it sends, which the ledger keeps (a lead whose hash changed is an update,
    /// and no other change is), and a payload of its own, handed back in the lead's
    /// `OutboundLead`, for what it would otherwise work out again on the delivery thread.
    /// Called for every row, on any thread.
    var encoder: @Sendable (Lead) -> Encoded { get }
    /// The user the credentials belong to, when they are one user's (a Supabase user's token),
    /// and the setting that holds them: the rows are then that user's, whatever --user says.
    var credentialsUser: (id: String, setting: String)? { get }
    /// The `--to` kind (`hubspot`, `postgres`): what the mapping's `destinations:` names it by.
    /// By default the name up to its first colon (`Destination+Policy`).
    var kind: String { get }
    /// The mapping's mode, field policies and options for this destination, once, before the
    /// first `prepare`. The default takes the modes (the engine applies them) and refuses any
    /// other field policy or option (a usage error). A destination that honours `fill_blank`,
    /// `append` or `never` implements it, and may change what it sends (and so its
    /// `encoder`, which is read after this).
    func configure(_ policy: DestinationPolicy) throws
    /// For a plan (`Destination+Plan`): after `prepare`, each lead's fields as the destination
    /// holds them now (read from it) and as they would be written, in order. It may find a new
    /// lead at the destination (by email, say) and make it an update, as `send` would. Reads
    /// only; nil when the destination cannot read what it holds.
    func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]?
    /// `leadport undo`: removes what a run created and gives back what it updated, each only
    /// where the record still holds what LeadPort wrote, in order. The default: not undoable.
    func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult]
    /// Whether `undo` can restore updates: what an update replaces is then read before it is
    /// written, and kept (`leadport_history`).
    var undoesUpdates: Bool { get }
    /// For a destination without record versions of its own: what a created lead was sent, as
    /// `PropertyVersion` keeps it, for `undo` to tell a record no one changed since. Nil: none.
    func writtenVersion(_ lead: OutboundLead) -> String?
    /// For a destination written in the ledger's own transaction (`writesWithLedger`): the
    /// store that keeps the run's ledger, handed over once as the run opens it, before
    /// `configure`, with whether the run is dry (nothing is then made). Others ignore it.
    func attach(_ store: LeadStore, dryRun: Bool)
    /// For a destination written in the ledger's own transaction, after `enter`: of these
    /// remote ids, from ledger entries written before the ledger's keys carried the scope,
    /// those whose records are in the scope it entered (such an entry then stands for the
    /// scope's lead). Nil: it cannot tell, and the entries are not taken.
    func inScope(_ remoteIDs: [String]) throws -> Set<String>?
}

extension Destination {
    public var credentialsUser: (id: String, setting: String)? { nil }
}

/// A destination that cannot go on (bad credentials, a missing table): the run stops with this
/// message, and a rerun resumes once it is fixed.
public struct DestinationError: Error, CustomStringConvertible, Classified {
    public var destination: String
    public var message: String
    /// `.terminal` (exit 1) unless the destination's settings are what is wrong (`.usage`, 2).
    public var disposition: FailureDisposition
    public init(destination: String, message: String, disposition: FailureDisposition = .terminal) {
        (self.destination, self.message, self.disposition) = (destination, message, disposition)
    }
    public var description: String { "\(destination): \(message)" }
}
