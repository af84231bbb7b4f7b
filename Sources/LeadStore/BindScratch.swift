import GRDB
import GRDBSQLite

/// The values of one statement, bound straight through SQLite's C API from one reused buffer.
/// The buffers are its own memory, grown by doubling and never shrunk: as arrays, every value
/// appended was a uniqueness check, a generic append and a capacity check for each of the
/// two, some sixty instructions for a value the statement then copies no further.
final class BindScratch {
    /// The text values' bytes, one after another.
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var byteCapacity = 4096
    /// Per value: (offset, length) in `bytes`; offset -1 for NULL, -2 for an integer (in length).
    private var spans: UnsafeMutablePointer<(offset: Int, length: Int)>
    private var spanCount = 0
    private var spanCapacity = 256
    /// Multi-row statements by row count and statement head and tail.
    var statements: [String: Statement] = [:]

    init() {
        bytes = .allocate(capacity: byteCapacity)
        spans = .allocate(capacity: spanCapacity)
    }

    deinit {
        bytes.deallocate()
        spans.deallocate()
    }

    func reset() {
        byteCount = 0
        spanCount = 0
    }

    func text(_ value: String?) {
        guard var value else { return span(-1, 0) }
        value.withUTF8 { utf8 in
            if byteCount + utf8.count > byteCapacity { growBytes(byteCount + utf8.count) }
            if let source = utf8.baseAddress { (bytes + byteCount).update(from: source, count: utf8.count) }
            span(byteCount, utf8.count)
            byteCount += utf8.count
        }
    }

    func integer(_ value: Int) {
        span(-2, value)
    }

    private func span(_ offset: Int, _ length: Int) {
        if spanCount == spanCapacity {
            let grown = UnsafeMutablePointer<(offset: Int, length: Int)>.allocate(capacity: spanCapacity * 2)
            grown.moveInitialize(from: spans, count: spanCount)
            spans.deallocate()
            (spans, spanCapacity) = (grown, spanCapacity * 2)
        }
        (spans + spanCount).initialize(to: (offset, length))
        spanCount += 1
    }

    private func growBytes(_ needed: Int) {
        var capacity = byteCapacity * 2
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.moveInitialize(from: bytes, count: byteCount)
        bytes.deallocate()
        (bytes, byteCapacity) = (grown, capacity)
    }

    /// Binds the values in order to `handle` (no copies: SQLITE_STATIC, the bytes stay put
    /// until `body` is done), runs `body`, then resets the statement and clears its bindings.
    func bind<T>(_ handle: SQLiteStatement, _ body: () throws -> T) rethrows -> T {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)  // the bound pointers are into `bytes`
        }
        let base = UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self)
        for k in 0..<spanCount {
            let index = Int32(k + 1)
            let span = spans[k]
            switch span.offset {
            case -1: sqlite3_bind_null(handle, index)
            case -2: sqlite3_bind_int64(handle, index, Int64(span.length))
            default: sqlite3_bind_text(handle, index, base + span.offset, Int32(span.length), nil)
            }
        }
        return try body()
    }
}

/// The current result row of a statement being stepped.
struct ResultColumns {
    let handle: SQLiteStatement

    /// Column `k` as text, nil for NULL.
    func optionalText(_ k: Int32) -> String? {
        sqlite3_column_type(handle, k) == SQLITE_NULL ? nil : text(k)
    }

    /// Column `k` as text ("" for NULL).
    func text(_ k: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, k) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, k))), as: UTF8.self)
    }

    /// Column `k` read as a hexadecimal number of at most 16 digits (nil: NULL, empty, or
    /// anything else), without making a string of it.
    func hex(_ k: Int32) -> UInt64? {
        guard let bytes = sqlite3_column_text(handle, k) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, k))
        guard count > 0, count <= 16 else { return nil }
        var value: UInt64 = 0
        for b in UnsafeBufferPointer(start: bytes, count: count) {
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
