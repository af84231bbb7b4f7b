import Foundation
import LeadCore

public enum DateOrder: String, Sendable, CaseIterable, Codable {
    case mdy, dmy
}

public struct DateResult: Sendable, Equatable {
    public var input: String
    /// The calendar date, `YYYY-MM-DD`.
    public var iso: String?
    /// The time of day, `HH:MM:SS`, when the text has one (midnight written is `00:00:00`).
    public var time: String?
    public var valid: Bool
    /// True when the text is a real date read month first and read day first, and the two
    /// differ: the date depends on the order, whether or not one was given.
    public var ambiguous: Bool
    public var problem: String?
}

/// Dates as people and spreadsheets write them: ISO 8601 (calendar, week and ordinal dates,
/// basic `20140919` too), `3/1/2024`, `01.03.24`, `1-Mar-2024`, `March 1, 2024`,
/// `Fri, 19 Sep 2014 14:35:00 -0400`, `11th July 1988`, full-width digits, `2014年9月19日`,
/// and Excel serials. A time goes to `time`. A date whose day and month could swap is flagged
/// `ambiguous`; without an order it is not guessed.
public enum DateRule {
    /// `orderOption`: the option that gives the order in the command in use, named when a date
    /// is ambiguous (`import`'s `--date-order`; `normalize date` says `--order`).
    public static func normalize(_ input: String, order: DateOrder?, date1904: Bool = false, orderOption: String = "--date-order") -> DateResult {
        var result = DateResult(input: input, iso: nil, valid: false, ambiguous: false)
        let text = input.trimmed
        if text.isEmpty { return result }
        guard let bytes = asciiBytes(text) else { return refused(result, "not a date") }
        if let serial = excelSerial(bytes, date1904: date1904) {
            (result.iso, result.time) = serial
            if result.iso == "1900-02-29" {
                // Excel's 1900 system counts 1900 as a leap year (as Lotus 1-2-3 did): its serial
                // 60 is a day that never was, most likely a slip, and is not given as a date.
                (result.iso, result.time) = (nil, nil)
                result.problem = "Excel serial 60 is 29 February 1900, a day that never was (Excel counts 1900 as a leap year)"
                return result
            }
            result.valid = result.iso != nil
            if !result.valid { result.problem = "not a real calendar date" }
            return result
        }
        var t = tokens(bytes)
        if let (range, time) = findTime(t) {
            guard let time else { return refused(result, "not a real time of day") }
            result.time = time.text
            t.removeSubrange(range)
        }
        guard let items = dateItems(t) else { return refused(result, "not a date") }
        let reading = read(items)
        switch reading {
        case .none:
            result.time = nil
            return refused(result, "not a date")
        case .some(.date(let y, let m, let d)):
            return dated(result, y, m, d)
        case .some(.either(let a, let b, let y)):
            let monthFirst = isReal(y, a, b), dayFirst = isReal(y, b, a)
            if monthFirst && dayFirst && a != b {
                result.ambiguous = true
                guard let order else {
                    return refused(result, "day and month could be either way round; give \(orderOption) mdy or dmy")
                }
                return order == .mdy ? dated(result, y, a, b) : dated(result, y, b, a)
            }
            if monthFirst { return dated(result, y, a, b) }
            if dayFirst { return dated(result, y, b, a) }
            return refused(result, "not a real calendar date")
        }
    }

    private static func refused(_ r: DateResult, _ problem: String) -> DateResult {
        var r = r
        r.problem = problem
        r.iso = nil
        r.time = nil
        r.valid = false
        return r
    }

    private static func dated(_ r: DateResult, _ y: Int, _ m: Int, _ d: Int) -> DateResult {
        guard isReal(y, m, d) else { return refused(r, "not a real calendar date") }
        var r = r
        r.iso = CivilDate.iso(y, m, d)
        r.valid = true
        return r
    }

    static func isReal(_ y: Int, _ m: Int, _ d: Int) -> Bool {
        (1000...9999).contains(y) && (1...12).contains(m) && d >= 1 && d <= CivilDate.daysInMonth(y, m)
    }

    /// A two-digit year as Excel reads it: 00–29 are 2000–2029, 30–99 are 1930–1999.
    static func fullYear(_ y: Int, digits: Int) -> Int? {
        switch digits {
        case 2: return y < 30 ? 2000 + y : 1900 + y
        case 4: return y
        default: return nil
        }
    }

    /// An Excel serial day number, typed or exported as a number (`45352`, `45352.75`): the
    /// date, and the time when the number has a fraction. Nil when the text is not one.
    private static func excelSerial(_ b: [UInt8], date1904: Bool) -> (String?, String?)? {
        var whole = 0, digits = 0, k = 0
        while k < b.count, b[k] >= 0x30 && b[k] <= 0x39 {
            // Past seven digits it is no serial; a long run of digits overflowed here (a fuzz
            // finding: fixtures/fuzz/date-long-digit-run-overflows-serial.bin).
            if digits < 8 { whole = whole * 10 + Int(b[k] - 0x30) }
            digits += 1
            k += 1
        }
        // Eight digits are a basic ISO date (`20140919`), not a serial.
        guard digits >= 1, digits <= 7, whole >= 1, whole < 2_958_466 else { return nil }
        var time: String?
        if k < b.count {
            guard b[k] == UInt8(ascii: "."), k + 1 < b.count, b[(k + 1)...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let fraction = Double("0" + String(decoding: b[k...], as: UTF8.self)) else { return nil }
            let seconds = min(Int((fraction * 86_400).rounded()), 86_399)
            if seconds > 0 { time = TimeOfDay(hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60).text }
        }
        return (CivilDate.excelSerial(whole, date1904: date1904), time)
    }
}
