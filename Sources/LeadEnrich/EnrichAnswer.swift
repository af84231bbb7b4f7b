import Foundation

/// One field's answer, checked against the spec's type.
public enum EnrichValue: Sendable, Equatable {
    case text(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    /// The model could not say.
    case null

    /// As a cell of the processed sheet ("" for null).
    public var cell: String {
        switch self {
        case .text(let text): return text
        case .integer(let n): return String(n)
        case .number(let x): return x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
        case .boolean(let b): return b ? "true" : "false"
        case .null: return ""
        }
    }
}

/// A model's answer to one request, taken apart row by row. Each row sent
/// ends with its values or with the reason it has none; nothing is matched to a row but by the
/// id LeadPort gave it, so no answer lands in the wrong row.
///
/// What is repaired, being unambiguous: JSON inside a Markdown fence or between prose; an
/// answer cut short (the complete rows before the cut are kept); a number or boolean written as
/// text; an enum choice in another case; fields the spec does not have (dropped); rows whose
/// id was never sent (dropped). What is not: a row missing from the answer, a row given twice,
/// a value of the wrong type, an enum value outside the list — those rows are to be asked for
/// again, alone (`retry`). A row whose `check` is not the one sent with its id (ids given to the
/// wrong rows) is asked for again too.
public struct EnrichAnswer: Sendable, Equatable {
    /// The rows answered, by id.
    public var values: [String: [String: EnrichValue]] = [:]
    /// Rows to ask for again, each with what was wrong.
    public var retry: [String: String] = [:]
    /// What was repaired, for the log.
    public var repairs: [String] = []

    /// `sent`: each row's id and its check, in the order sent.
    public init(content: String, sent: [(id: String, check: String)], spec: EnrichSpec) {
        let ids = sent.map(\.id)
        let checks = Dictionary(uniqueKeysWithValues: sent.map { ($0.id, $0.check) })
        let wanted = Set(ids)
        guard let (json, how) = Self.extract(content) else {
            for id in ids { retry[id] = "the model's answer held no JSON" }
            return
        }
        if let how { repairs.append(how) }
        var seen: [String: Int] = [:]
        var answered: [String: [String: Any]] = [:]
        for row in json {
            guard let id = (row["id"] as? String) ?? (row["id"] as? Int).map(String.init) else {
                repairs.append("a row without an id was dropped")
                continue
            }
            guard wanted.contains(id) else {
                repairs.append("row \(id), never sent, was dropped")
                continue
            }
            seen[id, default: 0] += 1
            answered[id] = row
        }
        for id in ids {
            guard let row = answered[id] else {
                retry[id] = "the model's answer left this row out"
                continue
            }
            if seen[id, default: 0] > 1 {
                retry[id] = "the model answered this row twice"
                continue
            }
            guard (row["check"] as? String)?.trimmingCharacters(in: .whitespaces) == checks[id] else {
                retry[id] = "the model's answer for this row carried another row's check"
                continue
            }
            var fields: [String: EnrichValue] = [:]
            var problem: String?
            for field in spec.fields {
                switch Self.check(row[field.name], field) {
                case .success(let value): fields[field.name] = value
                case .failure(let why): problem = problem ?? "\(field.name): \(why.message)"
                }
            }
            if let problem { retry[id] = problem } else { values[id] = fields }
        }
    }

    struct Mistyped: Error { var message: String }

    /// `value` as `field`'s type, repaired where that is unambiguous.
    static func check(_ value: Any?, _ field: EnrichSpec.Field) -> Result<EnrichValue, Mistyped> {
        guard let value, !(value is NSNull) else { return .success(.null) }
        let number = value as? NSNumber
        let isBool = number.map(isBoolean) ?? false
        let text = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
        switch field.type {
        case .string:
            if let text = value as? String { return .success(.text(text)) }
            if let number, !isBool { return .success(.text(number.stringValue)) }
            return .failure(Mistyped(message: "expected text, got \(describe(value))"))
        case .integer:
            if let number, !isBool, number.doubleValue == number.doubleValue.rounded(), abs(number.doubleValue) < 1e15 { return .success(.integer(number.intValue)) }
            if let text, let n = Int(text) { return .success(.integer(n)) }
            return .failure(Mistyped(message: "expected a whole number, got \(describe(value))"))
        case .number:
            if let number, !isBool { return .success(.number(number.doubleValue)) }
            if let text, let x = Double(text), x.isFinite { return .success(.number(x)) }
            return .failure(Mistyped(message: "expected a number, got \(describe(value))"))
        case .boolean:
            if let number, isBool { return .success(.boolean(number.boolValue)) }
            if let text = text?.lowercased(), ["true", "false"].contains(text) { return .success(.boolean(text == "true")) }
            return .failure(Mistyped(message: "expected true or false, got \(describe(value))"))
        case .choice(let items):
            guard let text else { return .failure(Mistyped(message: "expected one of \(items.joined(separator: ", ")), got \(describe(value))")) }
            if let exact = items.first(where: { $0 == text }) ?? items.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) { return .success(.text(exact)) }
            return .failure(Mistyped(message: "\"\(text)\" is not one of \(items.joined(separator: ", "))"))
        }
    }

    /// JSONSerialization gives `true` and `false` as numbers too, of the C type `char` (a JSON
    /// number is never read as one).
    static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    static func describe(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text.prefix(40))\"" }
        if let number = value as? NSNumber { return isBoolean(number) ? (number.boolValue ? "true" : "false") : number.stringValue }
        if value is [Any] { return "a list" }
        if value is [String: Any] { return "an object" }
        return "\(value)"
    }

    /// The answer's rows, from the JSON in `content`, and what had to be done to find them.
    static func extract(_ content: String) -> (rows: [[String: Any]], repair: String?)? {
        var body = content.trimmingCharacters(in: .whitespacesAndNewlines)
        var repair: String?
        if let fenced = Self.unfenced(body) {
            (body, repair) = (fenced, "the JSON was taken out of a Markdown fence")
        }
        if let rows = rows(in: body) { return (rows, repair) }
        // Prose around it: the outermost object.
        if let start = body.firstIndex(of: "{"), let end = body.lastIndex(of: "}"), start < end, let rows = rows(in: String(body[start...end])) {
            return (rows, "the JSON was taken from between prose")
        }
        // Cut short: the rows complete before the cut.
        if let start = body.firstIndex(of: "{") {
            let salvaged = completeRows(String(body[start...]))
            if !salvaged.isEmpty { return (salvaged, "the answer was cut short; its \(salvaged.count) complete rows were kept") }
        }
        return nil
    }

    static func unfenced(_ text: String) -> String? {
        guard let open = text.range(of: "```") else { return nil }
        var inner = text[open.upperBound...]
        if let newline = inner.firstIndex(of: "\n") { inner = inner[inner.index(after: newline)...] }  // ```json
        if let close = inner.range(of: "```", options: .backwards) { inner = inner[..<close.lowerBound] }
        return String(inner).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func rows(in text: String) -> [[String: Any]]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return nil }
        if let top = object as? [String: Any], let rows = top["rows"] as? [[String: Any]] { return rows }
        // A bare array of rows is as unambiguous.
        return object as? [[String: Any]]
    }

    /// The objects of the `rows` array that closed before the text ends.
    static func completeRows(_ text: String) -> [[String: Any]] {
        let bytes = Array(text.utf8)
        guard let open = text.range(of: "[")?.lowerBound else { return [] }
        var k = text.utf8.distance(from: text.utf8.startIndex, to: open) + 1
        var rows: [[String: Any]] = []
        while k < bytes.count {
            while k < bytes.count, bytes[k] != UInt8(ascii: "{") {
                if bytes[k] == UInt8(ascii: "]") { return rows }
                k += 1
            }
            guard k < bytes.count else { break }
            var depth = 0, inString = false, escaped = false
            var end: Int?
            for j in k..<bytes.count {
                let b = bytes[j]
                if inString {
                    if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                if b == UInt8(ascii: "\"") { inString = true } else if b == UInt8(ascii: "{") { depth += 1 } else if b == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 { end = j; break }
                }
            }
            guard let end, let row = (try? JSONSerialization.jsonObject(with: Data(bytes[k...end]))) as? [String: Any] else { break }
            rows.append(row)
            k = end + 1
        }
        return rows
    }
}
