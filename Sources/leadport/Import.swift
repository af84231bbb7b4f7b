import ArgumentParser
import Foundation
import LeadConnectors
import LeadEngine
import LeadNormalize
import LeadReaders

/// `leadport import`: rows in, clean leads out, every row accounted for.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import lead lists into a destination (default: the embedded SQLite file leadport.db).",
        discussion: """
            Every row ends in exactly one outcome at each destination: created, updated, \
            unchanged (the ledger has it with the same content), skipped (a blank row, a duplicate \
            of an earlier row in the run, or on an --exclude list), rejected (with the reason), \
            failed (the destination kept failing for it; the next run tries again) or pending (not \
            sent: the destination stopped before the row's turn; the next run sends it). Running \
            the same import again creates nothing twice: the ledger remembers each lead by its \
            dedupe key.
            Exit status: 0 every row delivered or deliberately skipped; 3 some rows rejected; \
            1 the run failed; 2 a usage or mapping problem; 130 or 143 interrupted (SIGINT, SIGTERM).
            """
    )

    enum ProgressStyle: String, ExpressibleByArgument, CaseIterable { case auto, bar, plain, jsonl, none }

    @Argument(help: "CSV files or .xlsx workbooks.")
    var files: [String]

    @OptionGroup var source: SourceOptions

    @Option(name: .customLong("to"), help: ArgumentHelp("Destination: \(DestinationRegistry.help). Repeat for several: the file is read once and every row gets an outcome at each. Credentials come from the environment or the config file: docs/destinations.md.",
                                                        valueName: "dest"))
    var destinations: [String] = []

    @OptionGroup var ledger: LedgerOptions

    @Option(help: ArgumentHelp("The FLYR user the rows belong to (contacts' user_id, a new campaign's owner). With a Supabase user's token, that user.", valueName: "uuid"))
    var user: String?

    @Option(help: ArgumentHelp("The campaign: a name (created when no campaign has it) or an id (a UUID, which must exist).", valueName: "id|name"))
    var campaign: String?

    @Option(help: "Default phone region (ISO 3166 code). Default: the mapping's, else US.")
    var region: String?

    @Option(help: "How to read dates such as 03/04/2024: mdy or dmy.")
    var dateOrder: DateOrder?

    @Option(name: .customLong("exclude"), help: ArgumentHelp("A do-not-contact list (CSV, workbook, or one phone, email or street address a line): a lead with any of them is skipped as \"excluded (FILE)\" and sent nowhere. Repeat for several.",
                                                           valueName: "file"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("An enrichment spec (docs/enrich.md): each row goes through an LLM after the rules; a field that maps_to a lead field fills it, the others travel as extras. A row the model could not answer is rejected, one not yet answered (the budget) pending.",
                               valueName: "spec.yaml"))
    var enrich: String?

    @Option(help: ArgumentHelp("With --enrich: the model, over the spec's.", valueName: "name"))
    var model: String?

    @Flag(help: "With --enrich: ask the model again for every row, even those answered before.")
    var noCache = false

    @Option(help: ArgumentHelp("With --enrich: requests in flight at once (each paced by the endpoint's rate-limit headers).", valueName: "n"))
    var concurrency: Int?

    @Flag(help: "Reject a row whole when a CRM refuses one of its fields (an option its schema lacks, a malformed value); by default the record is written without that field, and the row's report names it with the CRM's reason.")
    var strictFields = false

    @Flag(help: "Show what would be created, updated, left unchanged or rejected, and on stdout each field that would change, old → new (read from the destination); write nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("A dry run that writes its plan to this file (JSON, with a CSV beside it, one line per field) for `leadport apply` to carry out.",
                               valueName: "file.json"))
    var plan: String?

    @OptionGroup var output: OutputOptions

    @OptionGroup var rejected: RejectsOptions

    @OptionGroup var progress: ProgressOptions

    /// The options as the engine takes them (a sync job builds the same value from its configuration).
    var request: ImportRequest {
        var request = ImportRequest(files: files)
        (request.mapping, request.preset, request.sheet, request.destinations, request.ledger) = (source.mapping, source.preset, source.sheet, destinations, ledger.ledger)
        (request.user, request.campaign, request.region, request.dateOrder, request.exclude) = (user, campaign, region, dateOrder, exclude)
        (request.enrich, request.model, request.noCache, request.concurrency) = (enrich, model, noCache, concurrency)
        (request.strictFields, request.dryRun, request.plan) = (strictFields, dryRun, plan)
        (request.export, request.report, request.rejects) = (output.export, output.report, rejected.rejects)
        return request
    }

    func validate() throws {
        do { try request.validate() } catch let error as ImportRequestError { throw ValidationError(error.message) }
    }

    func run() throws { try run(applying: nil) }

    /// The import, or with `plan` the carrying out of that plan (`leadport apply`).
    func run(applying check: PlanCheck?) throws {
        let (_, problem) = try perform(applying: check)
        if let problem { throw problem }
    }

    /// The import: its summary, and what makes its exit status other than 0 (thrown by `run`),
    /// if anything.
    func perform(applying check: PlanCheck?) throws -> (RunSummary, (any Error)?) {
        let request = self.request
        let style = progress.style
        let reporter = ProgressReporter(style: style)
        // A list, mapping or spec that cannot be used (an --exclude list with nothing in it)
        // is said as such, in one line: the options were right, so no usage text follows.
        var options = try request.options(build: LeadPortVersion.build, countsRows: style != .none, onEvent: { reporter.handle($0) })
        options.apply = check
        // A mistyped setting (HUBSPOT_URL for HUBSPOT_BASE_URL) changes nothing: said first.
        for line in Self.settingWarnings() { reporter.handle(.warning(RunWarning(code: "unknown_setting", message: line))) }
        for file in files { ReaderNote.print(readerNote(path: file)) }
        // A dry run's plan: on stdout, or in the --plan file.
        let planWriter = options.dryRun ? try PlanWriter(path: plan, arguments: request.replayArguments) : nil
        // Applying a plan: its rows not met in the file (moved, deleted, their sheet renamed).
        var unmet = Set(check?.rows.keys.map { $0 } ?? [])
        Interruptions.catchSignals()
        // A plan that cannot be written fails the run (the dry run is for it): the first error is
        // kept, and thrown when the run has ended, so the exit happens in one place.
        let planFailure = PlanFailure()
        let summary = try ImportRun(options: options) { event in
            if planFailure.error == nil {
                do { try planWriter?.handle(event) } catch { planFailure.error = error }
            }
            if !unmet.isEmpty, case .row(let r) = event {
                unmet.remove(PlanCheck.Key(destination: r.destination, file: r.location.file, sheet: r.location.sheet, row: r.location.row))
            }
            reporter.handle(event)
        }.run()
        if let error = planFailure.error { throw error }
        if !unmet.isEmpty {
            let first = unmet.sorted { ($0.file, $0.sheet, $0.row) < ($1.file, $1.sheet, $1.row) }.first!
            ExitStatus.printError("leadport: \(unmet.count) row\(unmet.count == 1 ? "" : "s") of the plan \(unmet.count == 1 ? "was" : "were") not found in the file "
                                  + "(the first: row \(first.row) of \(first.file)\(first.sheet.isEmpty ? "" : " [\(first.sheet)]") for \(first.destination)): moved, deleted, or its sheet renamed; "
                                  + "nothing was done for them: make a new plan")
        }
        if let plan, let planWriter {
            ExitStatus.printError(planWriter.incomplete.isEmpty
                ? "plan written to \(plan) and \(PlanWriter.csvPath(plan)); carry it out with: leadport apply \(plan)"
                : "plan written to \(plan) is incomplete (\(planWriter.incomplete.joined(separator: ", ")) stopped) and cannot be applied; fix what stopped it and make it again")
        }
        return (summary, request.problem(of: summary, unmetRows: !unmet.isEmpty, warn: ExitStatus.printError))
    }
}

/// The first error writing a dry run's plan, set from the run's event callback.
private final class PlanFailure: @unchecked Sendable {
    var error: (any Error)?
}

extension Import {
    /// The environment's and the config file's names that look like LeadPort's settings but
    /// are not (a config file that cannot be read is said by whoever reads it).
    static func settingWarnings() -> [String] { (try? Settings.load())?.lookalikeWarnings ?? [] }
}

/// Ctrl-C or a service manager's stop ends a run cleanly: the rows read so far are delivered,
/// recorded and reported, and the summary and `run_finished` written; a second signal ends it
/// at once.
enum Interruptions {
    /// (A parent may have blocked the signals, as test runners do: they are unblocked here.)
    static func catchSignals() {
        var caught = sigset_t()
        sigemptyset(&caught)
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in
                Interruption.request(number)
                signal(number, SIG_DFL)
            }
            sigaddset(&caught, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &caught, nil)
    }
}
