import LeadCore
import LeadNormalize
import LeadReaders

/// Which column feeds which field, settled once per file from a mapping or the auto-mapper.
public struct ColumnPlan: Sendable {
    public var headerRow: Int?
    /// Rows the reader gives up to and including the header (title rows, notes, the header).
    public var rowsThroughHeader: Int
    public var headers: [String]
    /// Columns of the list: the header's, or more when the rows read ahead are wider.
    public var width: Int
    /// The header padded to `width`, a column without a name called by its letter.
    public var columnNames: [String] {
        (0..<width).map { k in k < headers.count && !headers[k].isEmpty ? headers[k] : Column.letters(for: k) }
    }
    /// Column index → field.
    public var fields: [Int: LeadField]
    /// A list with a mailing address and no property address (an owner list of mailing columns
    /// alone): the mailing columns are taken as the address, the only one the leads have, so
    /// that contacts and a campaign get it. True when they were.
    ///
    /// A mailing street that is the list's only street, beside a city, state or ZIP that are not
    /// the mailing address's (a CRM export's `Mailing Street`, `Town`, `ST`, `Zip Code`), is the
    /// street of that address (not said: the list has one address).
    public mutating func useMailingAsAddress() -> Bool {
        let property: Set<LeadField> = [.address, .unit, .city, .state, .zip]
        let mailing: [LeadField: LeadField] = [.mailingAddress: .address, .mailingCity: .city, .mailingState: .state, .mailingZip: .zip]
        guard fields.values.contains(.mailingAddress) else { return false }
        guard !fields.values.contains(where: property.contains) else {
            if !fields.values.contains(.address), !fields.values.contains(where: { $0 != .mailingAddress && mailing[$0] != nil }) {
                for (k, field) in fields where field == .mailingAddress { fields[k] = .address }
            }
            return false
        }
        for (k, field) in fields { if let own = mailing[field] { fields[k] = own } }
        return true
    }

    /// The columns no field takes and the mapping does not ignore, by name: kept as extras (or
    /// dropped), and named in the run's summary so that a column nobody mapped is seen.
    public var unmappedColumns: [String] {
        let names = columnNames
        return names.indices.filter { fields[$0] == nil && !ignored.contains($0) }.map { names[$0] }
    }
    /// Column index → transforms to apply first.
    public var transforms: [Int: ColumnRule]
    /// Columns the mapping ignores: neither a field nor an extra.
    public var ignored: Set<Int>
    public var suggestions: [AutoMapper.Suggestion]
    /// Columns a mapping with `other_columns: auto` (every preset) does not name, mapped by the
    /// auto-mapper as they would be without a mapping: column index → its suggestion.
    public var automatic: [Int: AutoMapper.Suggestion] = [:]
    /// Columns whose value fills their field over another column's for it (an enrichment's
    /// answers: `enriched(by:)`); otherwise the first column with a value wins.
    public var overriding: Set<Int> = []
    /// Name columns written surname first (`SMITH JOHN`): a mapping's `order: last-first`, or
    /// `order: auto` decided from the column's first rows (`NameOrder.decide`).
    public var surnameFirst: Set<Int> = []
    public var mapping: Mapping

    /// The rows read to plan from, counted from the first with text (the header is looked for in
    /// the first 30 of them, `HeaderDetector.window`).
    static let headRows = 200
    /// Blank rows read above a list, at most (`HeaderDetector.blankRowsAbove`).
    static let blankRowsAbove = HeaderDetector.blankRowsAbove

    /// The plan of a list with nothing in it: no columns (its blank rows, if any, are skipped
    /// as blank).
    public static func empty(mapping: Mapping?) -> ColumnPlan {
        ColumnPlan(headerRow: nil, rowsThroughHeader: 0, headers: [], width: 0, fields: [:], transforms: [:], ignored: [], suggestions: [], mapping: mapping ?? Mapping())
    }

    /// Reads the head of the file, finds the header and plans the columns. Throws
    /// `MappingError.lowConfidence` when auto-mapping cannot find any identifying field, and
    /// `MappingError.nothingToPlan` for standard input (`-`: the file is read again for its
    /// rows) and for a file or sheet whose first rows hold no text.
    public static func make(path: String, options: RowReaderOptions, mapping given: Mapping?) throws -> ColumnPlan {
        if path == "-" {
            throw MappingError.nothingToPlan("-", "a list is read twice, its head to plan the columns and then every row, which standard input cannot be: save CSV text to a file first (leadport cat - --format csv > list.csv), or give a workbook's own path")
        }
        let reader = try openRowReader(path: path, options: options)
        var head: [RawRow] = []
        var firstWithText: Int?
        while let row = try reader.next() {
            head.append(row)
            if firstWithText == nil, row.hasText { firstWithText = head.count - 1 }
            if firstWithText.map({ head.count - $0 >= headRows }) ?? (head.count >= blankRowsAbove) { break }
        }
        let file = reader.description.file
        // An empty file or sheet has no columns to guess or to map: said as such (not as a
        // mapping that finds none of its columns).
        if firstWithText == nil {
            let sheet = reader.description.sheet.map { "its sheet \"\($0.name)\" (\($0.position) of \(reader.description.sheets.count))" } ?? "it"
            let other = reader.description.sheets.count > 1 ? "; choose another with --sheet NAME|INDEX (`leadport inspect \(file)` lists them)" : ""
            // Blank rows as far as the head goes: there may be a list below, which no plan was
            // made for. And a workbook with other sheets may hold its list in one of them:
            // neither is passed over as an empty list beside others.
            guard head.count < blankRowsAbove, reader.description.sheets.count <= 1 else {
                if head.count < blankRowsAbove {
                    throw MappingError.lowConfidence(file, "there is nothing to import: \(sheet) holds no cells with text" + other)
                }
                throw MappingError.lowConfidence(file, "there is nothing to import: \(sheet) holds no cells with text in its first \(blankRowsAbove) rows" + other)
            }
            throw MappingError.nothingToPlan(file, "there is nothing to import: \(sheet) holds no cells with text" + other)
        }
        var headerIndex: Int?
        if let row = given?.headerRow {
            headerIndex = head.firstIndex { $0.location.row == row }
        } else {
            headerIndex = HeaderDetector.detect(top: head.map(\.cells))
        }
        let headers = headerIndex.map { head[$0].cells } ?? []
        let body = headerIndex.map { Array(head[($0 + 1)...]) } ?? head
        let width = max(headers.count, body.map { $0.trimmedCells.count }.max() ?? 0)
        // Each column's values are tried against every rule (a few thousand calls in all):
        // the columns are looked at on every core. A very wide sheet (up to Excel's 16,384
        // columns) is profiled on fewer rows, about 40,000 values in all, as `inspect` bounds
        // its survey: planning must not take minutes before the first row.
        let sampleRows = max(10, min(body.count, 40_000 / max(width, 1)))
        let sample = body.prefix(sampleRows)
        let suggestions = ParallelMap.map(Array(0..<width), chunk: 1) { k in
            let values = sample.compactMap { k < $0.cells.count && !$0.cells[k].isEmpty ? $0.cells[k] : nil }
            return AutoMapper.suggest(header: k < headers.count ? headers[k] : "", values: values, column: k)
        }
        var mapping: Mapping
        if let given, !given.columns.isEmpty {
            mapping = given
        } else {
            mapping = AutoMapper.mapping(headers: headers, suggestions: suggestions)
            if let given {
                mapping.target = given.target
                mapping.defaults = given.defaults
                mapping.dedupe = given.dedupe
                mapping.required = given.required
                mapping.extras = given.extras
            }
            if !mapping.columns.values.contains(where: { $0.field?.isIdentifying == true }) {
                let unsure = suggestions.filter { $0.field != nil }.map { "\($0.header.isEmpty ? Column.letters(for: $0.column) : $0.header) → \($0.field!.rawValue) (\(String(format: "%.2f", $0.confidence)))" }
                throw MappingError.lowConfidence(file, "could not tell which columns hold names, emails, phones or addresses" +
                    (unsure.isEmpty ? "" : "; best guesses: " + unsure.joined(separator: ", ")) +
                    ". Write a mapping to edit with `leadport inspect \(file) --mapping-out mapping.yaml`, then give it to the import " +
                    "with `--mapping mapping.yaml` (a sync job's `mapping:` is all its files': move this one to a folder of its own, " +
                    "with a job of its own that names the mapping)")
            }
        }
        var fields: [Int: LeadField] = [:]
        var transforms: [Int: ColumnRule] = [:]
        var ignored: Set<Int> = []
        var surnameFirst: Set<Int> = []
        for (header, rule) in mapping.columns {
            let k: Int
            if let found = headers.firstIndex(where: { $0 == header }) ?? headers.firstIndex(where: { $0.lowercased() == header.lowercased() }) {
                k = found
            } else if header.count <= 3, header.allSatisfy({ $0.isASCII && $0.isLetter && $0.isUppercase }) {
                k = header.unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 } - 1
            } else if mapping.missingColumns == .ignore {
                continue
            } else {
                throw MappingError.unknownColumn(file, header, available: headers.filter { !$0.isEmpty })
            }
            if let field = rule.field {
                fields[k] = field
                if !rule.transforms.isEmpty { transforms[k] = rule }
                if let order = rule.order {
                    let values = sample.lazy.compactMap { k < $0.cells.count && !$0.cells[k].isEmpty ? rule.apply($0.cells[k]) : nil }
                    if order.resolved(for: values) == .lastFirst { surnameFirst.insert(k) }
                }
            } else {
                ignored.insert(k)
            }
        }
        // A preset names the headers of its source; the columns it does not name are mapped
        // as they would be without it, each field to its surest column, never over a field
        // the preset fills.
        var automatic: [Int: AutoMapper.Suggestion] = [:]
        if let given, !given.columns.isEmpty, given.otherColumns == .auto {
            var taken = Set(fields.values)
            for s in suggestions.sorted(by: { $0.confidence > $1.confidence }) {
                guard let field = s.field, s.confidence >= AutoMapper.threshold, fields[s.column] == nil, !ignored.contains(s.column),
                      !taken.contains(field) else { continue }
                fields[s.column] = field
                automatic[s.column] = s
                taken.insert(field)
            }
        }
        // A name column mapped automatically is read in the order the mapping gives its own
        // name columns (the owner-list preset's `auto`: an assessor's `Owner(s)` column too),
        // and in the order its values show when the mapping gives none.
        let order = mapping.columns.values.first(where: { $0.field == .fullName && $0.order != nil })?.order ?? .auto
        for (k, s) in automatic where s.field == .fullName {
            let values = sample.lazy.compactMap { k < $0.cells.count && !$0.cells[k].isEmpty ? $0.cells[k] : nil }
            if order.resolved(for: values) == .lastFirst { surnameFirst.insert(k) }
        }
        if mapping.missingColumns == .ignore, !fields.values.contains(where: \.isIdentifying) {
            let which = mapping.otherColumns == .auto ? "no column of this file holds a name, email, phone or address, by the mapping's headers or by automatic mapping"
                : "none of the mapping's name, email, phone or address columns is in this file"
            throw MappingError.invalid(file, which + "; its columns: " + headers.filter { !$0.isEmpty }.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        var plan = ColumnPlan(headerRow: headerIndex.map { head[$0].location.row }, rowsThroughHeader: headerIndex.map { $0 + 1 } ?? 0, headers: headers, width: width,
                              fields: fields, transforms: transforms, ignored: ignored, suggestions: suggestions, mapping: mapping)
        plan.automatic = automatic
        plan.surnameFirst = surnameFirst
        return plan
    }
}
