/// A JSON object written field by field, in the order given (reports and events read better
/// in a fixed order than sorted).
public struct JSONObject: Sendable {
    /// The object's text so far, without its closing brace: written as bytes, since building
    /// it from strings cost the REST destination a second of a 100k-row import.
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    public init() {}

    private mutating func key(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONText.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func set(_ key: String, _ value: String?) {
        self.key(key)
        if let value { JSONText.appendQuoted(value, to: &bytes) } else { raw("null") }
    }

    public mutating func set(_ key: String, _ value: Bool?) {
        self.key(key)
        raw(value.map { $0 ? "true" : "false" } ?? "null")
    }

    public mutating func set(_ key: String, _ value: Int?) {
        self.key(key)
        raw(value.map(String.init) ?? "null")
    }

    public mutating func set(_ key: String, _ value: Double) {
        self.key(key)
        raw(value.isFinite ? String(value) : "null")
    }

    /// A value that is already JSON text (a nested object or array).
    public mutating func set(_ key: String, json: String) {
        self.key(key)
        raw(json)
    }

    public var text: String {
        var closed = bytes
        closed.append(UInt8(ascii: "}"))
        return String(decoding: closed, as: UTF8.self)
    }
}

public enum JSONText {
    /// `text` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else (UTF-8 included) as it is, copied a run at a time.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                switch byte {
                case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                }
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// An object of text values, keys sorted.
    public static func object(_ fields: [String: String]) -> String {
        var o = JSONObject()
        for key in fields.keys.sorted() { o.set(key, fields[key]) }
        return o.text
    }

    public static func array(_ items: [String]) -> String {
        "[" + items.map(quote).joined(separator: ",") + "]"
    }
}
