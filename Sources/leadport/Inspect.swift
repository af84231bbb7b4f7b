import ArgumentParser
import Foundation
import LeadCore
import LeadEngine
import LeadNormalize
import LeadPortKit
import LeadReaders

/// `leadport inspect`: how LeadPort reads a file.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show how a file reads: format, encoding, delimiter, sheets, header row and columns.",
        discussion: """
            The header row is found past title rows, notes and blank rows. Each column gets an \
            inferred kind, sample values and the lead field it looks like, with a confidence (0-1) \
            and the reason. Columns at 0.7 or above are mapped when importing without a mapping.
            --mapping-out writes that suggestion as a mapping file (docs/mappings.md) to edit and \
            pass to `leadport import --mapping`.
            --preset or --mapping shows what that mapping makes of this file: the columns it \
            names, and the columns a preset does not name, mapped automatically as an import \
            would map them.
            """
    )

    @Argument(help: "A CSV file or an .xlsx workbook; - reads CSV text from standard input.")
    var file: String

    @Option(help: "The sheet to inspect, by name or 1-based position. Default: the first.")
    var sheet: String?

    @Option(help: ArgumentHelp("CSV delimiter to use instead of detecting one.", valueName: "char"))
    var delimiter: String?

    @Option(help: ArgumentHelp("Show the columns as this preset from mappings/ maps them.", valueName: "name"))
    var preset: String?

    @Option(help: ArgumentHelp("Show the columns as this mapping file maps them.", valueName: "file.yaml"))
    var mapping: String?

    @Flag(help: "Print the inspection as one JSON document.")
    var json = false

    @Option(help: ArgumentHelp("Write the suggested mapping to this YAML file.", valueName: "file.yaml"))
    var mappingOut: String?

    @Flag(help: "Let --mapping-out replace an existing file.")
    var force = false

    func validate() throws {
        if mapping != nil && preset != nil { throw ValidationError("give --mapping or --preset, not both") }
        if let mappingOut, !force, FileManager.default.fileExists(atPath: mappingOut) {
            throw ValidationError("\(mappingOut) already exists; pass --force to replace it")
        }
    }

    func run() throws {
        // Which columns hold phones is judged by the phone rule.
        if let problem = PhoneRule.selfCheck() { throw ValidationError(problem) }
        var options = RowReaderOptions(sheet: sheet)
        options.delimiter = try DelimiterOption.parse(delimiter)
        let inspection = try Inspector.inspect(path: file, options: options)
        ReaderNote.print(inspection.source.note)
        var applied: AppliedMapping?
        if let given = try preset.map(Presets.load) ?? mapping.map({ try Mapping.load(path: $0) }) {
            let plan = try ColumnPlan.make(path: file, options: options, mapping: given)
            applied = AppliedMapping(plan: plan, source: preset.map { "preset \($0)" } ?? "mapping \(mapping ?? "")")
        }
        let out = StandardOutput.shared
        if json {
            var text = InspectionJSON.render(inspection)
            if let applied { text = String(text.dropLast()) + ",\"mapping\":" + applied.json + "}" }
            try out.write(text + "\n")
        } else {
            try out.write(InspectionText.render(inspection) + (applied?.text ?? ""))
        }
        if let mappingOut {
            let text = MappingSuggestion.yaml(inspection, file: file)
            guard FileManager.default.createFile(atPath: mappingOut, contents: Data(text.utf8)) else {
                throw ValidationError("cannot write \(mappingOut)")
            }
            if !json { try out.write("mapping written to \(mappingOut)\n") }
        }
    }
}

/// The auto-mapper's suggestion as a commented mapping file.
enum MappingSuggestion {
    static func yaml(_ i: Inspection, file: String) -> String {
        let mapping = i.suggestedMapping
        var order: [String] = []
        var notes: [String: String] = [:]
        var unmapped: [String: String] = [:]
        for (c, s) in zip(i.columns, i.suggestions) {
            let header = c.name.isEmpty ? c.letters : c.name
            order.append(header)
            let confidence = String(format2: s.confidence)
            if mapping.columns[header] != nil {
                notes[header] = "\(confidence): \(s.why)"
            } else if let field = s.field {
                let why = s.confidence < AutoMapper.threshold
                    ? "below \(String(format2: AutoMapper.threshold))"
                    : "\(mapping.columns.first { $0.value.field == field }.map { "\"\($0.key)\"" } ?? "another column") is surer"
                unmapped[header] = "\(field.rawValue)   # \(confidence): \(s.why); not mapped: \(why)"
            } else {
                unmapped[header] = "ignore   # no field matched; kept as an extra unless set to ignore"
            }
        }
        let comment = """
            Mapping suggested by `leadport inspect` for \((file as NSString).lastPathComponent).
            Each line: "header": field   # confidence: why. Commented lines were not mapped;
            uncomment and edit them to use them. Fields and options: docs/mappings.md.
            Use it with: leadport import FILE --mapping THIS.yaml

            """
        return mapping.yaml(comment: comment, columnOrder: order, notes: notes, unmapped: unmapped)
    }
}

enum InspectionText {
    static func render(_ i: Inspection) -> String {
        var lines: [String] = []
        let s = i.source
        lines.append("file:       \(s.file)")
        lines.append("format:     \(s.format.rawValue)")
        if let encoding = s.encoding { lines.append("encoding:   \(encoding)") }
        if let d = s.delimiter { lines.append("delimiter:  \(d == "\t" ? "tab" : String(d)) (\(s.delimiterSource ?? "detected"))") }
        if !i.sheets.isEmpty {
            lines.append("sheets:")
            for sheet in i.sheets {
                let marker = sheet.info.name == s.sheet?.name ? "*" : " "
                var extra = sheet.info.isHidden ? ", \(sheet.info.state)" : ""
                if sheet.info.kind != .worksheet { extra += ", \(sheet.info.kind.rawValue)" }
                let size = !sheet.surveyed ? "not surveyed (the time for sizing sheets ran out)"
                    : sheet.complete ? "\(numbered(sheet.rows, "row")), \(numbered(sheet.columns, "column"))"
                    : "at least \(numbered(sheet.rows, "row")), \(numbered(sheet.columns, "column")) (sizing stopped at its limit)"
                lines.append("  \(marker)\(sheet.info.position) \"\(sheet.info.name)\": \(size)\(extra)")
            }
        }
        lines.append("header row: \(i.headerRow.map(String.init) ?? "none found")")
        lines.append("data rows:  \(i.dataRowsComplete ? "" : "at least ")\(i.dataRows)")
        lines.append("columns:")
        let nameWidth = min(28, i.columns.map { $0.name.count + 2 }.max() ?? 4)
        for c in i.columns {
            let name = "\"\(c.name)\"".padded(to: nameWidth)
            // A guess below the threshold is shown as what it is: import leaves the column out.
            let field = c.suggestedField.map { suggested in
                c.confidence < AutoMapper.threshold
                    ? "→ (not mapped: \(suggested)? \(String(format2: c.confidence)) is below \(String(format2: AutoMapper.threshold)), \(c.reason); map it in a mapping file)"
                    : "→ \(suggested) (\(String(format2: c.confidence)), \(c.reason))"
            } ?? "→ (unmapped)"
            let kind = c.kind.padded(to: 7)
            let samples = c.samples.map { "\"\($0)\"" }.joined(separator: ", ")
            lines.append("  \(c.letters.padded(to: 3)) \(name) \(kind) \(field)  e.g. \(samples)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

enum InspectionJSON {
    static func render(_ i: Inspection) -> String {
        let s = i.source
        var fields: [(String, String)] = [
            ("file", string(s.file)), ("format", string(s.format.rawValue)),
            ("encoding", s.encoding.map(string) ?? "null"),
            ("delimiter", s.delimiter.map { string(String($0)) } ?? "null"),
            ("delimiter_source", s.delimiterSource.map(string) ?? "null"),
        ]
        let sheets = i.sheets.map { sheet in
            object([("position", "\(sheet.info.position)"), ("name", string(sheet.info.name)), ("state", string(sheet.info.state)),
                    ("hidden", sheet.info.isHidden ? "true" : "false"), ("kind", string(sheet.info.kind.rawValue)),
                    ("rows", sheet.surveyed ? "\(sheet.rows)" : "null"), ("columns", sheet.surveyed ? "\(sheet.columns)" : "null"),
                    ("complete", sheet.complete ? "true" : "false")])
        }
        fields.append(("sheets", "[" + sheets.joined(separator: ",") + "]"))
        fields.append(("sheet", s.sheet.map { string($0.name) } ?? "null"))
        fields.append(("header_row", i.headerRow.map(String.init) ?? "null"))
        fields.append(("data_rows", "\(i.dataRows)"))
        fields.append(("data_rows_complete", i.dataRowsComplete ? "true" : "false"))
        fields.append(("note", s.note.map(string) ?? "null"))
        let columns = i.columns.map { c in
            object([("index", "\(c.index)"), ("letter", string(c.letters)), ("name", string(c.name)), ("kind", string(c.kind)),
                    ("filled", "\(c.filled)"), ("samples", "[" + c.samples.map(string).joined(separator: ",") + "]"),
                    ("suggested_field", c.suggestedField.map(string) ?? "null"), ("confidence", String(format2: c.confidence)),
                    ("reason", string(c.reason))])
        }
        fields.append(("columns", "[" + columns.joined(separator: ",") + "]"))
        return object(fields)
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func string(_ text: String) -> String { JSONText.quote(text) }
}

extension String {
    /// The string with spaces added up to `width` characters.
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// Two decimals without Foundation: 0.95 → "0.95".
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
