/// Canonical text for numbers and Excel date serials, as `leadport cat` prints them.
enum ExcelValues {
    /// The shortest decimal that round-trips `value`, written out positionally: `3`, `2.5`,
    /// `0.0000001`, never `3.0` or an exponent.
    static func canonical(_ value: Double) -> String {
        if value == 0 { return "0" }
        if !value.isFinite { return value.description }
        let text = value.description  // shortest round-trip digits
        var negative = false
        var body = Substring(text)
        if body.hasPrefix("-") {
            negative = true
            body = body.dropFirst()
        }
        var exponent = 0
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(body[body.index(after: e)...]) ?? 0
            body = body[..<e]
        }
        var digits = ""
        var pointPosition = body.count
        if let dot = body.firstIndex(of: ".") {
            pointPosition = body.distance(from: body.startIndex, to: dot)
            digits = String(body[..<dot]) + String(body[body.index(after: dot)...])
        } else {
            digits = String(body)
        }
        pointPosition += exponent
        // Strip leading zeros (adjusting the point) and trailing zeros.
        var d = Array(digits.utf8)
        while d.count > 1 && d.first == UInt8(ascii: "0") {
            d.removeFirst()
            pointPosition -= 1
        }
        while d.count > 1 && d.last == UInt8(ascii: "0") && d.count > max(pointPosition, 1) { d.removeLast() }
        var out = negative ? "-" : ""
        if pointPosition <= 0 {
            out += "0." + String(repeating: "0", count: -pointPosition) + String(decoding: d, as: UTF8.self)
        } else if pointPosition >= d.count {
            out += String(decoding: d, as: UTF8.self) + String(repeating: "0", count: pointPosition - d.count)
        } else {
            out += String(decoding: d[0..<pointPosition], as: UTF8.self) + "." + String(decoding: d[pointPosition...], as: UTF8.self)
        }
        return out
    }

    /// Text for a number shown through a date, time or duration format; nil when the value
    /// cannot be a date (negative, or past 9999-12-31), so the caller prints the number.
    static func temporal(_ value: Double, kind: NumberKind, date1904: Bool) -> String? {
        guard value.isFinite else { return nil }
        let totalSeconds = (value * 86_400).rounded()
        guard abs(totalSeconds) < 1e15 else { return nil }
        var seconds = Int64(totalSeconds)
        switch kind {
        case .number:
            return nil
        case .duration:
            let negative = seconds < 0
            seconds = abs(seconds)
            let text = "\(seconds / 3600):\(pad2(Int((seconds / 60) % 60))):\(pad2(Int(seconds % 60)))"
            return negative ? "-" + text : text
        case .time:
            guard seconds >= 0 else { return nil }
            return clock(Int(seconds % 86_400))
        case .date:
            guard seconds >= 0 else { return nil }
            let days = Int(seconds / 86_400)
            let secondOfDay = Int(seconds % 86_400)
            guard let date = civilDate(serialDays: days, date1904: date1904) else { return nil }
            return secondOfDay == 0 ? date : date + "T" + clock(secondOfDay)
        }
    }

    /// `YYYY-MM-DD` for a whole-day serial. In the 1900 system serial 60 is Excel's fictitious
    /// 1900-02-29 and serials below it are one day off from a real calendar.
    static func civilDate(serialDays: Int, date1904: Bool) -> String? {
        let daysFromEpoch: Int  // days since 1970-01-01
        if date1904 {
            daysFromEpoch = serialDays - 24_107  // 1904-01-01 is serial 0
        } else if serialDays == 60 {
            return "1900-02-29"
        } else if serialDays < 60 {
            daysFromEpoch = serialDays - 25_568  // serial 1 is 1900-01-01
        } else {
            daysFromEpoch = serialDays - 25_569  // 1899-12-30 is serial 0
        }
        let (y, m, d) = civil(fromDays: daysFromEpoch)
        guard y >= 1 && y <= 9999 else { return nil }
        return "\(pad4(y))-\(pad2(m))-\(pad2(d))"
    }

    /// Howard Hinnant's days-to-civil algorithm.
    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    private static func clock(_ secondOfDay: Int) -> String {
        "\(pad2(secondOfDay / 3600)):\(pad2((secondOfDay / 60) % 60)):\(pad2(secondOfDay % 60))"
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private static func pad4(_ n: Int) -> String {
        let s = "\(n)"
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
