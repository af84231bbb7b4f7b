import Foundation
import LeadCore
import LeadEngine
@testable import LeadReaders

/// The readers' targets: CSV bytes, workbook bytes, the two big XML parts alone, and
/// `inspect`'s survey of a whole file.
enum ReaderTargets {
    static let all = [
        FuzzTarget(name: "csv-tokenizer", run: csvTokenizer),
        FuzzTarget(name: "csv-reader", run: csvReader),
        FuzzTarget(name: "xlsx", run: xlsx),
        FuzzTarget(name: "shared-strings", run: sharedStrings),
        FuzzTarget(name: "sheet-xml", run: sheetXML),
        FuzzTarget(name: "inspect", run: inspect),
    ]

    /// Splits off the first byte as the target's own settings (chunk size, delimiter, …).
    static func settings(_ data: UnsafeBufferPointer<UInt8>) -> (UInt8, UnsafeBufferPointer<UInt8>) {
        guard let first = data.first else { return (0, data) }
        return (first, UnsafeBufferPointer(rebasing: data[1...]))
    }

    // MARK: CSV

    /// Tokenizes the input whole and in pieces of 1–16 bytes: the records, their fields and
    /// their lines must be the same, and so must the error when there is one.
    static func csvTokenizer(_ data: UnsafeBufferPointer<UInt8>) {
        let (setting, input) = settings(data)
        let delimiter = [UInt8(ascii: ","), UInt8(ascii: ";"), 9, UInt8(ascii: "|")][Int(setting & 3)]
        let chunk = Int(setting >> 4) + 1
        let whole = tokenize(input, delimiter: delimiter, chunk: Int.max)
        let dripped = tokenize(input, delimiter: delimiter, chunk: chunk)
        invariant(whole.records == dripped.records, "records differ when fed \(chunk) bytes at a time")
        invariant(whole.error == dripped.error, "errors differ when fed \(chunk) bytes at a time: \(String(describing: whole.error)) / \(String(describing: dripped.error))")
    }

    /// Every record as bytes: its line, its field count, then each field's length and bytes.
    static func tokenize(_ input: UnsafeBufferPointer<UInt8>, delimiter: UInt8, chunk: Int) -> (records: [Int], error: CSVTokenizerError?) {
        let tokenizer = CSVTokenizer(delimiter: delimiter, maxRecordBytes: 1 << 16, maxFields: 1000)
        var records: [Int] = []
        func take() {
            let r = tokenizer.record
            records += [tokenizer.recordLine, r.count]
            for f in 0..<r.count {
                let field = r.field(f)
                records.append(field.count)
                records += field.lazy.map(Int.init)
            }
        }
        do {
            var offset = 0
            while offset < input.count {
                let end = offset + min(chunk, input.count - offset)
                let piece = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[offset..<end])
                offset = end
                var position = 0
                while true {
                    let (step, next) = try tokenizer.consume(piece, from: position)
                    position = next
                    if step == .recordEnd { take() } else { break }
                }
            }
            if try tokenizer.finish() { take() }
            return (records, nil)
        } catch {
            return (records, error)
        }
    }

    /// Reads the input as a CSV file handed over in pieces, row by row and counted.
    static func csvReader(_ data: UnsafeBufferPointer<UInt8>) {
        let (setting, input) = settings(data)
        let bytes = Array(input)
        let chunks = [Int(setting) + 1, 7, 4096]
        // 4 KiB at a time rather than 256 KiB: more chunk ends, and no large allocation per input.
        readAndCountAgree("the file") {
            try CSVRowReader(source: MemoryByteSource(bytes, chunkSizes: chunks), file: "fuzz.csv", options: RowReaderOptions(), chunkSize: 4096)
        }
    }

    // MARK: Workbooks

    /// Opens the input as a file (libzip reads archives by path) and reads up to four sheets,
    /// each row by row and counted. The sheets' readers share the one opened workbook, as
    /// `inspect` surveys them: opening it afresh for each reader (nine times an input) made
    /// this target run at about 90 inputs a second, too slow for a million.
    static func xlsx(_ data: UnsafeBufferPointer<UInt8>) {
        let path = ScratchFile.write(data, suffix: ".xlsx")
        var options = RowReaderOptions()
        options.maxPartBytes = 256 << 20
        // Bytes that are not a zip are read as CSV: `csv-reader` and `inspect` fuzz that.
        guard let first = try? openRowReader(path: path, options: options) as? XLSXRowReader else { return }
        for sheet in first.description.sheets.prefix(4) {
            readAndCountAgree("sheet \(sheet.position)") { try first.reader(forSheet: sheet) }
        }
    }

    /// `next()` on one reader and `count()` on another must agree on rows, non-empty cells and
    /// whether the file reads at all (`cat` and `cat --format count` must not disagree). A sheet
    /// past 50,000 rows and cells is not compared (a million blank rows, cells at XFD).
    static func readAndCountAgree(_ what: String, _ open: () throws -> any RowReader) {
        var rows = 0
        var cells = 0
        let read: Bool
        do {
            let reader = try open()
            var seen = 0
            while let row = try reader.next() {
                rows += 1
                cells += row.cells.filter { !$0.isEmpty }.count
                seen += row.cells.count + 1
                if seen > 50_000 { return }  // a large sheet costs time, not coverage
            }
            read = true
        } catch {
            read = false
        }
        let counted = try? open().count()
        invariant(read == (counted != nil), "\(what): \(read ? "next() reads, count() fails" : "next() fails, count() reads")")
        guard let counted else { return }
        invariant(rows == counted.rows && cells == counted.cells,
                  "\(what): next() read \(rows) rows, \(cells) cells; count() \(counted.rows) rows, \(counted.cells) cells")
    }

    /// A shared-string table alone, fed to libxml2 in pieces; every string is then read.
    static func sharedStrings(_ data: UnsafeBufferPointer<UInt8>) {
        let (setting, input) = settings(data)
        let table = SharedStrings(limit: 1 << 20, file: "fuzz.xlsx")
        guard push(input, chunk: Int(setting) + 1, to: table, part: "xl/sharedStrings.xml") else { return }
        for k in 0..<table.count { _ = table.string(k) }
    }

    /// A worksheet part alone (with a small shared-string table and one style of each kind):
    /// the rows it gives and the rows and cells it counts must agree.
    static func sheetXML(_ data: UnsafeBufferPointer<UInt8>) {
        let (setting, input) = settings(data)
        let table = SharedStrings(limit: 1 << 20, file: "fuzz.xlsx")
        let sst = Array("<sst><si><t>a</t></si><si><t></t></si><si><r><t>b</t></r><r><t>c</t></r></si></sst>".utf8)
        _ = sst.withUnsafeBufferPointer { push($0, chunk: sst.count, to: table, part: "sst") }
        let kinds: [NumberKind] = [.number, .date, .dateTime, .time, .duration]
        func handler() -> SheetHandler {
            SheetHandler(strings: table, kinds: kinds, date1904: setting & 1 == 1, file: "fuzz.xlsx", sheet: "S", maxCellBytes: 1 << 12)
        }
        let reading = handler()
        guard push(input, chunk: Int(setting >> 1) + 1, to: reading, part: "sheet", until: { cost(reading) > 50_000 }) else { return }
        let counting = handler()
        counting.countOnly = true
        invariant(push(input, chunk: Int(setting >> 1) + 1, to: counting, part: "sheet"), "counting failed where reading did not")
        let read = reading.outputCount
        invariant(read == CellCount(rows: counting.countedRows, cells: counting.countedCells),
                  "rows gave \(read.rows) rows, \(read.cells) cells; counting \(counting.countedRows) rows, \(counting.countedCells) cells")
    }

    /// Rows and cells (empty ones too) produced so far: a sheet past 50,000 costs time, not coverage.
    static func cost(_ handler: SheetHandler) -> Int {
        handler.output.reduce(0) { total, item in
            switch item {
            case .row(let row): return total + 1 + row.cells.count
            case .sparse(_, let cells): return total + 1 + (cells.map(\.column).max() ?? 0)
            case .blank: return total + 1
            }
        }
    }

    /// Feeds `input` to a push parser `chunk` bytes at a time; false when it was refused, or
    /// when `until` says to stop (checked every 4 KiB).
    static func push(_ input: UnsafeBufferPointer<UInt8>, chunk: Int, to handler: XMLHandler, part: String,
                     until: () -> Bool = { false }) -> Bool {
        let parser = XMLPushParser(handler: handler, part: part, file: "fuzz.xlsx")
        do {
            var offset = 0
            var checked = 0
            while offset < input.count {
                let end = offset + min(chunk, input.count - offset)
                try parser.feed(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(input)[offset..<end]))
                offset = end
                if offset - checked >= 4096 {
                    checked = offset
                    if until() { return false }
                }
            }
            try parser.finish()
            return true
        } catch {
            return false
        }
    }

    // MARK: inspect

    /// What `leadport inspect` does with a file: a zip is read as a workbook, anything else as CSV.
    static func inspect(_ data: UnsafeBufferPointer<UInt8>) {
        let suffix = data.starts(with: [0x50, 0x4B]) ? ".xlsx" : ".csv"
        let path = ScratchFile.write(data, suffix: suffix)
        _ = try? Inspector.inspect(path: path, options: RowReaderOptions())
    }
}
