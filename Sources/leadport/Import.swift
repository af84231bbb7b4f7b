import ArgumentParser
import Foundation
import LeadEngine

/// `leadport import`: rows in, clean leads out, every row accounted for.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import lead lists into a destination (default: the embedded SQLite file leadport.db).",
        discussion: """
            Every row ends in exactly one outcome: created, updated, unchanged, skipped (a \
            duplicate in the file) or rejected (with the reason). Running the same import again \
            creates nothing twice: the ledger remembers each lead by its dedupe key.
            Exit status: 0 every row delivered or deliberately skipped; 3 some rows rejected; \
            1 the run failed; 2 a usage or mapping problem.
            """
    )

    enum ProgressStyle: String, ExpressibleByArgument, CaseIterable { case auto, bar, plain, jsonl, none }

    @Argument(help: "CSV files or .xlsx workbooks.")
    var files: [String]

    @Option(help: ArgumentHelp("A mapping file (YAML; see docs/mappings.md).", valueName: "file.yaml"))
    var mapping: String?

    @Option(help: ArgumentHelp("A mapping preset from mappings/: flyr-recipients, flyr-contacts, google-contacts-csv, hubspot-export, followupboss-export, generic-leads, owner-list.",
                               valueName: "name"))
    var preset: String?

    @Option(help: "The sheet to read, by name or 1-based position.")
    var sheet: String?

    @Option(name: .customLong("to"), help: ArgumentHelp("Destination: \(DestinationRegistry.help). Repeat for several: the file is read once and every row gets an outcome at each. Credentials come from the environment or the config file: docs/destinations.md.",
                                                        valueName: "dest"))
    var destinations: [String] = []

    /// The destinations, in the order given (the embedded database when none is).
    var targets: [String] { destinations.isEmpty ? ["sqlite:leadport.db"] : destinations }

    @Option(help: ArgumentHelp("Where the ledger and the runs of an import to remote destinations are kept (a SQLite file); with --to sqlite:FILE, that file.", valueName: "file.db"))
    var ledger: String = "leadport.db"

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

    @Option(help: ArgumentHelp("Write the processed spreadsheet (.xlsx or .csv): original and normalised columns, _status, _reason, _source_row.",
                               valueName: "file.xlsx|file.csv"))
    var export: String?

    @Option(help: ArgumentHelp("Write every row's outcome (CSV).", valueName: "file.csv"))
    var report: String?

    @Option(help: ArgumentHelp("Write the rejected rows (original cells, then file, sheet, row, stage and reason) to fix and re-run.", valueName: "file.csv"))
    var rejects: String?

    @Option(help: "Progress on stderr: auto (a bar on a terminal, plain lines otherwise), bar, plain, jsonl, none.")
    var progress: ProgressStyle = .auto

    func validate() throws {
        if mapping != nil && preset != nil { throw ValidationError("give --mapping or --preset, not both") }
        if enrich == nil, model != nil || noCache || concurrency != nil { throw ValidationError("--model, --no-cache and --concurrency are for --enrich SPEC.yaml") }
        if let concurrency, !(1...32).contains(concurrency) { throw ValidationError("--concurrency is from 1 to 32, not \(concurrency)") }
        if enrich != nil, plan != nil {
            throw ValidationError("--plan cannot hold an enrichment's answers: enrich first (leadport enrich FILE --spec SPEC --export processed.xlsx), then plan the import of processed.xlsx")
        }
        let parsed = try parsedTargets()
        if let user, UUID(uuidString: user) == nil { throw ValidationError("--user takes a user's id (a UUID), not \"\(user)\"") }
        if let export, !export.lowercased().hasSuffix(".csv"), !export.lowercased().hasSuffix(".xlsx") {
            throw ValidationError("--export writes a workbook or CSV: give a .xlsx or .csv file name, not \"\(export)\"")
        }
        // An output written over an input (or over another output) would destroy the list while
        // it is being read.
        var inputs: Set<String> = []
        for file in files where !inputs.insert(Self.canonical(file)).inserted {
            throw ValidationError("\(file) is given twice; name each file to import once")
        }
        // A do-not-contact list and the spec are read too: no output may be written over them either.
        for list in exclude + [enrich].compactMap({ $0 }) { inputs.insert(Self.canonical(list)) }
        var outputs: [String: String] = [:]
        let database: (String, String) = parsed.compactMap(\.embeddedPath).first.map { ("--to", $0) } ?? ("--ledger", ledger)
        for (option, path) in [("--export", export), ("--report", report), ("--rejects", rejects), ("--plan", plan), ("--plan's CSV", plan.map(PlanWriter.csvPath)), database] {
            guard let path else { continue }
            let canonical = Self.canonical(path)
            if inputs.contains(canonical) { throw ValidationError("\(option) \(path) is one of the files read (to import, or to exclude); write it somewhere else") }
            if let other = outputs[canonical] { throw ValidationError("\(option) and \(other) name the same file, \(path)") }
            outputs[canonical] = option
        }
    }

    /// The `--to` values checked: each names a destination once, and at most one is the embedded database.
    func parsedTargets() throws -> [DestinationRegistry.Target] {
        var parsed: [DestinationRegistry.Target] = []
        for value in targets {
            do { parsed.append(try DestinationRegistry.parse(value)) } catch let error as RegistryError { throw ValidationError(error.message) }
        }
        if parsed.filter({ $0.embeddedPath != nil }).count > 1 {
            throw ValidationError("--to sqlite: is given more than once; one embedded database a run (it also keeps the other destinations' ledger)")
        }
        var seen: Set<String> = []
        for target in parsed where !seen.insert(target.value).inserted {
            throw ValidationError("--to \(target.display) is given twice; name each destination once")
        }
        return parsed
    }

    /// A PostgreSQL URL without its password (libpq takes it from PGPASSWORD or ~/.pgpass then);
    /// any other destination as it is.
    static func withoutPassword(_ value: String) -> String {
        guard value.hasPrefix("postgres"), var parts = URLComponents(string: value), parts.password != nil else { return value }
        parts.password = nil
        return parts.string ?? value
    }

    /// An absolute path with symbolic links resolved, to tell whether two names are one file.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    func run() throws { try run(applying: nil) }

    /// The import's own arguments, to run it again by (`leadport apply`): what decides which
    /// rows go where, without the outputs and the progress style, and without a password in a
    /// PostgreSQL URL (libpq takes it from PGPASSWORD or ~/.pgpass then).
    var replayArguments: [String] {
        var arguments = files
        func add(_ name: String, _ value: String?) { if let value { arguments += [name, value] } }
        add("--mapping", mapping)
        add("--preset", preset)
        add("--sheet", sheet)
        for value in destinations { arguments += ["--to", Self.withoutPassword(value)] }
        add("--ledger", ledger)
        add("--user", user)
        add("--campaign", campaign)
        add("--region", region)
        add("--date-order", dateOrder?.rawValue)
        for list in exclude { arguments += ["--exclude", list] }
        return arguments
    }

    /// The import, or with `plan` the carrying out of that plan (`leadport apply`).
    func run(applying check: PlanCheck?) throws {
        let (_, problem) = try perform(applying: check)
        if let problem { throw problem }
    }

    /// The import: its summary, and what makes its exit status other than 0 (thrown by `run`),
    /// if anything. `observe` sees every event the progress does (`leadport sync` keeps each
    /// row's outcome by it); `reporter` replaces the one `--progress` chooses.
    func perform(applying check: PlanCheck?, observe: ((ProgressEvent) -> Void)? = nil, reporter given: ProgressReporter? = nil,
                 afterCommit: (() throws -> Void)? = nil) throws -> (RunSummary, (any Error)?) {
        if let problem = PhoneRule.selfCheck() { throw ValidationError(problem) }
        var options = ImportOptions(files: files)
        options.reader.sheet = sheet
        let style: ProgressStyle = progress == .auto ? (isatty(2) != 0 ? .bar : .plain) : progress
        let reporter = given ?? ProgressReporter(style: style)
        let parsed = try parsedTargets()
        let settings = try Settings.load()
        options.embedded = false
        for target in parsed {
            // Retries are reported as batch events under the destination's name (known once it is open).
            let named = DestinationName()
            named.value = target.display
            let opened: (any Destination)?
            do {
                opened = try DestinationRegistry.open(target, settings: settings, onRetry: { [reporter, named] event in
                    let cause = event.status.map { "HTTP \($0)" } ?? event.error.map { "\($0)" } ?? "an error"
                    reporter.handle(.batch(BatchResult(destination: named.value, size: 0, status: "retry after \(cause)",
                                                       attempt: event.attempt, retryAfter: event.retryAfter ?? event.wait)))
                })
            } catch where parsed.count > 1 {
                // One of several: it stops alone, and the others still get every row.
                options.remotes.append(UnopenedDestination(target: target, error: error))
                continue
            }
            guard let remote = opened else {
                options.embedded = true
                continue
            }
            named.value = remote.name
            options.remotes.append(remote)
        }
        options.databasePath = parsed.compactMap(\.embeddedPath).first ?? ledger
        // As `leadport undo` will open them again: no password, a SQLite file by its full path.
        options.destinationValues = parsed.map { target in
            if let path = target.embeddedPath { return "sqlite:" + Self.canonical(path) }
            return target.stored
        }
        if let user { options.user = user }
        options.buildIdentity = LeadPortVersion.build
        for remote in options.remotes {
            guard let (owner, setting) = remote.credentialsUser else { continue }
            if let given = options.user, given.lowercased() != owner.lowercased() {
                throw ValidationError(user != nil ? "--user \(given) is not the user of \(setting) (\(owner)); leave --user out"
                                                  : "\(setting) belongs to user \(owner), another destination's credentials to \(given): import to each separately")
            }
            options.user = owner
        }
        if let mapping { options.mapping = try Mapping.load(path: mapping) }
        if let preset { options.mapping = try Presets.load(preset) }
        options.campaign = campaign
        options.region = region
        for path in exclude {
            let list = try ExclusionList.load(path: path, region: region ?? options.mapping?.defaults.region ?? "US")
            guard !list.isEmpty else {
                throw ValidationError("--exclude \(path): no phone, email or street address could be read from it; give one a line, or columns named Phone, Email and Address")
            }
            options.exclusions.append(list)
        }
        options.dateOrder = dateOrder
        options.dryRun = dryRun || plan != nil
        options.strictFields = strictFields
        options.afterCommit = afterCommit
        if let enrich {
            options.enrichment = try EnrichmentOptions.open(spec: enrich, model: model, noCache: noCache, concurrency: concurrency ?? 4, dryRun: options.dryRun, reporter: reporter)
        }
        options.apply = check
        // Nothing shows the total: the pass that counts the rows is saved.
        options.countsRows = style != .none
        options.exportPath = export
        options.reportPath = report
        options.rejectsPath = rejects
        for file in files { ReaderNote.print(readerNote(path: file)) }
        // A dry run's plan: on stdout, or in the --plan file.
        let planWriter = options.dryRun ? try PlanWriter(path: plan, arguments: replayArguments) : nil
        // Applying a plan: its rows not met in the file (moved, deleted, their sheet renamed).
        var unmet = Set(check?.rows.keys.map { $0 } ?? [])
        // Ctrl-C or a service manager's stop ends the run cleanly: the rows read so far are
        // delivered, recorded and reported, and the summary and `run_finished` written; a second
        // signal ends it at once.
        // (A parent may have blocked them, as test runners do: they are unblocked here.)
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
        let summary = try ImportRun(options: options) { event in
            // A plan that cannot be written ends the run: the dry run is for it.
            do { try planWriter?.handle(event) } catch { ExitStatus.exit(for: error) }
            if !unmet.isEmpty, case .row(let r) = event {
                unmet.remove(PlanCheck.Key(destination: r.destination, file: r.location.file, sheet: r.location.sheet, row: r.location.row))
            }
            observe?(event)
            reporter.handle(event)
        }.run()
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
        // Each destination that stopped or failed rows says so; the exit status is the gravest.
        var problems: [any Error] = summary.stopped.map(\.error)
        do { try EnrichmentOptions.finish(summary.enrichment, spec: enrich ?? "") } catch let error as EnrichmentStopped { problems.insert(error, at: 0) } catch {}
        for destination in summary.destinations where destination.stopped == nil {
            guard let failed = destination.counts[.failed], failed > 0 else { continue }
            problems.append(DestinationError(destination: destination.name,
                                             message: "\(failed) row\(failed == 1 ? "" : "s") could not be delivered (see the report); run the same import again to send them"))
        }
        if let last = problems.last, Interruption.requested == 0 {
            for problem in problems.dropLast() { ExitStatus.printError("leadport: \(problem)") }
            if problems.count > 1, let worst = problems.compactMap({ ($0 as? any Classified)?.disposition }).map(ExitStatus.status(for:)).max() {
                ExitStatus.printError("leadport: \(last)")
                return (summary, ExitCode(worst))
            }
            return (summary, last)
        }
        if Interruption.requested != 0 {
            let signal = Interruption.requested
            for problem in problems { ExitStatus.printError("leadport: \(problem)") }
            let read = summary.rows
            ExitStatus.printError("leadport: interrupted (\(signal == SIGTERM ? "SIGTERM" : "SIGINT")) after \(read) row\(read == 1 ? "" : "s") read: each has its outcome in the report; "
                                  + "run the same import again for the rest")
            return (summary, ExitCode(ExitStatus.interrupted(by: signal)))
        }
        if (summary.counts[.rejected] ?? 0) > 0 || !unmet.isEmpty { return (summary, ExitCode(ExitStatus.someRejected)) }
        return (summary, nil)
    }
}

/// Mapping presets shipped in mappings/ beside the binary's repository.
enum Presets {
    static func directory() -> String {
        if let env = ProcessInfo.processInfo.environment["LEADPORT_MAPPINGS"] { return env }
        // The binary itself (run by name from PATH, argv[0] is only its name).
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: binary).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("mappings")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
            url.deleteLastPathComponent()
        }
        return "mappings"
    }

    static func load(_ name: String) throws -> Mapping {
        let dir = directory()
        let path = dir + "/" + name + ".yaml"
        guard FileManager.default.fileExists(atPath: path) else {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
            let described = names.map { preset in
                (try? Mapping.load(path: dir + "/" + preset + ".yaml").description).flatMap { $0 }.map { "\(preset): \($0)" } ?? preset
            }
            throw MappingError.unknownPreset(name, available: described)
        }
        return try Mapping.load(path: path)
    }
}

/// The destination's name for events sent before it was open.
final class DestinationName: @unchecked Sendable {
    var value = ""
}
