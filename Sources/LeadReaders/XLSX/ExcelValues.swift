import LeadCore

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

    /// Text for a number shown through a date, time or duration format, showing what Excel
    /// shows: a date-only format gives the date alone (the day the value falls in, whatever its
    /// time of day), a time-only format the time of day alone (whatever its day), a date-time
    /// format both. Nil when the value cannot be a date (negative, or past 9999-12-31), so the
    /// caller prints the number.
    static func temporal(_ value: Double, kind: NumberKind, date1904: Bool) -> String? {
        guard value.isFinite else { return nil }
        let totalSeconds = (value * 86_400).rounded()
        guard abs(totalSeconds) < 1e15 else { return nil }
        var seconds = Int64(totalSeconds)
        switch kind {
        case .number, .byValue, .zeroPadded:
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
            // No time is shown, so none is rounded: 23:59:59.9 is still that day. Only a value
            // within half a millisecond of midnight (a float's error) counts as the next day.
            let milliseconds = (value * 86_400_000).rounded()
            guard milliseconds >= 0 else { return nil }
            return civilDate(serialDays: Int(milliseconds / 86_400_000), date1904: date1904)
        case .dateTime:
            guard seconds >= 0 else { return nil }
            let days = Int(seconds / 86_400)
            let secondOfDay = Int(seconds % 86_400)
            guard let date = civilDate(serialDays: days, date1904: date1904) else { return nil }
            return secondOfDay == 0 ? date : date + "T" + clock(secondOfDay)
        }
    }

    static func civilDate(serialDays: Int, date1904: Bool) -> String? {
        CivilDate.excelSerial(serialDays, date1904: date1904)
    }

    private static func clock(_ secondOfDay: Int) -> String {
        "\(pad2(secondOfDay / 3600)):\(pad2((secondOfDay / 60) % 60)):\(pad2(secondOfDay % 60))"
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
