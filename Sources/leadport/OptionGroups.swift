import ArgumentParser
import Foundation

// The options several commands share, each declared once with one help text.

/// How a list's columns are read: `import` and `enrich`.
struct SourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A mapping file (YAML; see docs/mappings.md).", valueName: "file.yaml"))
    var mapping: String?

    @Option(help: ArgumentHelp("A mapping preset from mappings/: flyr-recipients, flyr-contacts, google-contacts-csv, hubspot-export, followupboss-export, generic-leads, owner-list.",
                               valueName: "name"))
    var preset: String?

    @Option(help: "The sheet to read, by name or 1-based position.")
    var sheet: String?
}

/// What a run writes besides its work: `import`, `enrich`, `apply`.
struct OutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the processed spreadsheet (.xlsx or .csv): the list's columns and what was made of them (normalised columns, an enrichment's fields), _status, _reason, _source_row.",
                               valueName: "file.xlsx|file.csv"))
    var export: String?

    @Option(help: ArgumentHelp("Write every row's outcome (CSV).", valueName: "file.csv"))
    var report: String?
}

/// The rows to fix: `import` and `apply`.
struct RejectsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the rejected rows (original cells, then file, sheet, row, stage and reason) to fix and re-run.", valueName: "file.csv"))
    var rejects: String?
}

/// Progress on stderr: `import`, `enrich`, `apply`, `sync`, `export vdp`.
struct ProgressOptions: ParsableArguments {
    @Option(help: "Progress on stderr: auto (bar on a terminal, plain otherwise), bar, plain, jsonl (one JSON event a line), none.")
    var progress: Import.ProgressStyle = .auto

    /// `auto` decided for this process: a bar on a terminal, plain lines otherwise.
    var style: Import.ProgressStyle { progress == .auto ? (isatty(2) != 0 ? .bar : .plain) : progress }
}

/// Where the runs are kept: `import`, `enrich`, `undo`, `status`.
struct LedgerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The ledger (a SQLite file): the runs, what each sent where, and the cached enrichment answers; for a run into --to sqlite:FILE, that file.",
                               valueName: "file.db"))
    var ledger: String = "leadport.db"
}
