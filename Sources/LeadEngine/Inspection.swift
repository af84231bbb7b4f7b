import LeadCore
import LeadNormalize
import LeadReaders

/// What `leadport inspect` reports about a file: how it reads, where its header is, and what
/// each column seems to hold.
public struct Inspection: Sendable {
    public struct SheetSummary: Sendable {
        public var info: SheetInfo
        public var rows: Int
        public var columns: Int
        /// False when the survey stopped at a limit: `rows` and `columns` are then lower bounds.
        public var complete: Bool
        /// False when the time for surveying the workbook ran out before this sheet.
        public var surveyed: Bool
    }

    public struct ColumnSummary: Sendable {
        public var index: Int
        public var letters: String
        public var name: String
        /// email, phone, zip, state, date, number, boolean, url, text or empty.
        public var kind: String
        public var samples: [String]
        public var filled: Int
        /// The LeadPort field this column looks like, and how sure that is (0–1).
        public var suggestedField: String?
        public var confidence: Double
        /// Why: "header", "values look like phone", "header and values agree", …
        public var reason: String
    }

    public var source: SourceDescription
    public var sheets: [SheetSummary]
    /// 1-based row of the detected header in the inspected sheet; nil when none was found.
    public var headerRow: Int?
    public var dataRows: Int
    /// False when the survey stopped at a limit: `dataRows` is then a lower bound.
    public var dataRowsComplete: Bool
    public var columns: [ColumnSummary]
    public var suggestions: [AutoMapper.Suggestion]

    /// The auto-mapper's mapping for this file, ready to write with `Mapping.yaml`.
    public var suggestedMapping: Mapping {
        var mapping = AutoMapper.mapping(headers: columns.map(\.name), suggestions: suggestions)
        mapping.headerRow = headerRow
        if source.format == .xlsx, let sheet = source.sheet { mapping.sheet = sheet.name }
        return mapping
    }
}

public enum Inspector {
    /// The rows read one by one for the header and the column profiles: at most this many
    /// rows, or cells (a row that reaches column XFD is 16,384 cells).
    static let sampleRows = 2000
    static let sampleCells = 200_000
    /// Values tried against the rules, over all columns: a wide sheet gets fewer per column
    /// (at most 200, at least 1).
    static let profiledValues = 20_000

    /// Describes the file: reads a sample of the inspected sheet, and surveys every sheet of a
    /// workbook (or the CSV file) for its size within `limits`, so a hostile or huge file
    /// costs seconds, not hours; what a limit stopped is reported as a lower bound.
    public static func inspect(path: String, options: RowReaderOptions, limits: SurveyLimits = SurveyLimits()) throws -> Inspection {
        let reader = try openRowReader(path: path, options: options)
        let source = reader.description
        var rows: [RawRow] = []
        var cellsRead = 0
        // Blank rows above the list (up to `HeaderDetector.blankRowsAbove`) are not part of the sample.
        var blankAbove = 0
        while rows.count - blankAbove < sampleRows, cellsRead < sampleCells, let row = try reader.next() {
            rows.append(row)
            if blankAbove == rows.count - 1, blankAbove < HeaderDetector.blankRowsAbove, !row.hasText {
                blankAbove += 1
                continue
            }
            cellsRead += max(1, row.cells.count)
        }
        var sheets: [Inspection.SheetSummary] = []
        var size: SheetSurvey
        if source.format == .xlsx {
            let surveys = try surveyEverySheet(of: reader, limits: limits)
            for (sheet, survey) in zip(source.sheets, surveys) {
                sheets.append(Inspection.SheetSummary(info: sheet, rows: survey?.rows ?? 0, columns: survey?.columns ?? 0,
                                                      complete: survey?.complete ?? false, surveyed: survey != nil))
            }
            size = source.sheet.flatMap { surveys[$0.position - 1] } ?? SheetSurvey(rows: rows.count, cells: 0, columns: 0, complete: false)
        } else if path == "-" {
            // Standard input reads once: the survey goes on from the end of the sample.
            size = try reader.survey(limits: limits)
            size.rows += rows.count
        } else {
            size = try openRowReader(path: path, options: options).survey(limits: limits)
        }
        let headerIndex = HeaderDetector.detect(top: rows.map(\.cells))
        let header = headerIndex.map { rows[$0].cells } ?? []
        let body = headerIndex.map { Array(rows[($0 + 1)...]) } ?? rows
        let (columns, suggestions) = profile(header: header, body: body)
        let dataRows = max(0, size.rows - (headerIndex.map { $0 + 1 } ?? 0))
        return Inspection(source: source, sheets: sheets, headerRow: headerIndex.map { rows[$0].location.row },
                          dataRows: dataRows, dataRowsComplete: size.complete, columns: columns, suggestions: suggestions)
    }

    /// Each column's kind, samples and suggested field, from the sample's rows below the header.
    private static func profile(header: [String], body: [RawRow]) -> ([Inspection.ColumnSummary], [AutoMapper.Suggestion]) {
        let width = max(header.count, body.map { $0.trimmedCells.count }.max() ?? 0)
        let perColumn = max(1, min(200, profiledValues / max(width, 1)))
        var values = [[String]](repeating: [], count: width)
        var samples = [[String]](repeating: [], count: width)
        var filled = [Int](repeating: 0, count: width)
        for row in body {
            for (k, cell) in row.cells.enumerated() where !cell.isEmpty {
                filled[k] += 1
                if values[k].count < perColumn { values[k].append(cell) }
                if samples[k].count < 3 && !samples[k].contains(cell) { samples[k].append(cell) }
            }
        }
        var columns: [Inspection.ColumnSummary] = []
        var suggestions: [AutoMapper.Suggestion] = []
        for k in 0..<width {
            let name = k < header.count ? header[k] : ""
            let suggestion = AutoMapper.suggest(header: name, values: values[k], column: k)
            suggestions.append(suggestion)
            // Degrees the header names as a latitude or longitude are coordinates, however few
            // their decimals (`42.36`): by their values alone they would read as numbers.
            var kind = ColumnProfiler.kind(of: values[k])
            if suggestion.field == .latitude || suggestion.field == .longitude, ColumnProfiler.areDegrees(values[k]) { kind = "coordinate" }
            columns.append(Inspection.ColumnSummary(index: k, letters: Column.letters(for: k), name: name,
                                                    kind: kind, samples: samples[k], filled: filled[k],
                                                    suggestedField: suggestion.field?.rawValue, confidence: suggestion.confidence,
                                                    reason: suggestion.why))
        }
        return (columns, suggestions)
    }
}
