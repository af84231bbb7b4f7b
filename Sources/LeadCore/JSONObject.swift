/// A JSON object written field by field, in the order given (reports and events read better
/// in a fixed order than sorted).
public struct JSONObject: Sendable {
    private var parts: [String] = []

    public init() {}

    public mutating func set(_ key: String, _ value: String?) {
        parts.append(JSONText.quote(key) + ":" + (value.map(JSONText.quote) ?? "null"))
    }

    public mutating func set(_ key: String, _ value: Bool?) {
        parts.append(JSONText.quote(key) + ":" + (value.map { $0 ? "true" : "false" } ?? "null"))
    }

    public mutating func set(_ key: String, _ value: Int?) {
        parts.append(JSONText.quote(key) + ":" + (value.map(String.init) ?? "null"))
    }

    public mutating func set(_ key: String, _ value: Double) {
        parts.append(JSONText.quote(key) + ":" + (value.isFinite ? String(value) : "null"))
    }

    /// A value that is already JSON text (a nested object or array).
    public mutating func set(_ key: String, json: String) {
        parts.append(JSONText.quote(key) + ":" + json)
    }

    public var text: String { "{" + parts.joined(separator: ",") + "}" }
}

public enum JSONText {
    /// `text` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    public static func array(_ items: [String]) -> String {
        "[" + items.map(quote).joined(separator: ",") + "]"
    }
}
