import LeadCore

/// Streams the rows of one worksheet: the sheet XML is inflated in chunks on a second
/// thread (on this one when it declares at most 16 KiB) and pushed through libxml2's SAX2 parser on the caller's, so memory is bounded by
/// the shared-string table and a few chunks' rows, not by the sheet. A single forward stream.
public final class XLSXRowReader: RowReader {
    public let description: SourceDescription
    private let workbook: XLSXWorkbook
    private let handler: SheetHandler?
    private let inflater: PrefetchingInflater?
    private let parser: XMLPushParser?
    private var finished = false
    private var outputIndex = 0
    private var blankCursor: Int?
    private var recordIndex = 0
    private let sheetName: String
    private let options: RowReaderOptions

    init(workbook: XLSXWorkbook, options: RowReaderOptions) throws {
        self.workbook = workbook
        self.options = options
        let sheet = try workbook.sheet(options.sheet)
        sheetName = sheet.name
        description = SourceDescription(file: workbook.file, format: .xlsx, sheets: workbook.sheets, sheet: sheet)
        guard sheet.kind == .worksheet || sheet.kind == .macrosheet || sheet.kind == .dialogsheet || sheet.kind == .unknown,
              let part = sheet.part, workbook.archive.contains(part) else {
            handler = nil
            inflater = nil
            parser = nil
            finished = true
            return
        }
        try workbook.loadSharedParts()
        let handler = SheetHandler(strings: workbook.sharedStrings, kinds: workbook.numberKinds, formatsByValue: workbook.formatsByValue, zeroPadded: workbook.zeroPadded, date1904: workbook.date1904,
                                   file: workbook.file, sheet: sheet.name, maxCellBytes: options.maxCellBytes)
        self.handler = handler
        inflater = try PrefetchingInflater(archive: workbook.archive, part: part)
        parser = XMLPushParser(handler: handler, part: part, file: workbook.file)
    }

    deinit { inflater?.close() }

    /// Feeds one more chunk of sheet XML; false once the sheet is done.
    private func pump() throws -> Bool {
        guard !finished, let inflater, let parser else { return false }
        let chunk = try inflater.next()
        if chunk.isEmpty {
            finished = true
            try parser.finish()
        } else {
            try parser.feed(chunk)
        }
        return true
    }

    public func next() throws -> RawRow? {
        guard let handler else { return nil }
        while true {
            if outputIndex < handler.output.count {
                switch handler.output[outputIndex] {
                case .blank(let range):
                    let row = blankCursor ?? range.lowerBound
                    if row < range.upperBound {
                        blankCursor = row + 1
                    } else {
                        blankCursor = nil
                        outputIndex += 1
                    }
                    return RawRow(location: SourceLocation(file: workbook.file, sheet: sheetName, row: row, recordIndex: take()), cells: [])
                case .row(var row):
                    outputIndex += 1
                    row.location.recordIndex = take()
                    return row
                case .sparse(let location, let cells):
                    outputIndex += 1
                    var row = SheetHandler.Output.padded(location, cells)
                    row.location.recordIndex = take()
                    return row
                }
            }
            handler.output.removeAll(keepingCapacity: true)
            outputIndex = 0
            guard try pump() else { return nil }
        }
    }

    public func survey(limits: SurveyLimits) throws -> SheetSurvey {
        guard let handler else { return SheetSurvey(rows: 0, cells: 0, columns: 0, complete: true) }
        handler.countOnly = true
        let clock = SurveyClock(seconds: limits.seconds)
        var complete = true
        // Checked between chunks (128 KiB of XML, a few thousand cells at most).
        while try pump() {
            if handler.countedCells >= limits.cells || clock.expired {
                complete = false
                break
            }
        }
        return SheetSurvey(rows: handler.countedRows, cells: handler.countedCells, columns: handler.countedColumns, complete: complete)
    }

    /// A reader of another sheet of the same workbook, sharing its archive, styles and strings.
    func reader(forSheet sheet: SheetInfo) throws -> XLSXRowReader {
        var options = options
        options.sheet = String(sheet.position)
        return try XLSXRowReader(workbook: workbook, options: options)
    }

    private func take() -> Int {
        defer { recordIndex += 1 }
        return recordIndex
    }
}
