import Foundation
import LeadConnectors
import LeadCore
import LeadEnrich
import LeadNormalize
import LeadReaders

/// What the engine reports as a run goes; the executable renders these (design.md §4.5).
public enum ProgressEvent: Sendable {
    case runStarted(runID: String, inputs: [String], destinations: [String], total: Int)
    case row(RowResult)
    /// One batch sent to a destination (for the embedded SQLite, one transaction).
    case batch(BatchResult)
    case runFinished(RunSummary)
    /// The enrichment's spending so far, after each request to the model (`--enrich`).
    case enrichment(Enricher.Summary)
    /// `leadport enrich`: one row's outcome.
    case enrichedRow(SourceLocation, Enrichment.RowOutcome)
    /// Something a person should hear before harm is done (a setting that changes nothing,
    /// live events that start action plans, a column that goes nowhere): said once a run.
    case warning(RunWarning)
}

/// A warning of a run, in LeadPort's voice: `message` names what is wrong, where, and what
/// to do; `code` groups it for programs.
public struct RunWarning: Sendable, Equatable {
    /// `unknown_setting`, `live_events`, `field_not_sent`, `excluded_already_sent`.
    public var code: String
    /// The destination it concerns, when one does.
    public var destination: String?
    public var message: String

    public init(code: String, destination: String? = nil, message: String) {
        (self.code, self.destination, self.message) = (code, destination, message)
    }
}

public struct RowResult: Sendable {
    public var location: SourceLocation
    public var destination: String
    public var outcome: Outcome
    public var remoteID: String?
    public var reason: String?
    /// In a dry run, for a row that would be created or updated: its part in the plan.
    public var planned: PlannedRow?
    /// What cleaning decided of the row's values: each repair, drop, suggestion and refusal.
    public var issues: [LeadIssue] = []
}

public struct BatchResult: Sendable {
    public var destination: String
    public var size: Int
    public var status: String
    public var attempt: Int
    public var retryAfter: Double?

    public init(destination: String, size: Int, status: String, attempt: Int, retryAfter: Double?) {
        (self.destination, self.size, self.status, self.attempt, self.retryAfter) = (destination, size, status, attempt, retryAfter)
    }
}

/// Where in the pipeline a row was turned away: reading it, its rules and required fields,
/// the in-file dedupe, the destination, or (`leadport apply`) the plan, when the row changed
/// since it was made.
public enum RejectStage: String, Sendable {
    case read, normalize, enrich, dedupe, destination, plan
}

public struct RunSummary: Sendable {
    public var runID: String
    /// Input rows (each has one outcome per destination).
    public var rows: Int
    /// Outcomes over every destination.
    public var counts: [Outcome: Int]
    public var seconds: Double
    public var dryRun: Bool
    /// Each destination's outcomes, in the order of `--to`.
    public var destinations: [DestinationSummary] = []
    /// With `--enrich`: the rows by enrichment outcome, and what the model was sent and cost.
    public var enrichment: Enrichment.Tally?
    /// Columns no field took (`"Nom"`, or `"file.csv: Nom"` with several files).
    public var unmappedColumns: [String] = []
    /// The lists held back, each with why (`ImportOptions.unplannedListsHeldBack`): none of
    /// their rows was read.
    public var heldBack: [(file: String, reason: String)] = []
    /// Rows delivered without a name (no person's names, no company), and rows with no email,
    /// phone or address to reach them by: how many, and the first few source rows.
    public var withoutName = RowTally()
    public var withoutContact = RowTally()
    /// The files whose only address was the mailing one, which then stood for the property's.
    public var mailingAsAddress: [String] = []
    /// `--export`'s path when it was not written (the enrichment's key or model was refused,
    /// every row pending): the file there is left as it was.
    public var exportWithheld: String?

    /// A count of rows, with the first few of them (file, sheet and row) to name.
    public struct RowTally: Sendable {
        public var count = 0
        public var first: [SourceLocation] = []

        public init() {}

        mutating func add(_ location: SourceLocation) {
            count += 1
            if first.count < 5 { first.append(location) }
        }
    }

    /// The destinations that stopped part way (unreachable, credentials refused, a limit
    /// reached), with why: their unsent rows have no outcome, and go with the next run.
    public var stopped: [(destination: String, error: any Error)] {
        destinations.compactMap { d in d.stopped.map { (d.name, $0) } }
    }
}

public struct DestinationSummary: Sendable {
    public var name: String
    public var counts: [Outcome: Int]
    public var stopped: (any Error)?
}

public struct ImportOptions: @unchecked Sendable {
    public var files: [String]
    public var reader = RowReaderOptions()
    public var mapping: Mapping?
    /// The embedded database: where the runs and the ledger are kept, and, when `embedded`,
    /// a destination itself.
    public var databasePath = "leadport.db"
    /// Whether the embedded database is a destination (it comes first, before `remotes`).
    public var embedded = true
    /// The destinations other than the embedded database, in the order of `--to`. The file is
    /// read and its rows cleaned once for all of them.
    public var remotes: [any Destination] = []

    /// One destination other than the embedded database, alone.
    public var remote: (any Destination)? {
        get { remotes.count == 1 && !embedded ? remotes[0] : nil }
        set {
            remotes = newValue.map { [$0] } ?? []
            embedded = newValue == nil
        }
    }
    public var campaign: String?
    /// Whose the rows are (`--user`), handed to every destination in the run's scope
    /// (`RunScope.owner`); without one, each destination settles it (FLYR's: the campaign's
    /// owner, else its local user).
    public var user: String?
    public var region: String?
    public var dateOrder: DateOrder?
    public var dryRun = false
    /// `--strict-fields`: a row with a field a CRM refuses is rejected whole (`DestinationPolicy.strictFields`).
    public var strictFields = false
    /// Do-not-contact lists: a lead on one is skipped (`excluded (LIST)`) and sent nowhere.
    public var exclusions: [ExclusionList] = []
    /// The LLM stage between the rules and the destinations (`--enrich`): each row's answers
    /// become columns after the list's own; a row it rejects or leaves pending is not sent.
    public var enrichment: Enrichment?
    /// A plan to carry out (`leadport apply`): only the rows it has, as they were when it was
    /// made, are written.
    public var apply: PlanCheck?
    /// Whether the rows are counted as the run starts, for `run_started`'s `total` and the
    /// progress bar: a pass over the input on a thread of its own, saved when no one is shown
    /// them (`--progress none`; `total` is then 0).
    public var countsRows = true
    public var exportPath: String?
    public var reportPath: String?
    public var rejectsPath: String?
    /// What built the rules (the version and the binary): a rerun passes over unchanged rows
    /// only when the same rules would turn them into the same leads.
    public var buildIdentity = ""
    /// The destinations as `--to` gave them (no passwords; a SQLite file by its full path),
    /// kept with the run for `leadport undo` to open them again.
    public var destinationValues: [String] = []
    /// Called on the recording thread after each commit of the ledger (`sync --worker` copies
    /// what was recorded to the shared ledger then); an error fails the run.
    public var afterCommit: (() throws -> Void)?
    /// `ImportRequest.emptyListsAllowed`.
    public var emptyListsAllowed = false
    /// `ImportRequest.unplannedListsHeldBack`.
    public var unplannedListsHeldBack = false

    public init(files: [String]) { self.files = files }
}
