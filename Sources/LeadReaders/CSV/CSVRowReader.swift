import LeadCore

#if canImport(Glibc)
import Glibc
#endif

/// Reads CSV text from a `ByteSource` in constant memory: detects the encoding and the
/// delimiter from the first bytes, honours Excel's `sep=` line, and tokenizes with
/// `CSVTokenizer`.
///
/// Rows are located by the 1-based line where each record starts (a `sep=` line counts).
/// Fields that are not valid UTF-8 in a UTF-8 file are decoded as Windows-1252 and flagged;
/// a NUL byte is a character like any other and is kept (as Python's csv module and pandas
/// keep it); a row whose field count differs from the first row's is returned as it is and
/// flagged.
public final class CSVRowReader: RowReader {
    public internal(set) var description: SourceDescription
    public let encoding: TextEncoding

    private let file: String
    private let source: ByteSource
    private let tokenizer: CSVTokenizer
    private let chunk: UnsafeMutableRawBufferPointer
    private var transcoder: UTF16Transcoder?
    private var transcoded: [UInt8] = []
    /// The decoded bytes being tokenized: part of `chunk`, or `transcoded`.
    private var window: UnsafeRawBufferPointer
    private var position = 0
    private var atEnd = false
    private let lineOffset: Int
    private var recordIndex = 0
    private var expectedWidth: Int?
    private var blankRuns: [(line: Int, count: Int)] = []
    private var queued: [RawRow] = []
    private var queuedNext = 0

    static let chunkSize = 256 << 10

    /// Opens a reader; `file` is the name to show the user.
    public convenience init(source: ByteSource, file: String, options: RowReaderOptions = RowReaderOptions()) throws {
        try self.init(source: source, file: file, options: options, chunkSize: CSVRowReader.chunkSize)
    }

    /// `chunkSize`: the bytes read at a time, and sniffed from the first (the fuzzer's is small).
    /// `standardInput`: the bytes are standard input's, which only this reader reads (a file is
    /// told apart by its content before, `openRowReader`): what they are is sniffed here.
    init(source: ByteSource, file: String, options: RowReaderOptions, chunkSize: Int, standardInput: Bool = false) throws {
        self.file = file
        self.source = source
        chunk = .allocate(byteCount: chunkSize, alignment: 16)
        var filled = 0
        // Fill the first chunk completely (pipes hand out small pieces) to sniff from it.
        while filled < chunk.count {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[filled...]))
            if n == 0 { break }
            filled += n
        }
        let head = UnsafeRawBufferPointer(rebasing: chunk[0..<filled])
        let (encoding, bom) = TextEncoding.detect(head)
        self.encoding = encoding
        if standardInput, bom == 0, encoding != .utf16LE, encoding != .utf16BE {
            let refusal: ReaderError.Reason?
            switch FileKind.sniff(Array(head.prefix(512)), named: false) {
            case .zip: refusal = .notTextOnStandardInput("a zip archive (an .xlsx workbook, or another kind)")
            case .ole2: refusal = .notTextOnStandardInput("an OLE2 file (a legacy .xls workbook, or another Office file)")
            case .refused(let what): refusal = .otherBinary(what)
            case .text: refusal = nil
            }
            if let refusal {
                chunk.deallocate()
                throw ReaderError(file: file, refusal)
            }
        }
        if bom == 0, encoding != .utf16LE, encoding != .utf16BE, let what = CSVRowReader.binaryContent(head) {
            chunk.deallocate()
            throw ReaderError(file: file, .otherBinary(what))
        }
        window = UnsafeRawBufferPointer(rebasing: chunk[bom..<filled])
        if encoding == .utf16LE || encoding == .utf16BE {
            var t = UTF16Transcoder(bigEndian: encoding == .utf16BE)
            t.transcode(window, into: &transcoded)
            transcoder = t
            window = transcoded.withUnsafeBytes { $0 }
        }
        atEnd = filled < chunk.count

        var delimiter = options.delimiter
        var delimiterSource = "given"
        var offset = 0
        if let sep = CSVRowReader.excelSepLine(window) {
            position = sep.length
            offset = 1
            if delimiter == nil {
                delimiter = sep.delimiter
                delimiterSource = "sep= line"
            }
        }
        lineOffset = offset
        if delimiter == nil {
            let sample = UnsafeRawBufferPointer(rebasing: window[position..<min(window.count, position + 64 << 10)])
            delimiter = DelimiterSniffer.sniff(sample.bindMemory(to: UInt8.self))
            delimiterSource = "detected"
        }
        let chosen = delimiter ?? UInt8(ascii: ",")
        tokenizer = CSVTokenizer(delimiter: chosen, maxRecordBytes: max(options.maxCellBytes, 1 << 20) * 4)
        description = SourceDescription(
            file: file, format: .csv, encoding: encoding.rawValue,
            delimiter: Character(Unicode.Scalar(chosen)), delimiterSource: delimiterSource)
    }

    deinit { chunk.deallocate() }

    // MARK: Records

    /// The next raw record and the 1-based line it starts on, or nil at the end.
    func nextRecord() throws -> (CSVRecord, line: Int)? {
        while true {
            if position < window.count {
                let step: CSVTokenizer.Step
                do {
                    (step, position) = try tokenizer.consume(window, from: position)
                } catch {
                    throw convert(error)
                }
                if step == .recordEnd { return (tokenizer.record, tokenizer.recordLine + lineOffset) }
            } else if !(try refill()) {
                do {
                    if try tokenizer.finish() { return (tokenizer.record, tokenizer.recordLine + lineOffset) }
                } catch {
                    throw convert(error)
                }
                return nil
            }
        }
    }

    private func refill() throws -> Bool {
        if atEnd {
            guard transcoder != nil else { return false }
            transcoder!.finish(into: &transcoded)
            transcoder = nil
            if transcoded.isEmpty { return false }
            window = transcoded.withUnsafeBytes { $0 }
            position = 0
            return true
        }
        let n = try source.read(into: chunk)
        if n == 0 {
            atEnd = true
            return try refill()
        }
        window = UnsafeRawBufferPointer(rebasing: chunk[0..<n])
        if transcoder != nil {
            transcoder!.transcode(window, into: &transcoded)
            window = transcoded.withUnsafeBytes { $0 }
        }
        position = 0
        return true
    }

    private func convert(_ error: CSVTokenizerError) -> ReaderError {
        switch error {
        case .unterminatedQuote(let line, let recordLine):
            return ReaderError(file: file, .unterminatedQuote(openedOnLine: line + lineOffset),
                               at: SourceLocation(file: file, row: recordLine + lineOffset))
        case .recordTooLarge(let line, let limit, let quoteLine):
            return ReaderError(file: file, .recordTooLarge(limit: limit, openQuoteLine: quoteLine.map { $0 + lineOffset }),
                               at: SourceLocation(file: file, row: line + lineOffset))
        case .tooManyFields(let line, let limit):
            return ReaderError(file: file, .tooManyFields(limit: limit), at: SourceLocation(file: file, row: line + lineOffset))
        }
    }

    // MARK: Rows

    public func next() throws -> RawRow? {
        if queuedNext < queued.count {
            defer { queuedNext += 1 }
            return queued[queuedNext]
        }
        queued.removeAll(keepingCapacity: true)
        queuedNext = 0
        while let (record, line) = try nextRecord() {
            var row = makeRow(record, line: line)
            // A blank record (`,,,` too, ragged or not) is a blank row: kept between rows,
            // dropped at the end, as `count()` counts it.
            if row.isBlank {
                if let last = blankRuns.last, last.line + last.count == line {
                    blankRuns[blankRuns.count - 1].count += 1
                } else {
                    blankRuns.append((line, 1))
                }
                continue
            }
            // Blank rows between rows are kept; only trailing ones are dropped.
            for run in blankRuns {
                for k in 0..<run.count {
                    let location = SourceLocation(file: file, row: run.line + k, recordIndex: takeRecordIndex())
                    queued.append(RawRow(location: location, cells: [""]))
                }
            }
            blankRuns.removeAll()
            row.location.recordIndex = takeRecordIndex()
            if queued.isEmpty { return row }
            queued.append(row)
            queuedNext = 1
            return queued[0]
        }
        return nil
    }

    private func takeRecordIndex() -> Int {
        defer { recordIndex += 1 }
        return recordIndex
    }

    public func survey(limits: SurveyLimits) throws -> SheetSurvey {
        var rows = 0
        var blanks = 0
        var cells = 0
        var columns = 0
        let clock = SurveyClock(seconds: limits.seconds)
        var records = 0
        while let (record, _) = try nextRecord() {
            records += 1
            if records & 4095 == 0, cells >= limits.cells || clock.expired {
                return SheetSurvey(rows: rows, cells: cells, columns: columns, complete: false)
            }
            if record.allBytes.isEmpty {
                blanks += 1
                continue
            }
            rows += blanks + 1
            blanks = 0
            for f in 0..<record.count where record.field(f).count > 0 {
                cells += 1
                columns = max(columns, f + 1)
            }
        }
        return SheetSurvey(rows: rows, cells: cells, columns: columns, complete: true)
    }

    private func makeRow(_ record: CSVRecord, line: Int) -> RawRow {
        let location = SourceLocation(file: file, row: line)
        var issues: [LeadIssue] = []
        var cells: [String] = []
        cells.reserveCapacity(record.count)
        let all = record.allBytes
        var fallbackColumns: [Int] = []
        for f in 0..<record.count {
            cells.append(decode(record.field(f), column: f, fallbacks: &fallbackColumns))
        }
        for f in fallbackColumns {
            issues.append(LeadIssue(.encodingFallback, "bytes that are not valid UTF-8 were read as Windows-1252",
                                    at: location.with(column: Column(index: f))))
        }
        if !all.isEmpty {
            if let width = expectedWidth {
                if record.count != width {
                    issues.append(LeadIssue(.raggedRow, "row has \(record.count) fields where the first row has \(width)",
                                            at: location))
                }
            } else {
                expectedWidth = record.count
            }
        }
        return RawRow(location: location, cells: cells, issues: issues)
    }

    @inline(__always)
    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, column: Int, fallbacks: inout [Int]) -> String {
        if encoding == .windows1252 {
            return TextEncoding.decodeWindows1252(bytes)
        }
        if TextEncoding.isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
        fallbacks.append(column)
        return TextEncoding.decodeWindows1252(bytes)
    }

    // MARK: Sniffing helpers

    /// Excel's `sep=;` first line: the delimiter and the bytes the line takes.
    static func excelSepLine(_ head: UnsafeRawBufferPointer) -> (delimiter: UInt8, length: Int)? {
        let b = head.bindMemory(to: UInt8.self)
        guard b.count >= 5 else { return nil }
        let prefix = Array(b[0..<4]).map { $0 | 0x20 }
        guard prefix == Array("sep=".utf8) else { return nil }
        let delimiter = b[4]
        guard delimiter != 10 && delimiter != 13 else { return nil }
        var length = 5
        if length < b.count, b[length] == delimiter { length += 1 }  // "sep=," sometimes ends with the delimiter again
        if length == b.count { return (delimiter, length) }
        if b[length] == 13 {
            length += 1
            if length < b.count, b[length] == 10 { length += 1 }
            return (delimiter, length)
        }
        if b[length] == 10 { return (delimiter, length + 1) }
        return nil
    }

    /// A short description when the head of a "CSV" file is clearly binary data.
    static func binaryContent(_ head: UnsafeRawBufferPointer) -> String? {
        let b = head.bindMemory(to: UInt8.self)
        let sample = b.prefix(8192)
        guard !sample.isEmpty else { return nil }
        var control = 0
        for byte in sample where byte < 0x20 && byte != 9 && byte != 10 && byte != 13 && byte != 12 && byte != 0x1A {
            control += 1
        }
        if control * 10 > sample.count {
            return "\(control) of its first \(sample.count) bytes are control characters"
        }
        return nil
    }
}
