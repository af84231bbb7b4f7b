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

    static func holds(_ condition: (op: String, threshold: Double), _ value: Double) -> Bool {
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
/// `000-00-0000`, `00000"-"0000`, at least two zeros in all): Excel's ZIP Code, ZIP+4 and Social
/// Security formats, and the usual way a list keeps an identifier's leading zeros in a number.
/// What Excel shows is the identifier (`2134` under `00000` is ZIP 02134), so the reader gives
/// that text. The format may have sections, each such a pattern, chosen as Excel chooses
/// (`[<=99999]00000;00000-0000`, the usual recipe for a column of ZIPs and ZIP+4s), and a text
/// section (`00000;@`); without conditions only the sections a non-negative number shows in
/// must be patterns. Other decorations (literal text, thousands separators, phone patterns) are
/// not the value and are not applied: the reader gives the number.
struct ZeroPadding: Sendable, Equatable {
    /// Excel keeps a format code to 255 characters; an identifier has far fewer than 30 digits.
    /// A longer code is not a padding (a hostile file's megabytes of zeros are never built).
    static let longestCode = 255, mostZeros = 30

    struct Section: Sendable, Equatable {
        var condition: Condition?
        /// The zeros in each group, left to right.
        var groups: [Int]
    }

    struct Condition: Sendable, Equatable {
        var op: String
        var threshold: Double

        func holds(_ value: Double) -> Bool { NumberFormat.holds((op, threshold), value) }
    }

    /// The sections a non-negative number can show in: with conditions, every section but the
    /// text one, in order; without, the first (positive numbers) and the third (zero), if any.
    let sections: [Section]
    /// Whether `sections` are chosen by their conditions.
    let conditional: Bool

    /// The first section's groups.
    var groups: [Int] { sections[0].groups }

    /// Whether some number shows as nothing (an empty zero section, `00000;;`).
    var mayShowNothing: Bool { sections.contains { $0.groups.isEmpty } }

    init?(formatCode code: String) {
        guard code.utf8.count <= Self.longestCode else { return nil }
        let parts = NumberFormat.split(code).filter { !NumberFormat.isText($0) }
        guard !parts.isEmpty else { return nil }
        let conditions = parts.map(Self.condition)
        if conditions.contains(where: { $0 != nil }) {
            var sections: [Section] = []
            for (part, condition) in zip(parts, conditions) {
                guard let groups = Self.groups(condition?.1 ?? Substring(part)) else { return nil }
                sections.append(Section(condition: condition?.0, groups: groups))
            }
            (self.sections, conditional) = (sections, true)
        } else {
            // Positive numbers show in the first section, zero in the third when there is one;
            // an empty third section (`00000;;`) shows zero as nothing.
            let used = parts.count >= 3 ? [parts[0], parts[2]] : [parts[0]]
            var sections: [Section] = []
            for (n, part) in used.enumerated() {
                if n == 1, Self.untagged(Substring(part)).isEmpty {
                    sections.append(Section(condition: nil, groups: []))
                    continue
                }
                guard let groups = Self.groups(Substring(part)) else { return nil }
                sections.append(Section(condition: nil, groups: groups))
            }
            (self.sections, conditional) = (sections, false)
        }
    }

    /// A section's `[op number]` condition and the text after it, when it starts with one.
    /// (A colour or locale tag may come before it: `[Red][<=99999]00000`.)
    private static func condition(_ part: String) -> (Condition, Substring)? {
        let rest = untagged(Substring(part))
        guard rest.hasPrefix("["), let close = rest.firstIndex(of: "]"),
              let found = NumberFormat.condition(String(rest[...close])) else { return nil }
        return (Condition(op: found.op, threshold: found.threshold), rest[rest.index(after: close)...])
    }

    /// The zeros of each group of a pattern (`00000`, `00000\-0000`, `000"-"00"-"0000`); nil
    /// for anything else.
    private static func groups(_ pattern: Substring) -> [Int]? {
        var groups = [0]
        var bytes = untagged(pattern).utf8[...]
        while let b = bytes.popFirst() {
            switch b {
            case UInt8(ascii: "0"):
                groups[groups.count - 1] += 1
            case UInt8(ascii: "-"), UInt8(ascii: "\\"), UInt8(ascii: "\""):
                // A hyphen, bare, escaped or quoted alone, and only between groups of zeros.
                if b == UInt8(ascii: "\\") {
                    guard bytes.popFirst() == UInt8(ascii: "-") else { return nil }
                } else if b == UInt8(ascii: "\"") {
                    guard bytes.popFirst() == UInt8(ascii: "-"), bytes.popFirst() == UInt8(ascii: "\"") else { return nil }
                }
                guard groups[groups.count - 1] > 0 else { return nil }
                groups.append(0)
            default:
                return nil
            }
        }
        let zeros = groups.reduce(0, +)
        guard groups[groups.count - 1] > 0, zeros >= 2, zeros <= mostZeros else { return nil }
        return groups
    }

    /// A section without its leading tags that change no digit: a locale or currency
    /// (`[$-409]`, `[$-en-US]`) and a colour (`[Red]`, `[Color12]`), as Excel's own ZIP Code format
    /// is written by some locales' Excel (`[$-409]00000`).
    private static func untagged(_ section: Substring) -> Substring {
        var rest = section
        while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            let tag = rest[rest.index(after: rest.startIndex)..<close].lowercased()
            let colours: Set<String> = ["black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"]
            let isColour = colours.contains(tag) || (tag.hasPrefix("color") && !tag.dropFirst(5).isEmpty && tag.dropFirst(5).allSatisfy(\.isNumber))
            guard tag.hasPrefix("$") || isColour else { break }
            rest = rest[rest.index(after: close)...]
        }
        return rest
    }

    /// The text Excel shows for a stored whole number (`2134`, `2134.0`, `2.134E3` → `02134`);
    /// nil for anything else (a fraction, a negative number, a number no section shows), which
    /// the reader gives as the number. A number longer than the zeros keeps its extra digits in
    /// the first group.
    ///
    /// Under ZIP+4 (`00000-0000`) the number must reach two digits into the ZIP: a five-digit
    /// ZIP in a column formatted ZIP+4 (`90210`) shows in Excel as `00009-0210`, which is no
    /// one's ZIP; given as the number, the ZIP rule reads it as the ZIP it is. Other groups
    /// (`000-00-0000`) are padded as Excel pads them.
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
        guard let groups = section(for: number)?.groups else { return nil }
        // Zero in an empty section: Excel shows nothing.
        if groups.isEmpty { return "" }
        if groups == [5, 4], number.count < 6 { return nil }
        let width = groups.reduce(0, +)
        var text = [UInt8]()
        text.reserveCapacity(max(width, number.count) + groups.count)
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - number.count)))
        text.append(contentsOf: number)
        guard groups.count > 1 else { return String(decoding: text, as: UTF8.self) }
        // Hyphens, in one pass: every group but the first has exactly its zeros' digits.
        let first = text.count - (width - groups[0])
        var out = [UInt8]()
        out.reserveCapacity(text.count + groups.count - 1)
        out.append(contentsOf: text[..<first])
        var at = first
        for group in groups.dropFirst() {
            out.append(UInt8(ascii: "-"))
            out.append(contentsOf: text[at..<(at + group)])
            at += group
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The section a non-negative whole number (its digits, without leading zeros) shows in.
    private func section(for number: [UInt8]) -> Section? {
        guard conditional else { return number.isEmpty && sections.count > 1 ? sections[1] : sections[0] }
        let value = Double(String(decoding: number, as: UTF8.self)) ?? 0
        for section in sections {
            guard let condition = section.condition else { return section }
            if condition.holds(value) { return section }
        }
        return nil
    }
}
