import LeadCore

/// From the date's tokens (the time taken out) to year, month and day.
extension DateRule {
    /// A number or a month name, in the order written.
    struct Item {
        var value: Int
        var digits: Int
        var isMonthName = false
        var week = false
    }

    enum Reading: Equatable {
        case date(Int, Int, Int)
        /// Two numbers that are month and day one way round or the other, and the year.
        case either(Int, Int, year: Int)
    }

    /// The numbers and month names, past weekdays, ordinal endings (`11th`), `of` and `the`,
    /// and the separators `/ - . ,` and spaces. Nil when anything else is there.
    static func dateItems(_ t: [Token]) -> [Item]? {
        var items: [Item] = []
        items.reserveCapacity(3)
        var previousWasNumber = false
        for token in t {
            switch token {
            case .number(let v, let digits):
                guard v >= 0, items.count < 4 else { return nil }
                items.append(Item(value: v, digits: digits))
                previousWasNumber = true
                continue
            case .word(let w):
                if let month = monthWords[w] {
                    items.append(Item(value: month, digits: 0, isMonthName: true))
                } else if previousWasNumber, ordinalWords.contains(w), items.last?.digits ?? 0 <= 2 {
                    // `11th`: the ending goes with the number before it.
                } else if w == wordW, items.count == 1 {
                    items.append(Item(value: 0, digits: 0, week: true))
                } else if !weekdayWords.contains(w) && !fillerWords.contains(w) {
                    return nil
                }
            case .mark(let c):
                guard c == 0x2F || c == 0x2D || c == 0x2E || c == 0x2C || c == 0x20 else { return nil }
            }
            previousWasNumber = false
        }
        return items
    }

    static func read(_ items: [Item]) -> Reading? {
        let names = items.filter(\.isMonthName).count
        if items.contains(where: \.week) { return weekDate(items) }
        switch (items.count, names) {
        case (1, 0) where items[0].digits == 8:
            // Basic ISO 8601, `yyyymmdd`.
            let v = items[0].value
            return .date(v / 10_000, v / 100 % 100, v % 100)
        case (2, 0) where items[0].digits == 4 && items[1].digits == 3:
            // ISO 8601 ordinal date, `2014-262`.
            return ordinalDate(items[0].value, items[1].value)
        case (3, 1):
            let numbers = items.filter { !$0.isMonthName }
            let month = items.first(where: \.isMonthName)!.value
            // `2014 Sep 19` / `2014-Sep-19` put the year first; otherwise the day comes first.
            let (year, day) = numbers[0].digits == 4 ? (numbers[0], numbers[1]) : (numbers[1], numbers[0])
            guard day.digits <= 2, let y = fullYear(year.value, digits: year.digits) else { return nil }
            return .date(y, month, day.value)
        case (3, 0):
            let (a, b, c) = (items[0], items[1], items[2])
            if a.digits == 4 {
                guard b.digits <= 2, c.digits <= 2 else { return nil }
                return .date(a.value, b.value, c.value)
            }
            guard a.digits <= 2, b.digits <= 2, let y = fullYear(c.value, digits: c.digits) else { return nil }
            return .either(a.value, b.value, year: y)
        default:
            return nil
        }
    }

    /// ISO 8601 week date, `2014-W38-5` or `2014W385`: the day of week 1 (Monday) to 7 of
    /// week 1 to 52 or 53, week 1 being the one with the year's first Thursday.
    private static func weekDate(_ items: [Item]) -> Reading? {
        guard items.count >= 3, items[0].digits == 4, items[1].week else { return nil }
        var week = 0, weekday = 0
        if items.count == 3, items[2].digits == 3 {
            (week, weekday) = (items[2].value / 10, items[2].value % 10)
        } else if items.count == 4, items[2].digits == 2, items[3].digits == 1 {
            (week, weekday) = (items[2].value, items[3].value)
        } else {
            return nil
        }
        let year = items[0].value
        guard (1...7).contains(weekday), week >= 1, week <= weeksIn(year) else { return nil }
        let (y, m, d) = CivilDate.fromDays(mondayOfWeekOne(year) + (week - 1) * 7 + weekday - 1)
        return .date(y, m, d)
    }

    /// Days since 1970-01-01 of the Monday starting ISO week 1.
    private static func mondayOfWeekOne(_ year: Int) -> Int {
        let jan4 = CivilDate.days(year, 1, 4)
        let weekday = ((jan4 + 3) % 7 + 7) % 7  // 0 = Monday (1970-01-01 was a Thursday)
        return jan4 - weekday
    }

    private static func weeksIn(_ year: Int) -> Int { (mondayOfWeekOne(year + 1) - mondayOfWeekOne(year)) / 7 }

    private static func ordinalDate(_ year: Int, _ day: Int) -> Reading? {
        let length = CivilDate.daysInMonth(year, 2) == 29 ? 366 : 365
        guard day >= 1, day <= length, (1000...9999).contains(year) else { return nil }
        let (y, m, d) = CivilDate.fromDays(CivilDate.days(year, 1, 1) + day - 1)
        return .date(y, m, d)
    }
}
