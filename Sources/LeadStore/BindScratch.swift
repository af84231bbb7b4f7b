import GRDB
import GRDBSQLite

/// The values of one statement, bound straight through SQLite's C API from one reused buffer.
final class BindScratch {
    /// The text values' bytes, one after another.
    var bytes: [UInt8] = []
    /// Per value: (offset, length) in `bytes`; offset -1 for NULL, -2 for an integer (in length).
    var spans: [(offset: Int, length: Int)] = []
    /// Multi-row statements by row count and statement head and tail.
    var statements: [String: Statement] = [:]

    func reset() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    func text(_ value: String?) {
        guard var value else {
            spans.append((-1, 0))
            return
        }
        value.withUTF8 { utf8 in
            spans.append((bytes.count, utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    func integer(_ value: Int) {
        spans.append((-2, value))
    }

    /// Binds the values in order to `handle` (no copies: SQLITE_STATIC, the bytes stay put
    /// until `body` is done), runs `body`, then resets the statement and clears its bindings.
    func bind<T>(_ handle: SQLiteStatement, _ body: () throws -> T) rethrows -> T {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)  // the bound pointers are into `bytes`
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            for (k, span) in spans.enumerated() {
                let index = Int32(k + 1)
                switch span.offset {
                case -1: sqlite3_bind_null(handle, index)
                case -2: sqlite3_bind_int64(handle, index, Int64(span.length))
                default: sqlite3_bind_text(handle, index, base + span.offset, Int32(span.length), nil)
                }
            }
            return try body()
        }
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
