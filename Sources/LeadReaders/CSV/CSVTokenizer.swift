/// A push state machine that splits CSV bytes into records and fields.
///
/// It knows nothing of files, encodings or headers (rust-csv's `csv-core` split): feed it
/// byte buffers of any size with `consume(_:from:)`; each call returns `.recordEnd` once a
/// record is complete (read it through `record` before the next call) or `.needMoreInput`
/// when the buffer is used up. Call `finish()` at end of input for a final record that has
/// no line end.
///
/// Rules (RFC 4180, lenient where real files are): a field that starts with the quote byte is
/// quoted and may hold delimiters, doubled quotes and line breaks; a quote inside an unquoted
/// field is literal; text after a closing quote is kept (`"ab"c` → `abc`). CRLF, LF and CR
/// each end a line. An empty line is a record with one empty field.
///
/// Memory: the record buffer grows to the largest record seen, bounded by `maxRecordBytes`
/// plus one input buffer; nothing is allocated per field once the buffers have grown.
public final class CSVTokenizer {
    /// What `consume` stopped on.
    public enum Step: Equatable, Sendable {
        case needMoreInput
        case recordEnd
    }

    public let delimiter: UInt8
    public let quote: UInt8
    /// Refuse records (all fields together) larger than this many bytes.
    public let maxRecordBytes: Int
    /// Refuse records with more fields than this.
    public let maxFields: Int

    /// 1-based line of the next byte to be read.
    public private(set) var line = 1
    /// 1-based line where the current (or just finished) record started.
    public private(set) var recordLine = 1
    /// Bytes consumed so far, over every call.
    public private(set) var bytesConsumed = 0

    private enum State: UInt8 { case recordStart, fieldStart, unquoted, quoted, quoteInQuoted }
    private var state = State.recordStart
    private var quoteLine = 1
    /// Absolute offset of the last CR that ended a line, so a following LF is not a new line.
    private var lastCR = -2
    private var recordComplete = false

    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCapacity: Int
    private var byteCount = 0
    private var ends: UnsafeMutablePointer<Int>
    private var endCapacity: Int
    private var fieldCount = 0
    /// Byte classes outside quotes: 0 plain, 1 delimiter, 2 quote, 3 LF, 4 CR.
    private let outside: UnsafeMutablePointer<UInt8>
    /// Byte classes inside quotes: 0 plain, 2 quote, 3 LF, 4 CR.
    private let inside: UnsafeMutablePointer<UInt8>

    public init(delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8 = UInt8(ascii: "\""),
                maxRecordBytes: Int = 64 << 20, maxFields: Int = 100_000) {
        self.delimiter = delimiter
        self.quote = quote
        self.maxRecordBytes = maxRecordBytes
        self.maxFields = maxFields
        byteCapacity = 4096
        bytes = .allocate(capacity: byteCapacity)
        endCapacity = 64
        ends = .allocate(capacity: endCapacity)
        outside = .allocate(capacity: 256)
        inside = .allocate(capacity: 256)
        outside.initialize(repeating: 0, count: 256)
        inside.initialize(repeating: 0, count: 256)
        outside[Int(delimiter)] = 1
        for table in [outside, inside] {
            table[Int(quote)] = 2
            table[10] = 3
            table[13] = 4
        }
    }

    deinit {
        bytes.deallocate()
        ends.deallocate()
        outside.deallocate()
        inside.deallocate()
    }

    /// The record finished by the last `.recordEnd` (or `finish()`); valid until the next call.
    public var record: CSVRecord {
        CSVRecord(bytes: UnsafePointer(bytes), ends: UnsafePointer(ends), count: fieldCount)
    }

    /// Consumes bytes from `input[start...]` until a record ends or the input is used up.
    /// - Returns: what happened, and the offset in `input` to continue from.
    /// - Throws: `CSVTokenizerError` when a record outgrows the limits.
    public func consume(_ input: UnsafeRawBufferPointer, from start: Int) throws(CSVTokenizerError) -> (Step, Int) {
        if recordComplete { startRecord() }
        let n = input.count
        guard start < n, let base = input.baseAddress else { return (.needMoreInput, start) }
        let p = base.assumingMemoryBound(to: UInt8.self)
        // The record can grow by at most the rest of this buffer: reserve once, then copy freely.
        try reserve(n - start)
        var i = start
        var o = byteCount
        let out = bytes
        var state = self.state
        var result = Step.needMoreInput
        let abs0 = bytesConsumed - start

        scan: while i < n {
            switch state {
            case .unquoted, .fieldStart, .recordStart:
                if state != .unquoted {
                    if state == .recordStart {
                        // A LF right after the CR that ended the previous record is part of that line end.
                        if p[i] == 10 && abs0 + i == lastCR + 1 { i += 1; continue scan }
                        recordLine = line
                    }
                    if p[i] == quote {
                        state = .quoted
                        quoteLine = line
                        i += 1
                        continue scan
                    }
                    state = .unquoted
                }
                let table = outside
                while i < n {
                    let b = p[i]
                    let c = table[Int(b)]
                    if c == 0 {
                        out[o] = b
                        o &+= 1
                        i &+= 1
                        continue
                    }
                    if c == 2 {  // a quote inside an unquoted field is literal
                        out[o] = b
                        o &+= 1
                        i &+= 1
                        continue
                    }
                    i &+= 1
                    if c == 1 {
                        try endField(o)
                        state = .fieldStart
                        continue scan
                    }
                    try endField(o)
                    endLine(isCR: c == 4, at: abs0 + i - 1)
                    state = .recordStart
                    result = .recordEnd
                    break scan
                }
            case .quoted:
                let table = inside
                while i < n {
                    let b = p[i]
                    let c = table[Int(b)]
                    if c == 0 {
                        out[o] = b
                        o &+= 1
                        i &+= 1
                        continue
                    }
                    i &+= 1
                    if c == 2 {
                        state = .quoteInQuoted
                        continue scan
                    }
                    out[o] = b
                    o &+= 1
                    if c == 4 {
                        line += 1
                        lastCR = abs0 + i - 1
                    } else if abs0 + i - 1 != lastCR + 1 {
                        line += 1
                    }
                }
            case .quoteInQuoted:
                let b = p[i]
                i += 1
                if b == quote {
                    out[o] = b
                    o += 1
                    state = .quoted
                } else if b == delimiter {
                    try endField(o)
                    state = .fieldStart
                } else if b == 10 || b == 13 {
                    try endField(o)
                    endLine(isCR: b == 13, at: abs0 + i - 1)
                    state = .recordStart
                    result = .recordEnd
                    break scan
                } else {
                    out[o] = b
                    o += 1
                    state = .unquoted
                }
            }
        }
        byteCount = o
        self.state = state
        bytesConsumed = abs0 + i
        if result == .recordEnd {
            recordComplete = true
        } else if o > maxRecordBytes {
            throw .recordTooLarge(line: recordLine, limit: maxRecordBytes, inQuotes: state == .quoted ? quoteLine : nil)
        }
        return (result, i)
    }

    /// Ends the input. Returns true when a last record (one without a line end) is ready in
    /// `record`.
    /// - Throws: `.unterminatedQuote` when the input ends inside a quoted field.
    public func finish() throws(CSVTokenizerError) -> Bool {
        if recordComplete { startRecord() }
        switch state {
        case .recordStart:
            return false
        case .quoted:
            throw .unterminatedQuote(line: quoteLine, recordLine: recordLine)
        case .fieldStart, .unquoted, .quoteInQuoted:
            try endField(byteCount)
            state = .recordStart
            recordComplete = true
            return true
        }
    }

    private func startRecord() {
        byteCount = 0
        fieldCount = 0
        recordComplete = false
    }

    @inline(__always)
    private func endField(_ end: Int) throws(CSVTokenizerError) {
        if fieldCount == endCapacity {
            guard fieldCount < maxFields else { throw .tooManyFields(line: recordLine, limit: maxFields) }
            let bigger = UnsafeMutablePointer<Int>.allocate(capacity: endCapacity * 2)
            bigger.moveInitialize(from: ends, count: fieldCount)
            ends.deallocate()
            ends = bigger
            endCapacity *= 2
        }
        ends[fieldCount] = end
        fieldCount += 1
    }

    @inline(__always)
    private func endLine(isCR: Bool, at offset: Int) {
        line += 1
        if isCR { lastCR = offset }
    }

    private func reserve(_ extra: Int) throws(CSVTokenizerError) {
        let needed = byteCount + extra
        guard needed > byteCapacity else { return }
        var capacity = byteCapacity
        while capacity < needed { capacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bigger.moveInitialize(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = bigger
        byteCapacity = capacity
    }
}

/// A view of one tokenized record: its fields as byte ranges. Valid until the tokenizer is
/// called again.
public struct CSVRecord {
    let bytes: UnsafePointer<UInt8>
    let ends: UnsafePointer<Int>
    /// Number of fields (at least 1 for any record).
    public let count: Int

    /// The bytes of field `index` (0-based), quotes removed and doubled quotes collapsed.
    @inline(__always)
    public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeBufferPointer(start: bytes + start, count: ends[index] - start)
    }

    /// All field bytes back to back.
    public var allBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes, count: count == 0 ? 0 : ends[count - 1])
    }
}

/// Why the tokenizer refused its input.
public enum CSVTokenizerError: Error, Equatable, Sendable {
    /// The input ended inside a quoted field opened on `line`.
    case unterminatedQuote(line: Int, recordLine: Int)
    /// A record grew past `limit` bytes; `inQuotes` is the line of an open quote, if any.
    case recordTooLarge(line: Int, limit: Int, inQuotes: Int?)
    case tooManyFields(line: Int, limit: Int)
}
