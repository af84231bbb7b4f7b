/// What `leadport inspect` reports about a file: how it reads, where its header is, and what
/// each column seems to hold.
public struct Inspection: Sendable {
    public struct SheetSummary: Sendable {
        public var info: SheetInfo
        public var rows: Int
        public var columns: Int
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
    /// Reads the file (every sheet of a workbook, to size them) and describes it.
    public static func inspect(path: String, options: RowReaderOptions) throws -> Inspection {
        let reader = try openRowReader(path: path, options: options)
        let source = reader.description
        var sheets: [Inspection.SheetSummary] = []
        if source.format == .xlsx {
            for sheet in source.sheets {
                var sheetOptions = options
                sheetOptions.sheet = String(sheet.position)
                let sized = try size(try openRowReader(path: path, options: sheetOptions))
                sheets.append(Inspection.SheetSummary(info: sheet, rows: sized.rows, columns: sized.columns))
            }
        }
        var head: [RawRow] = []
        var total = 0
        var rows: [RawRow] = []
        while let row = try reader.next() {
            if head.count < 30 { head.append(row) }
            total += 1
            if rows.count < 2000 { rows.append(row) }
        }
        let headerIndex = HeaderDetector.detect(head.map(\.cells))
        let header = headerIndex.map { head[$0].cells } ?? []
        let body = headerIndex.map { Array(rows[($0 + 1)...]) } ?? rows
        let width = max(header.count, body.map { $0.trimmedCells.count }.max() ?? 0)
        var columns: [Inspection.ColumnSummary] = []
        var suggestions: [AutoMapper.Suggestion] = []
        for k in 0..<width {
            let name = k < header.count ? header[k] : ""
            let values = body.compactMap { k < $0.cells.count && !$0.cells[k].isEmpty ? $0.cells[k] : nil }
            let kind = ColumnProfiler.kind(of: values)
            var samples: [String] = []
            for v in values where !samples.contains(v) {
                samples.append(v)
                if samples.count == 3 { break }
            }
            let suggestion = AutoMapper.suggest(header: name, values: values, column: k)
            suggestions.append(suggestion)
            columns.append(Inspection.ColumnSummary(index: k, letters: Column.letters(for: k), name: name, kind: kind,
                                                    samples: samples, filled: values.count,
                                                    suggestedField: suggestion.field?.rawValue, confidence: suggestion.confidence,
                                                    reason: suggestion.why))
        }
        return Inspection(source: source, sheets: sheets, headerRow: headerIndex.map { head[$0].location.row },
                          dataRows: total - (headerIndex.map { $0 + 1 } ?? 0), columns: columns, suggestions: suggestions)
    }

    private static func size(_ reader: any RowReader) throws -> (rows: Int, columns: Int) {
        var rows = 0
        var columns = 0
        while let row = try reader.next() {
            rows += 1
            columns = max(columns, row.trimmedCells.count)
        }
        return (rows, columns)
    }
}
