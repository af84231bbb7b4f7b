import LeadCore

#if canImport(Glibc)
import Glibc
#endif

/// Turns a worksheet's SAX events into rows. Keeps one row's cells in reusable scratch
/// buffers; rows are numbered from their `r` attribute (or the previous row + 1) and cells
/// placed by their `r` (or the previous cell + 1), so sparse sheets come out right.
final class SheetHandler: XMLHandler {
    /// What the handler produces: a row for `next()`, or the blank rows before one.
    enum Output {
        case blank(ClosedRange<Int>)
        case row(RawRow)
        /// A row with long runs of empty cells, kept as its non-empty cells (a later cell of
        /// a column replaces an earlier one) and padded only when `next()` hands it over: a
        /// 128 KiB chunk of rows that each hold one cell at XFD would otherwise become
        /// 16,384 strings a row, over a gigabyte, before the reader returns the first.
        case sparse(SourceLocation, [(column: Int, value: String)])

        /// The row `sparse` stands for, as `row` would hold it.
        static func padded(_ location: SourceLocation, _ cells: [(column: Int, value: String)]) -> RawRow {
            var values = [String](repeating: "", count: (cells.map(\.column).max() ?? -1) + 1)
            for cell in cells { values[cell.column] = cell.value }
            return RawRow(location: location, cells: values)
        }
    }

    /// Empty cells `endRow` pads with before it keeps a row as `sparse` instead.
    static let densePadding = 64

    enum CellType: UInt8 { case number, shared, formulaString, inline, boolean, error, isoDate }

    private struct Cell {
        var column: Int
        var type: CellType
        var style: Int
        var start: Int
        var end: Int
    }

    /// Rows ready for the reader, in order.
    var output: [Output] = []
    var countOnly = false
    private(set) var countedRows = 0
    private(set) var countedCells = 0
    /// The widest row counted, up to its last non-empty cell.
    private(set) var countedColumns = 0

    private let strings: SharedStrings
    private let kinds: [NumberKind]
    private let formatsByValue: [Int: NumberFormat]
    private let zeroPadded: [Int: ZeroPadding]
    /// Whether some padding shows a number as nothing: only then does counting look at numbers.
    private let paddingMayShowNothing: Bool
    private let date1904: Bool
    private let file: String
    private let sheet: String
    private let maxCellBytes: Int

    private var inSheetData = false
    private var inRow = false
    private var rowNumber = 0
    private var lastRowNumber = 0
    private var emittedThrough = 0
    private var column = -1
    private var cellType = CellType.number
    private var cellStyle = 0
    private var cellStart = 0
    private var capturing = false
    private var inInline = false
    /// The cell has an inline string (`<is>`): its own text, whatever its `t` says, and a `<v>`
    /// beside it (a cached value some writers add) is not part of it.
    private var cellHasInline = false
    /// Between a cell's start and its end.
    private var inCell = false
    private var phoneticDepth = 0
    private var text: [UInt8] = []
    private var cells: [Cell] = []
    /// The columns counted in the row being counted: one bit per column (16,384), and the
    /// words set, to clear them for the next row.
    private var countedBits = [UInt64](repeating: 0, count: 256)
    private var countedInRow: [Int] = []

    init(strings: SharedStrings, kinds: [NumberKind], formatsByValue: [Int: NumberFormat] = [:], zeroPadded: [Int: ZeroPadding] = [:], date1904: Bool, file: String, sheet: String, maxCellBytes: Int) {
        self.strings = strings
        self.kinds = kinds
        self.formatsByValue = formatsByValue
        self.zeroPadded = zeroPadded
        paddingMayShowNothing = zeroPadded.values.contains { $0.mayShowNothing }
        self.date1904 = date1904
        self.file = file
        self.sheet = sheet
        self.maxCellBytes = maxCellBytes
        text.reserveCapacity(1 << 16)
        cells.reserveCapacity(64)
    }

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        let p = name.pointer
        switch p[0] {
        case UInt8(ascii: "c") where p[1] == 0:
            guard inRow else { return }
            startCell(attributes)
        case UInt8(ascii: "v") where p[1] == 0:
            if inRow && !inInline && !cellHasInline { capturing = true }
        case UInt8(ascii: "t") where p[1] == 0:
            if inInline && phoneticDepth == 0 { capturing = true }
        case UInt8(ascii: "r"):
            if p[1] == 0 {
                return  // a rich-text run
            } else if name.is("row") {
                guard inSheetData else { return }
                inRow = true
                rowNumber = attributes.value("r").flatMap(parseInt) ?? lastRowNumber + 1
                column = -1
                cells.removeAll(keepingCapacity: true)
                text.removeAll(keepingCapacity: true)
            } else if name.is("rPh") {
                phoneticDepth += 1
            }
        case UInt8(ascii: "i"):
            if name.is("is") {
                inInline = true
                // Only inside a cell: an `<is>` straight under a row (malformed) starts nothing.
                if inCell && !cellHasInline && cellStart <= text.count {
                    cellHasInline = true
                    cellType = .inline
                    text.removeSubrange(cellStart...)
                }
            }
        case UInt8(ascii: "s"):
            if name.is("sheetData") { inSheetData = true }
        default:
            break
        }
    }

    @inline(__always)
    private func startCell(_ attributes: XMLAttributes) {
        var col = column + 1
        var type = CellType.number
        var style = 0
        if let base = attributes.base {
            for k in 0..<attributes.count {
                let entry = base + 5 * k
                guard let local = entry[0], local[1] == 0, let start = entry[3], let end = entry[4] else { continue }
                let value = UnsafeBufferPointer(start: start, count: end - start)
                switch local[0] {
                case UInt8(ascii: "r"): col = columnIndex(value) ?? col
                case UInt8(ascii: "t"): type = cellType(value)
                case UInt8(ascii: "s"): style = parseInt(value) ?? 0
                default: break
                }
            }
        }
        if col > 16_383 {
            fail(.xmlMalformed(part: sheet, line: 0, message: "a cell reference is past column XFD"), column: nil)
            return
        }
        column = col
        cellType = type
        cellHasInline = false
        inCell = true
        cellStyle = style
        cellStart = text.count
    }

    override func endElement(_ name: XMLName) {
        let p = name.pointer
        switch p[0] {
        case UInt8(ascii: "v") where p[1] == 0, UInt8(ascii: "t") where p[1] == 0:
            capturing = false
        case UInt8(ascii: "c") where p[1] == 0:
            inCell = false
            guard inRow else { return }
            capturing = false
            if text.count > cellStart {
                if text.count - cellStart > maxCellBytes {
                    fail(.cellTooLarge(limit: maxCellBytes), column: column)
                    return
                }
                cells.append(Cell(column: column, type: cellType, style: cellStyle, start: cellStart, end: text.count))
            }
        case UInt8(ascii: "r"):
            if name.is("row") {
                endRow()
            } else if name.is("rPh") {
                phoneticDepth -= 1
            }
        case UInt8(ascii: "i"):
            if name.is("is") { inInline = false }
        case UInt8(ascii: "s"):
            if name.is("sheetData") { inSheetData = false }
        default:
            break
        }
    }

    override func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        guard capturing else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        if text.count - cellStart > maxCellBytes {
            fail(.cellTooLarge(limit: maxCellBytes), column: column)
        }
    }

    // MARK: Rows

    private func endRow() {
        guard inRow else { return }
        inRow = false
        lastRowNumber = rowNumber
        if countOnly {
            countRow()
            return
        }
        var values: [String] = []
        var numeric: [Int] = []
        var sparse: [(column: Int, value: String)]?
        for cell in cells {
            materializedNumber = false
            guard let value = materialize(cell) else { return }
            if value.isEmpty { continue }
            if materializedNumber { numeric.append(cell.column) }
            if sparse == nil && cell.column - values.count > Self.densePadding {
                sparse = values.indices.filter { !values[$0].isEmpty }.map { ($0, values[$0]) }
            }
            if sparse != nil {
                sparse!.append((cell.column, value))
                continue
            }
            if values.count < cell.column { values.append(contentsOf: repeatElement("", count: cell.column - values.count)) }
            if cell.column < values.count {
                values[cell.column] = value  // a repeated reference: the later cell wins
            } else {
                values.append(value)
            }
        }
        guard !values.isEmpty || sparse != nil else { return }
        if rowNumber > emittedThrough + 1 { output.append(.blank(emittedThrough + 1...rowNumber - 1)) }
        emittedThrough = max(emittedThrough, rowNumber)
        let location = SourceLocation(file: file, sheet: sheet, row: rowNumber)
        if let sparse {
            output.append(.sparse(location, sparse))
        } else {
            output.append(.row(RawRow(location: location, cells: values, numericCells: numeric)))
        }
    }

    private func countRow() {
        for word in countedInRow { countedBits[word] = 0 }
        countedInRow.removeAll(keepingCapacity: true)
        var nonEmpty = 0
        var width = 0
        var badColumn: Int?
        text.withUnsafeBufferPointer { all in
            strings.withLengths { length in
                for cell in cells {
                    if cell.type == .shared {
                        guard let index = parseInt(UnsafeBufferPointer(rebasing: all[cell.start..<cell.end])),
                              let length = length(index) else {
                            badColumn = cell.column
                            return
                        }
                        if length == 0 { continue }
                    } else if cell.type == .isoDate, materialize(cell)?.isEmpty != false {
                        continue
                    } else if paddingMayShowNothing, cell.type == .number, zeroPadded[cell.style]?.mayShowNothing == true, materialize(cell)?.isEmpty != false {
                        // Zero under `00000;;`: Excel shows nothing, and `endRow` gives no cell.
                        continue
                    }
                    // A column given twice is one cell, as `endRow` makes it.
                    let word = cell.column >> 6, bit = UInt64(1) << UInt64(cell.column & 63)
                    if countedBits[word] & bit != 0 { continue }
                    countedBits[word] |= bit
                    countedInRow.append(word)
                    nonEmpty += 1
                    width = max(width, cell.column + 1)
                }
            }
        }
        if let badColumn {
            fail(.xmlMalformed(part: sheet, line: 0, message: "a shared-string index is out of range"), column: badColumn)
            return
        }
        guard nonEmpty > 0 else { return }
        countedCells += nonEmpty
        countedColumns = max(countedColumns, width)
        // A row numbered at or below one already given (out of order) is still a row.
        countedRows += rowNumber > emittedThrough ? rowNumber - emittedThrough : 1
        emittedThrough = max(emittedThrough, rowNumber)
    }

    /// Set by `materialize` when the cell it gave is a number shown as a number (not a date,
    /// a time or text).
    private var materializedNumber = false

    /// Canonical text of one cell, or nil after recording a failure.
    private func materialize(_ cell: Cell) -> String? {
        text.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[cell.start..<cell.end])
            switch cell.type {
            case .shared:
                guard let index = parseInt(bytes), let value = strings.string(index) else {
                    fail(.xmlMalformed(part: sheet, line: 0, message: "a shared-string index is out of range"), column: cell.column)
                    return nil
                }
                return value
            case .formulaString, .inline:
                if OOXMLEscapes.mayContainEscape(Array(bytes), from: 0) {
                    return String(decoding: OOXMLEscapes.decode(Array(bytes)), as: UTF8.self)
                }
                return String(decoding: bytes, as: UTF8.self)
            case .boolean:
                let t = String(decoding: bytes, as: UTF8.self).trimmingCharacters()
                return t == "1" || t.lowercased() == "true" ? "TRUE" : "FALSE"
            case .error:
                return String(decoding: bytes, as: UTF8.self)
            case .isoDate:
                return CellText.isoDate(String(decoding: bytes, as: UTF8.self))
            case .number:
                var kind = cell.style < kinds.count ? kinds[cell.style] : .number
                if kind == .number, let plain = CellText.plainInteger(bytes) {
                    materializedNumber = true
                    return plain
                }
                // Text, as Excel shows it: the leading zeros are the identifier's.
                if kind == .zeroPadded, let text = zeroPadded[cell.style]?.text(bytes) { return text }
                guard let value = CellText.parseDouble(bytes) else { return String(decoding: bytes, as: UTF8.self) }
                if kind == .byValue { kind = formatsByValue[cell.style]?.kind(for: value) ?? .number }
                if kind != .number, let temporal = ExcelValues.temporal(value, kind: kind, date1904: date1904) {
                    return temporal
                }
                materializedNumber = true
                return ExcelValues.canonical(value)
            }
        }
    }

    private func fail(_ reason: ReaderError.Reason, column: Int?) {
        guard failure == nil else { return }
        let location = SourceLocation(file: file, sheet: sheet, row: rowNumber, column: column.map { Column(index: $0) })
        failure = ReaderError(file: file, reason, at: location)
    }

    // MARK: Attribute parsing

    @inline(__always)
    private func cellType(_ value: UnsafeBufferPointer<UInt8>) -> CellType {
        guard let first = value.first else { return .number }
        switch first {
        case UInt8(ascii: "s"): return value.count == 1 ? .shared : .formulaString
        case UInt8(ascii: "i"): return .inline
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "e"): return .error
        case UInt8(ascii: "d"): return .isoDate
        default: return .number
        }
    }
}

/// `A1`-style reference → 0-based column.
@inline(__always)
func columnIndex(_ reference: UnsafeBufferPointer<UInt8>) -> Int? {
    var col = 0
    var letters = 0
    for b in reference {
        let upper = b & ~0x20
        if upper >= UInt8(ascii: "A") && upper <= UInt8(ascii: "Z") {
            col = col * 26 + Int(upper - UInt8(ascii: "A")) + 1
            letters += 1
            if letters > 3 { return nil }
        } else {
            break
        }
    }
    return letters == 0 ? nil : col - 1
}

@inline(__always)
func parseInt(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var value = 0
    var digits = 0
    for b in bytes {
        if b == UInt8(ascii: " ") && digits == 0 { continue }
        guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { break }
        value = value &* 10 &+ Int(b - UInt8(ascii: "0"))
        digits += 1
        if digits > 15 { return nil }
    }
    return digits == 0 ? nil : value
}

extension SheetHandler {
    /// The rows and non-empty cells in `output`: what counting the same XML must give (the
    /// tests and the fuzzer compare them).
    var outputCount: CellCount {
        var count = CellCount(rows: 0, cells: 0)
        for item in output {
            switch item {
            case .blank(let range): count.rows += range.count
            case .row(let row):
                count.rows += 1
                count.cells += row.cells.filter { !$0.isEmpty }.count
            case .sparse(let location, let cells):
                count.rows += 1
                count.cells += Output.padded(location, cells).cells.filter { !$0.isEmpty }.count
            }
        }
        return count
    }
}
