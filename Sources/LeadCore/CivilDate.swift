/// Calendar arithmetic without Foundation: days since 1970-01-01 to and from
/// year-month-day (Howard Hinnant's algorithms), and Excel's serial dates.
public enum CivilDate {
    /// `YYYY-MM-DD` for a whole-day Excel serial. In the 1900 system serial 60 is Excel's
    /// fictitious 1900-02-29 and serials below it are one day off from a real calendar.
    public static func excelSerial(_ serialDays: Int, date1904: Bool) -> String? {
        let daysFromEpoch: Int
        if date1904 {
            daysFromEpoch = serialDays - 24_107  // 1904-01-01 is serial 0
        } else if serialDays == 60 {
            return "1900-02-29"
        } else if serialDays < 60 {
            daysFromEpoch = serialDays - 25_568  // serial 1 is 1900-01-01
        } else {
            daysFromEpoch = serialDays - 25_569  // 1899-12-30 is serial 0
        }
        let (y, m, d) = fromDays(daysFromEpoch)
        guard y >= 1 && y <= 9999 else { return nil }
        return iso(y, m, d)
    }

    /// Days since 1970-01-01 → (year, month, day).
    public static func fromDays(_ z0: Int) -> (Int, Int, Int) {
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

    /// (year, month, day) → days since 1970-01-01; the inverse of `fromDays`.
    public static func days(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The 1900-system Excel serial of a real date from 1900-03-01 on, or of an ISO
    /// `YYYY-MM-DD` string; nil for text that is not one, or a date Excel cannot show.
    public static func excelSerial(iso text: String) -> Int? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func number(_ r: Range<Int>) -> Int? {
            var n = 0
            for k in r {
                guard b[k] >= 48 && b[k] <= 57 else { return nil }
                n = n * 10 + Int(b[k] - 48)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
              (1...12).contains(m), d >= 1, d <= daysInMonth(y, m) else { return nil }
        let serial = days(y, m, d) + 25_569
        return serial >= 61 ? serial : nil
    }

    public static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD`, zero-padded.
    public static func iso(_ y: Int, _ m: Int, _ d: Int) -> String {
        let year = "\(y)"
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + pad2(m) + "-" + pad2(d)
    }

    static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
