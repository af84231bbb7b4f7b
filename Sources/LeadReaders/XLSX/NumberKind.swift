/// What a cell's number format makes of its number.
enum NumberKind: UInt8, Sendable {
    case number
    /// A date only: Excel shows no time of day, whatever the value holds.
    case date
    /// A date with a time of day.
    case dateTime
    /// A time of day only: Excel shows no date, whatever the value holds.
    case time
    /// Elapsed time (`[h]:mm:ss`).
    case duration
    /// Which of the above depends on the value: the format's sections differ
    /// (`[<1]h:mm;0.00`, `0;-0;"-"`), and `NumberFormat` picks one for each value.
    case byValue
    /// A whole number shown with its leading zeros (`ZeroPadding`): a ZIP, ZIP+4 or other
    /// identifier kept as a number in a cell formatted `00000`, `00000-0000`, `000-00-0000`.
    case zeroPadded

    /// Built-in format ids (ECMA-376 §18.8.30): 14–17 dates, 22 date-time, 18–21 and 45–47 times,
    /// 46 elapsed hours.
    static func builtIn(_ id: Int) -> NumberKind {
        switch id {
        case 14...17: return .date
        case 22: return .dateTime
        case 18...21, 45, 47: return .time
        case 46: return .duration
        default: return .number
        }
    }

    /// Classifies a custom format code by the tokens in its first section, ignoring quoted
    /// text, backslash-escaped characters, `_x` / `*x` padding and `[...]` sections other than
    /// elapsed-time ones (`[h]`, `[mm]`, `[ss]`).
    static func classify(formatCode code: String) -> NumberKind {
        let chars = Array(code.lowercased().unicodeScalars)
        if code.lowercased() == "general" { return .number }
        var hasDate = false
        var hasTime = false
        var hasMonthOrMinute = false
        var elapsed = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\"":
                i += 1
                while i < chars.count && chars[i] != "\"" { i += 1 }
            case "\\", "_", "*":
                i += 1
            case "[":
                var j = i + 1
                var inner = ""
                while j < chars.count && chars[j] != "]" {
                    inner.unicodeScalars.append(chars[j])
                    j += 1
                }
                if !inner.isEmpty && inner.allSatisfy({ "hms".contains($0) }) && Set(inner).count == 1 {
                    elapsed = true
                }
                i = j
            case ";":
                i = chars.count
                continue
            case "y", "d":
                hasDate = true
            case "e":
                // `e` is a year in some locales, but `E+`/`E-` is scientific notation.
                if i + 1 < chars.count && (chars[i + 1] == "+" || chars[i + 1] == "-") {
                    i += 1
                } else {
                    hasDate = true
                }
            case "h", "s":
                hasTime = true
            case "m":
                hasMonthOrMinute = true
            case "a":
                let rest = String(String.UnicodeScalarView(chars[i...].prefix(5)))
                if rest.hasPrefix("am/pm") || rest.hasPrefix("a/p") { hasTime = true }
            default:
                break
            }
            i += 1
        }
        if elapsed { return .duration }
        if hasDate { return hasTime ? .dateTime : .date }
        if hasMonthOrMinute && !hasTime { return .date }
        if hasTime { return .time }
        return .number
    }
}

/// A number format whose sections show values of different kinds: the section a value falls
/// in decides, by Excel's rule (ECMA-376 §18.8.31): with conditions (`[<100]`), the first
/// section whose condition holds, or the first section without one; without, one section for
/// every value, two for non-negative and negative, three for positive, negative and zero. A
/// text section (`@`) is never a number's.
struct NumberFormat: Sendable {
    struct Section: Sendable {
        var condition: (op: String, threshold: Double)?
        var kind: NumberKind
    }

    var sections: [Section]

    /// Nil when every section a number can fall in shows the same kind (the usual case): the
    /// style then has that kind alone.
    init?(formatCode code: String) {
        let parts = Self.split(code)
        guard parts.count > 1 else { return nil }
        sections = parts.filter { !Self.isText($0) }.map { part in
            Section(condition: Self.condition(part), kind: NumberKind.classify(formatCode: part))
        }
        guard !sections.isEmpty, sections.contains(where: { $0.condition != nil }) || Set(sections.map(\.kind)).count > 1 else { return nil }
    }

    func kind(for value: Double) -> NumberKind {
        if sections.contains(where: { $0.condition != nil }) {
            for section in sections {
                guard let condition = section.condition else { return section.kind }
                if Self.holds(condition, value) { return section.kind }
            }
            return .number
        }
        switch sections.count {
        case 1: return sections[0].kind
        case 2: return value < 0 ? sections[1].kind : sections[0].kind
        default: return value > 0 ? sections[0].kind : value < 0 ? sections[1].kind : sections[2].kind
        }
    }

    private static func holds(_ condition: (op: String, threshold: Double), _ value: Double) -> Bool {
        switch condition.op {
        case "<": return value < condition.threshold
        case "<=": return value <= condition.threshold
        case ">": return value > condition.threshold
        case ">=": return value >= condition.threshold
        case "<>": return value != condition.threshold
        default: return value == condition.threshold
        }
    }

    /// The format's sections: split at each `;` outside quotes, brackets and escapes.
    static func split(_ code: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false, bracketed = false, escaped = false
        for c in code {
            defer { if c != ";" || quoted || bracketed || escaped { current.append(c) } }
            if escaped { escaped = false; continue }
            switch c {
            case "\\" where !quoted: escaped = true
            case "\"": quoted.toggle()
            case "[" where !quoted: bracketed = true
            case "]" where !quoted: bracketed = false
            case ";" where !quoted && !bracketed:
                parts.append(current)
                current = ""
            default: break
            }
        }
        parts.append(current)
        return parts
    }

    /// The section's `[op number]` condition, if it has one.
    static func condition(_ section: String) -> (op: String, threshold: Double)? {
        var rest = Substring(section)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            let inner = String(rest[rest.index(after: open)..<close]).trimmingCharacters()
            for op in ["<=", ">=", "<>", "<", ">", "="] where inner.hasPrefix(op) {
                if let threshold = Double(String(inner.dropFirst(op.count)).trimmingCharacters()) { return (op, threshold) }
            }
            rest = rest[rest.index(after: close)...]
        }
        return nil
    }

    /// Whether the section is the text section: an `@` outside quotes.
    static func isText(_ section: String) -> Bool {
        var quoted = false, escaped = false
        for c in section {
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true } else if c == "\"" { quoted.toggle() } else if c == "@" && !quoted { return true }
        }
        return false
    }
}

/// A format of zeros alone, or groups of zeros joined by hyphens (`00000`, `00000\-0000`,
/// `000-00-0000`, at least two zeros in all): Excel's ZIP Code, ZIP+4 and Social Security
/// formats, and the usual way a list keeps an identifier's leading zeros in a number. What
/// Excel shows is the identifier (`2134` under `00000` is ZIP 02134), so the reader gives that
/// text. Other decorations (literal text, thousands separators, phone patterns) are not the
/// value and are not applied: the reader gives the number.
struct ZeroPadding: Sendable, Equatable {
    /// The zeros in each group, left to right.
    let groups: [Int]

    init?(formatCode code: String) {
        var groups = [0]
        var bytes = code.utf8[...]
        while let b = bytes.popFirst() {
            switch b {
            case UInt8(ascii: "0"):
                groups[groups.count - 1] += 1
            case UInt8(ascii: "\\") where bytes.first == UInt8(ascii: "-"), UInt8(ascii: "-"):
                if b == UInt8(ascii: "\\") { bytes = bytes.dropFirst() }
                // A hyphen only between groups of zeros.
                guard groups[groups.count - 1] > 0 else { return nil }
                groups.append(0)
            default:
                return nil
            }
        }
        guard groups[groups.count - 1] > 0, groups.reduce(0, +) >= 2 else { return nil }
        self.groups = groups
    }

    /// The text Excel shows for a stored whole number (`2134`, `2134.0`, `2.134E3` → `02134`);
    /// nil for anything else (a fraction, a negative number), which the reader gives as the
    /// number. A number longer than the zeros keeps its extra digits in the first group.
    ///
    /// With groups, the number must reach two digits into the first: a five-digit ZIP in a
    /// column formatted ZIP+4 (`90210` under `00000-0000`) shows in Excel as `00009-0210`,
    /// which is no one's ZIP; given as the number, the ZIP rule reads it as the ZIP it is.
    func text(_ stored: UnsafeBufferPointer<UInt8>) -> String? {
        let number: [UInt8]
        if !stored.isEmpty, stored.count <= 15, stored.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            number = Array(stored.drop { $0 == UInt8(ascii: "0") })
        } else if let value = CellText.parseDouble(stored), value >= 0, value < 1e15, value == value.rounded(.towardZero) {
            // A whole number written as a double (`2134.0`, `2.134E3`, `-0`).
            number = value == 0 ? [] : Array(String(Int64(value)).utf8)
        } else {
            return nil
        }
        let width = groups.reduce(0, +)
        if groups.count > 1, number.count < width - groups[0] + 2 { return nil }
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - number.count)) + number
        // Hyphens from the right: every group but the first has exactly its zeros' digits.
        var end = digits.count
        for group in groups.dropFirst().reversed() {
            end -= group
            digits.insert(UInt8(ascii: "-"), at: end)
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
