/// The time of day written with a date: `14:35`, `2:35 PM`, `T14:35:00.250Z`, `14:35:00 -0400`,
/// compact `T143500`. The zone is read past and dropped: the date and time are the ones written.
extension DateRule {
    struct TimeOfDay: Equatable {
        var hour: Int, minute: Int, second: Int

        /// `HH:MM:SS`.
        var text: String {
            let bytes: [UInt8] = [two(hour).0, two(hour).1, 0x3A, two(minute).0, two(minute).1, 0x3A, two(second).0, two(second).1]
            return String(decoding: bytes, as: UTF8.self)
        }

        private func two(_ v: Int) -> (UInt8, UInt8) { (UInt8(0x30 + v / 10), UInt8(0x30 + v % 10)) }
    }

    /// Where a time is among the tokens and what it reads as (nil: a time that is not a real
    /// one, such as `25:10` or `13:00 PM`), or nil when the text has no time.
    static func findTime(_ t: [Token]) -> (range: Range<Int>, time: TimeOfDay?)? {
        for i in t.indices {
            guard case .number(let h, let hd) = t[i] else { continue }
            var end = i + 1
            var hour = h, minute = 0, second = 0
            if hd <= 2, end + 1 < t.count, t[end] == .mark(0x3A), case .number(let m, 2) = t[end + 1] {
                minute = m
                end += 2
                if end + 1 < t.count, t[end] == .mark(0x3A), case .number(let s, 2) = t[end + 1] {
                    second = s
                    end += 2
                    // A fraction of a second is dropped.
                    if end + 1 < t.count, t[end] == .mark(0x2E) || t[end] == .mark(0x2C), case .number = t[end + 1] { end += 2 }
                }
            } else if i > 0, t[i - 1] == .word(wordT), hd == 4 || hd == 6, i > 1, case .number(_, 8) = t[i - 2] {
                // `20140919T1435[00]`
                hour = hd == 4 ? h / 100 : h / 10_000
                minute = hd == 4 ? h % 100 : h / 100 % 100
                second = hd == 4 ? 0 : h % 100
            } else if hd <= 2, let (_, after) = meridiem(t, from: i + 1) {
                // `2 PM`: the hour alone is a time only with its AM or PM.
                end = after
            } else {
                continue
            }
            var start = i
            if start > 0, t[start - 1] == .word(wordT) { start -= 1 }
            var valid = minute < 60 && second < 60
            if let (pm, after) = meridiem(t, from: end) {
                end = after
                valid = valid && hour >= 1 && hour <= 12
                hour = hour % 12 + (pm ? 12 : 0)
            } else {
                valid = valid && hour < 24
            }
            end = zoneEnd(t, from: end)
            return (start..<end, valid ? TimeOfDay(hour: hour, minute: minute, second: second) : nil)
        }
        return nil
    }

    /// `AM`, `PM`, `a.m.`, `p.m.` (any case) from `k` on, spaces first allowed: (is PM, the
    /// index after it).
    private static func meridiem(_ t: [Token], from k0: Int) -> (Bool, Int)? {
        var k = k0
        while k < t.count, t[k] == .mark(0x20) { k += 1 }
        guard k < t.count, case .word(let w) = t[k] else { return nil }
        if w == wordAM || w == wordPM { return (w == wordPM, k + 1) }
        guard w == wordA || w == wordP else { return nil }
        var j = k + 1
        if j < t.count, t[j] == .mark(0x2E) { j += 1 }
        guard j < t.count, t[j] == .word(wordM) else { return nil }
        j += 1
        if j < t.count, t[j] == .mark(0x2E) { j += 1 }
        return (w == wordP, j)
    }

    /// The index after a zone written after the time (`Z`, `UTC`, `(PDT)`, `+02:00`, `-0400`,
    /// `GMT+2`), or `k0` when there is none.
    private static func zoneEnd(_ t: [Token], from k0: Int) -> Int {
        var k = k0
        while k < t.count, t[k] == .mark(0x20) { k += 1 }
        var found = false
        if k < t.count, t[k] == .mark(0x28), k + 2 < t.count, case .word(let w) = t[k + 1], zoneWords.contains(w), t[k + 2] == .mark(0x29) {
            return k + 3
        }
        if k < t.count, case .word(let w) = t[k], zoneWords.contains(w) {
            k += 1
            found = true
        }
        if k + 1 < t.count, t[k] == .mark(0x2B) || t[k] == .mark(0x2D), case .number(_, let digits) = t[k + 1], digits <= 4 {
            k += 2
            if digits <= 2, k + 1 < t.count, t[k] == .mark(0x3A), case .number(_, 2) = t[k + 1] { k += 2 }
            found = true
        }
        return found ? k : k0
    }
}
