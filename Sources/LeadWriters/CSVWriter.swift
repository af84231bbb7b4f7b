import Foundation
import LeadCore

/// Writes RFC 4180 CSV to a file, a row at a time. Cells that a spreadsheet would run as a
/// formula (starting with `=`, `+`, `-`, `@`, tab or carriage return) get a leading `'`,
/// as OWASP advises for CSV injection, when `protectFormulas` is on. A plain decimal number
/// (`-121.434879`, `-5`, `-1.5e3`) is left as it is: a spreadsheet reads it as the number it
/// is, runs nothing, and a `'` would turn it into text.
public final class CSVWriter {
    private let handle: FileHandle
    private var buffer = Data()
    public let path: String
    private let protectFormulas: Bool
    var lastHeader: [String]?

    public init(path: String, protectFormulas: Bool = true) throws {
        self.path = path
        self.protectFormulas = protectFormulas
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw WriterError(path: path, message: "cannot create the file")
        }
        self.handle = handle
    }

    public func write(_ cells: [String]) throws {
        var line = ""
        for (k, cell) in cells.enumerated() {
            if k > 0 { line += "," }
            line += field(cell)
        }
        line += "\r\n"
        buffer.append(contentsOf: line.utf8)
        if buffer.count > 1 << 16 { try flush() }
    }

    public func close() throws {
        try flush()
        try handle.close()
    }

    private func flush() throws {
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw WriterError(path: path, message: "\(error)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func field(_ cell: String) -> String {
        var value = cell
        if protectFormulas, let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), !Self.isPlainNumber(value) {
            value = "'" + value
        }
        if value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return value
    }

    /// `-?digits[.digits][e±digits]`, nothing else: what a spreadsheet takes as a number and
    /// never as a formula.
    static func isPlainNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let n = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(n)
            return n
        }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

public struct WriterError: Error, CustomStringConvertible, Classified {
    public var path: String
    public var message: String
    public var disposition: FailureDisposition { .terminal }
    public var description: String { "\(path): \(message)" }
}
