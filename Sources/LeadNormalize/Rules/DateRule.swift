import Foundation
import LeadCore

public enum DateOrder: String, Sendable, CaseIterable, Codable {
    case mdy, dmy
}

public struct DateResult: Sendable, Equatable {
    public var input: String
    /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` when the input had a time.
    public var iso: String?
    public var valid: Bool
    /// True when day and month could be either way round and no order was given.
    public var ambiguous: Bool
    public var problem: String?
}

/// Dates as people and spreadsheets write them: ISO, `3/1/2024`, `01.03.24`, `1-Mar-2024`,
/// `March 1, 2024`, and Excel serials. A date whose day and month could swap is flagged when
/// no order is given, never guessed.
public enum DateRule {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    public static func normalize(_ input: String, order: DateOrder?, date1904: Bool = false) -> DateResult {
        var result = DateResult(input: input, iso: nil, valid: false, ambiguous: false)
        let t = input.trimmed
        if t.isEmpty { return result }
        // ISO, with or without a time (what `leadport cat` gives for workbook dates).
        if let iso = isoDate(t) {
            result.iso = iso
            result.valid = true
            return result
        }
        // An Excel serial typed or exported as a number.
        if t.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }), let serial = Double(t), serial >= 1, serial < 2_958_466 {
            result.iso = CivilDate.excelSerial(Int(serial.rounded(.down)), date1904: date1904)
            result.valid = result.iso != nil
            return result
        }
        // The separators are ASCII, so the text is split on its bytes.
        let pieces = Array(t.utf8).split(whereSeparator: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == 0x20 || $0 == UInt8(ascii: ",") })
        guard pieces.count == 3 else {
            result.problem = "not a date"
            return result
        }
        let parts = pieces.map(Part.init)
        var numbers = parts.map(\.number)
        var monthName: Int?
        for (k, part) in parts.enumerated() where numbers[k] == nil {
            guard let m = part.month else { result.problem = "not a date"; return result }
            monthName = k
            numbers[k] = m + 1
        }
        let n = numbers.map { $0! }
        var y = 0, m = 0, d = 0
        if let k = monthName {
            m = n[k]
            let others = (0..<3).filter { $0 != k }.map { n[$0] }
            if parts[0].length == 4 { y = n[0]; d = others[1] }  // 2024-Mar-01
            else if k == 0 { d = others[0]; y = others[1] }     // Mar 1 2024
            else { d = others[0]; y = others[1] }               // 1 Mar 2024
        } else if parts[0].length == 4 {
            (y, m, d) = (n[0], n[1], n[2])
        } else {
            y = n[2]
            let (a, b) = (n[0], n[1])
            if a > 12 && b <= 12 { (d, m) = (a, b) }
            else if b > 12 && a <= 12 { (m, d) = (a, b) }
            else if a == b { (m, d) = (a, b) }
            else if let order { (m, d) = order == .mdy ? (a, b) : (b, a) }
            else {
                result.ambiguous = true
                result.problem = "day and month could be either way round; give --date-order mdy or dmy"
                return result
            }
        }
        if y < 100 { y += y < 50 ? 2000 : 1900 }
        guard (1...12).contains(m), d >= 1, d <= CivilDate.daysInMonth(y, m), (1000...9999).contains(y) else {
            result.problem = "not a real calendar date"
            return result
        }
        result.iso = CivilDate.iso(y, m, d)
        result.valid = true
        return result
    }

    /// One of a date's three parts: its number, or else the month its name starts with
    /// (0-based), and its length in Characters.
    private struct Part {
        var number: Int?
        var month: Int?
        var length: Int

        init(_ bytes: ArraySlice<UInt8>) {
            // Printable ASCII (the usual case) is read on the bytes; anything else as text,
            // where Characters and Unicode lower case decide.
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                let text = String(decoding: bytes, as: UTF8.self).lowercased()
                number = Int(text)
                month = number == nil ? DateRule.months.firstIndex(where: { text.hasPrefix($0) }) : nil
                length = text.count
                return
            }
            length = bytes.count
            number = Self.integer(bytes)
            if number == nil {
                month = DateRule.months.firstIndex { name in
                    bytes.count >= name.utf8.count && zip(bytes, name.utf8).allSatisfy { $0 | 0x20 == $1 }
                }
            }
        }

        /// What `Int(text)` gives for ASCII text: an optional `+` or `-`, then digits, in range.
        private static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
            var digits = bytes[...]
            var negative = false
            if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negative = sign == UInt8(ascii: "-")
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty else { return nil }
            var value = 0
            for b in digits {
                guard b >= 0x30 && b <= 0x39 else { return nil }
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = negative ? times.subtractingReportingOverflow(Int(b - 0x30)) : times.addingReportingOverflow(Int(b - 0x30))
                if o1 || o2 { return nil }
                value = sum
            }
            return value
        }
    }

    private static func isoDate(_ t: String) -> String? {
        let b = Array(t.utf8)
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = Int(String(decoding: b[0..<4], as: UTF8.self)), let m = Int(String(decoding: b[5..<7], as: UTF8.self)),
              let d = Int(String(decoding: b[8..<10], as: UTF8.self)), (1...12).contains(m), d >= 1, d <= CivilDate.daysInMonth(y, m) else { return nil }
        if b.count == 10 { return t }
        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " ") else { return nil }
        return CivilDate.iso(y, m, d) + "T" + String(decoding: b[11...], as: UTF8.self)
    }
}
