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
