import ArgumentParser
import Foundation
import HTTPKit
import LeadEngine
import LeadNormalize
import LeadReaders

/// `leadport enrich`: every row of a list through an LLM, out as a processed spreadsheet.
struct Enrich: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Have an LLM fill columns for every row of a list (an enrichment spec: docs/enrich.md), and write the processed spreadsheet.",
        discussion: """
            Rows go to any OpenAI-compatible endpoint: OPENAI_BASE_URL (with its /v1; default \
            OpenAI's) and OPENAI_API_KEY. A local llama.cpp server or Ollama speaks the same API \
            and keeps the list on the machine. Answers are cached in the ledger (--ledger): a \
            rerun, or the same rows in another file, sends nothing again.
            Every row ends enriched, skipped (blank, or nothing to send), rejected (the model's \
            answer could not be used, even asked alone: the reason says why) or pending (the \
            budget was reached or the endpoint stopped: the next run does them).
            Exit status: 0 every row enriched or skipped; 3 some rows rejected; 1 the run \
            stopped (the budget, max_cost, was reached, or the endpoint failed) or the list \
            could not be read; 2 a usage, spec or configuration problem (a file that is not there \
            among them).
            """
    )

    @Argument(help: "A CSV file or .xlsx workbook.")
    var file: String

    @OptionGroup var enrichment: EnrichmentOptions

    @OptionGroup var source: SourceOptions

    @OptionGroup var ledger: LedgerOptions

    @OptionGroup var output: OutputOptions

    @Flag(help: "Send nothing: print the rows to send, the requests, the estimated tokens and the cost at most (answers already cached count nothing).")
    var dryRun = false

    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        if source.mapping != nil && source.preset != nil { throw ValidationError("give --mapping or --preset, not both") }
        if output.export == nil && output.report == nil && !dryRun {
            throw ValidationError("give --export FILE.xlsx (the processed spreadsheet), --report FILE.csv, or --dry-run: otherwise the answers would only be cached")
        }
        if let export = output.export, !export.lowercased().hasSuffix(".csv"), !export.lowercased().hasSuffix(".xlsx") {
            throw ValidationError("--export writes a workbook or CSV: give a .xlsx or .csv file name, not \"\(export)\"")
        }
        var outputs: [String: String] = [ImportRequest.canonical(file): "the list", ImportRequest.canonical(enrichment.spec): "--spec"]
        for (option, path) in [("--export", output.export), ("--report", output.report), ("--ledger", ledger.ledger)] {
            guard let path else { continue }
            if let other = outputs[ImportRequest.canonical(path)] { throw ValidationError("\(option) \(path) is \(other == "the list" || other == "--spec" ? other + "'s file" : "also " + other); write it somewhere else") }
            outputs[ImportRequest.canonical(path)] = option
        }
    }

    func run() throws {
        let style = progress.style
        let reporter = ProgressReporter(style: style)
        for line in Import.settingWarnings() { reporter.handle(.warning(RunWarning(code: "unknown_setting", message: line))) }
        var options = EnrichOptions(file: file)
        options.reader.sheet = source.sheet
        if let mapping = source.mapping { options.mapping = try Mapping.load(path: mapping) }
        if let preset = source.preset { options.mapping = try Presets.load(preset) }
        if options.reader.sheet == nil { options.reader.sheet = options.mapping?.sheet }
        options.databasePath = ledger.ledger
        options.exportPath = output.export
        options.reportPath = output.report
        options.dryRun = dryRun
        options.countsRows = style != .none
        ReaderNote.print(readerNote(path: file))
        let summary = try EnrichRun(options: options, enrichment: { try enrichment.open(dryRun: dryRun, reporter: reporter) }, emit: reporter.handle).run()
        if let export = output.export, !dryRun, summary.exportWithheld == nil { ExitStatus.printError("processed sheet written to \(export)") }
        try Enrichment.finish(summary.enrichment, spec: enrichment.spec, withheld: summary.exportWithheld)
    }
}

/// The options `enrich` and `import --enrich` share: the spec, the model, the cache.
struct EnrichmentOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The enrichment spec (YAML: instructions, fields, rows_per_request, max_cost; docs/enrich.md).", valueName: "spec.yaml"))
    var spec: String

    @Option(help: ArgumentHelp("The model, over the spec's (as the endpoint names it: gpt-4o-mini, or a local server's model).", valueName: "name"))
    var model: String?

    @Flag(help: "Ask the model again for every row, even those answered before with the same spec and content (the new answers replace the cached ones).")
    var noCache = false

    @Option(help: ArgumentHelp("Requests in flight at once (each paced by the endpoint's rate-limit headers).", valueName: "n"))
    var concurrency: Int = 4

    func validate() throws {
        guard (1...32).contains(concurrency) else { throw ValidationError("--concurrency is from 1 to 32, not \(concurrency)") }
    }

    /// The stage, its client set up from the environment (and the config file), its retries
    /// shown as the progress's batch events.
    func open(dryRun: Bool, reporter: ProgressReporter) throws -> Enrichment {
        try Enrichment.open(spec: spec, model: model, noCache: noCache, concurrency: concurrency, dryRun: dryRun, onEvent: { reporter.handle($0) })
    }
}
