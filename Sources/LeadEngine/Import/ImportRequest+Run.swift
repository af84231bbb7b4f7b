import Foundation
import LeadConnectors
import LeadCore
import LeadNormalize
import LeadReaders

#if canImport(Glibc)
import Glibc
#endif

extension ImportRequest {
    /// The run's options: the destinations opened, the mapping, the do-not-contact lists and the
    /// enrichment spec read.
    /// - Parameters:
    ///   - build: what built the rules (the version and the binary: `ImportOptions.buildIdentity`).
    ///   - countsRows: whether a pass counts the rows first (something shows the total).
    ///   - onEvent: where retries and the enrichment's spending go, as progress events.
    /// - Throws: `ImportRequestError` for a usage problem found only now (the phone library,
    ///   a user that is not the credentials' owner, an empty list), or what opening failed with.
    public func options(build: String, countsRows: Bool, onEvent: @escaping @Sendable (ProgressEvent) -> Void) throws -> ImportOptions {
        if let problem = PhoneRule.selfCheck() { throw ImportRequestError(problem) }
        var options = ImportOptions(files: files)
        options.reader.sheet = sheet
        options.emptyListsAllowed = emptyListsAllowed
        options.unplannedListsHeldBack = unplannedListsHeldBack
        let parsed = try parsedTargets()
        let settings = try Settings.load()
        options.embedded = false
        for target in parsed {
            // Retries are reported as batch events under the destination's name (known once it is open).
            let named = DestinationName(target.display)
            let opened: (any Destination)?
            do {
                opened = try DestinationRegistry.open(target, settings: settings, onRetry: { [named] event in
                    let cause = event.status.map { "HTTP \($0)" } ?? event.error.map { "\($0)" } ?? "an error"
                    onEvent(.batch(BatchResult(destination: named.value, size: 0, status: "retry after \(cause)",
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
        options.buildIdentity = build
        for remote in options.remotes {
            guard let (owner, setting) = remote.credentialsUser else { continue }
            if let given = options.user, given.lowercased() != owner.lowercased() {
                throw ImportRequestError(user != nil ? "--user \(given) is not the user of \(setting) (\(owner)); leave --user out"
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
                throw ImportRequestError("--exclude \(path): no phone, email or street address could be read from it; give one a line, or columns named Phone, Email and Address")
            }
            options.exclusions.append(list)
        }
        options.dateOrder = dateOrder
        options.dryRun = dryRun || plan != nil
        options.strictFields = strictFields
        if let enrich {
            options.enrichment = try Enrichment.open(spec: enrich, model: model, noCache: noCache, concurrency: concurrency ?? 4, dryRun: options.dryRun, onEvent: onEvent)
        }
        // Nothing shows the total: the pass that counts the rows is saved.
        options.countsRows = countsRows
        options.exportPath = export
        options.reportPath = report
        options.rejectsPath = rejects
        return options
    }

    /// What makes a finished run's exit status other than 0, if anything: each destination that
    /// stopped or failed rows, the enrichment, an interruption, rejected rows. All but the one
    /// returned are said through `warn` (the gravest status wins when there are several).
    /// - Parameter unmetRows: some rows of an applied plan were not found in the file.
    public func problem(of summary: RunSummary, unmetRows: Bool = false, warn: (String) -> Void) -> (any Error)? {
        var problems: [any Error] = summary.stopped.map(\.error)
        do { try Enrichment.finish(summary.enrichment, spec: enrich ?? "", withheld: summary.exportWithheld) } catch let error as EnrichmentStopped { problems.insert(error, at: 0) } catch {}
        for destination in summary.destinations where destination.stopped == nil {
            guard let failed = destination.counts[.failed], failed > 0 else { continue }
            problems.append(DestinationError(destination: destination.name,
                                             message: "\(failed) row\(failed == 1 ? "" : "s") could not be delivered (see the report); run the same import again to send them"))
        }
        if let last = problems.last, Interruption.requested == 0 {
            for problem in problems.dropLast() { warn("leadport: \(problem)") }
            if problems.count > 1 {
                warn("leadport: \(last)")
                return FinishedWithStatus(ExitStatus.gravest(problems.map { ($0 as? any Classified)?.disposition ?? .terminal }))
            }
            return last
        }
        if Interruption.requested != 0 {
            let signal = Interruption.requested
            for problem in problems { warn("leadport: \(problem)") }
            let read = summary.rows
            warn("leadport: interrupted (\(signal == SIGTERM ? "SIGTERM" : "SIGINT")) after \(read) row\(read == 1 ? "" : "s") read: each has its outcome in the report; "
                 + "run the same import again for the rest")
            return FinishedWithStatus(ExitStatus.interrupted(by: signal))
        }
        if (summary.counts[.rejected] ?? 0) > 0 || unmetRows { return FinishedWithStatus(ExitStatus.someRejected) }
        return nil
    }

    /// The import, start to end, for a caller with no plan to write or apply (a sync job): its
    /// summary, and what makes its exit status other than 0 (see `problem(of:)`).
    /// - Parameters:
    ///   - onEvent: every progress event, from one thread at a time.
    ///   - afterCommit: called after each commit of the run's ledger.
    ///   - warn: notes and problems for people (the reader's notes, all problems but the last).
    public func perform(build: String, countsRows: Bool, onEvent: @escaping @Sendable (ProgressEvent) -> Void,
                        afterCommit: (() throws -> Void)? = nil, warn: (String) -> Void) throws -> (RunSummary, (any Error)?) {
        var options = try self.options(build: build, countsRows: countsRows, onEvent: onEvent)
        options.afterCommit = afterCommit
        for file in files { if let note = readerNote(path: file) { warn("leadport: \(note)") } }
        let summary = try ImportRun(options: options, emit: onEvent).run()
        return (summary, problem(of: summary, warn: warn))
    }
}

/// The destination's name for events sent before it was open.
private final class DestinationName: @unchecked Sendable {
    var value: String

    init(_ value: String) { self.value = value }
}
