import Foundation
import LeadCore
import LeadEnrich
import LeadNormalize
import LeadPortKit
import LeadReaders
import LeadStore
import LeadWriters

public struct EnrichOptions: Sendable {
    public var file: String
    public var reader = RowReaderOptions()
    public var mapping: Mapping?
    /// Where the answers are cached (the ledger's file).
    public var databasePath = "leadport.db"
    public var exportPath: String?
    public var reportPath: String?
    /// Whether the rows are counted first, for the progress total.
    public var countsRows = true
    public var dryRun = false

    public init(file: String) { self.file = file }
}

/// One `leadport enrich` (the seed-002 flow): every row of a list through the model, a few
/// requests' worth at a time, and written out in the list's order with the answers after its
/// own columns, then `_status`, `_reason` and `_source_row`. Every row has one outcome:
/// enriched, skipped (blank, or nothing to send), rejected (with why) or pending.
public final class EnrichRun: @unchecked Sendable {
    private let options: EnrichOptions
    /// Opens the stage (the endpoint, its key, the budget) once the list has been planned.
    private let openEnrichment: () throws -> Enrichment
    private let emit: @Sendable (ProgressEvent) -> Void

    public init(options: EnrichOptions, enrichment: @escaping () throws -> Enrichment, emit: @escaping (ProgressEvent) -> Void) {
        self.options = options
        self.openEnrichment = enrichment
        let emitting = NSLock()
        nonisolated(unsafe) let given = emit
        self.emit = { event in emitting.withLock { given(event) } }
    }

    public func run() throws -> RunSummary {
        let started = Date()
        let runID = UUID().uuidString.lowercased()
        let file = options.file
        // Planned first: a list with nothing to enrich leaves no cache behind, and what is
        // wrong with the list (no such file, standard input) is said before the endpoint's
        // settings are asked for.
        let plan = try ColumnPlan.make(path: file, options: options.reader, mapping: options.mapping)
        let enrichment = try openEnrichment()
        // A dry run leaves no file behind: a cache that is not there yet is an empty one in memory.
        let store = try LeadStore(path: options.dryRun && !FileManager.default.fileExists(atPath: options.databasePath) ? ":memory:" : options.databasePath)
        defer { try? store.close() }
        let columns = try enrichment.columns(for: plan, file: file)
        let names = plan.columnNames
        let total = options.countsRows ? try openRowReader(path: file, options: options.reader).count().rows - plan.rowsThroughHeader : 0
        emit(.runStarted(runID: runID, inputs: [file], destinations: ["enrich"], total: total))

        let fields = enrichment.spec.fields
        let staged = options.dryRun ? nil : options.exportPath.map(StagedFile.init)
        var settled = false
        defer { if !settled { staged?.discard() } }
        let export = try staged.map { try openTableWriter(path: $0.staging, shownAs: $0.path) }
        let report = options.dryRun ? nil : try options.reportPath.map { try CSVWriter(path: $0) }
        let sheet = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        try export?.startSheet(sheet, header: names + fields.map(\.name) + ["_status", "_reason", "_source_row"])
        try report?.write(["file", "sheet", "row", "outcome", "cached", "reason"])

        let reader = try openRowReader(path: file, options: options.reader)
        var chunk: [RawRow] = []
        func flush() throws {
            guard !chunk.isEmpty else { return }
            let rows = chunk
            let outcomes = try enrichment.process(rows, columns: columns, names: names, store: store) { [emit] i, outcome in
                emit(.enrichedRow(rows[i].location, outcome))
            }
            for (row, outcome) in zip(chunk, outcomes) {
                var cached = ""
                if case .enriched(_, let fromCache) = outcome { cached = fromCache ? "true" : "false" }
                try report?.write([row.location.file, row.location.sheet ?? "", String(row.location.row), outcome.name, cached, outcome.reason ?? ""])
                guard let export else { continue }
                let own = row.cells.count >= names.count ? Array(row.cells.prefix(names.count)) : row.cells + Array(repeating: "", count: names.count - row.cells.count)
                let answers = fields.map { field in Self.cell(outcome.values?[field.name]) }
                try export.write(own.map(SheetCell.text) + answers + [.text(outcome.name), .text(outcome.reason ?? ""), .number(Double(row.location.row))])
            }
            chunk.removeAll(keepingCapacity: true)
        }
        while let row = try reader.next() {
            if let header = plan.headerRow, row.location.row <= header { continue }
            chunk.append(row)
            if chunk.count >= enrichment.chunkRows { try flush() }
        }
        try flush()
        try export?.close()
        try report?.close()
        let tally = enrichment.summary
        var summary = RunSummary(runID: runID, rows: tally.rows, counts: [:], seconds: Date().timeIntervalSince(started), dryRun: options.dryRun,
                                 destinations: [], enrichment: tally)
        if let staged, StagedFile.withheld(by: tally) {
            staged.discard()
            summary.exportWithheld = staged.path
        } else {
            try staged?.keep()
        }
        settled = true
        emit(.runFinished(summary))
        return summary
    }

    /// An answer as a cell of the processed sheet: numbers as numbers, the rest as text.
    static func cell(_ value: EnrichValue?) -> SheetCell {
        switch value {
        case .integer(let n): return .number(Double(n))
        case .number(let x): return .number(x)
        case .some(let other): return .text(other.cell)
        case nil: return .text("")
        }
    }
}
