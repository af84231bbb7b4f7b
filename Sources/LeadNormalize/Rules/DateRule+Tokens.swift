/// The pieces of a written date: numbers, words and separators, read from ASCII bytes.
extension DateRule {
    enum Token: Equatable {
        /// A run of digits: its value (nil when too long to hold) and how many digits.
        case number(Int, digits: Int)
        /// A run of letters, lower case, packed into a `WordKey`.
        case word(WordKey)
        /// Any other byte (`/`, `-`, `.`, `,`, `:`, `+`, a space, brackets).
        case mark(UInt8)
    }

    /// Up to 12 ASCII letters, case folded, packed five bits each into one integer, so that
    /// words are looked up without building strings. Longer words get a key no table holds.
    struct WordKey: Hashable {
        var bits: UInt64

        init(_ word: some Collection<UInt8>) {
            guard word.count <= 12 else { bits = .max; return }
            var v: UInt64 = 0
            for b in word { v = v << 5 | UInt64((b | 0x20) &- 0x60) }
            bits = v
        }

        init(_ text: String) { self.init(Array(text.utf8)) }
    }

    /// The text as plain ASCII: full-width forms (U+FF01–U+FF5E) become their ASCII letters,
    /// digits and marks, the ideographic and no-break spaces a space, and the CJK date marks
    /// 年 and 月 a `-` and 日 a space (`2014年9月19日`). Nil when any other non-ASCII remains.
    static func asciiBytes(_ text: String) -> [UInt8]? {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) { return Array(utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0..<0x80: out.append(UInt8(v))
            case 0xFF01...0xFF5E: out.append(UInt8(v - 0xFF01 + 0x21))
            case 0x3000, 0x00A0, 0x202F, 0x2009: out.append(0x20)
            case 0x5E74, 0x6708: out.append(UInt8(ascii: "-"))  // 年 月
            case 0x65E5: out.append(0x20)  // 日
            default: return nil
            }
        }
        return out
    }

    /// Splits ASCII bytes into tokens; spaces separate but are kept as one `mark(0x20)`.
    static func tokens(_ b: [UInt8]) -> [Token] {
        var out: [Token] = []
        out.reserveCapacity(12)
        var i = 0
        while i < b.count {
            let c = b[i]
            if c >= 0x30 && c <= 0x39 {
                var value = 0, n = 0
                while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                    if n < 18 { value = value * 10 + Int(b[i] - 0x30) }
                    n += 1
                    i += 1
                }
                out.append(.number(n < 18 ? value : -1, digits: n))
            } else if isLetter(c) {
                let start = i
                while i < b.count, isLetter(b[i]) { i += 1 }
                out.append(.word(WordKey(b[start..<i])))
            } else {
                if c == 0x20 || c == 0x09 {
                    while i + 1 < b.count, b[i + 1] == 0x20 || b[i + 1] == 0x09 { i += 1 }
                    out.append(.mark(0x20))
                } else {
                    out.append(.mark(c))
                }
                i += 1
            }
        }
        return out
    }

    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// English month names and their abbreviations (`sept` too), 1-based.
    static let monthWords: [WordKey: Int] = {
        let names = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        var table: [WordKey: Int] = [:]
        for (k, name) in names.enumerated() {
            table[WordKey(name)] = k + 1
            table[WordKey(String(name.prefix(3)))] = k + 1
        }
        table[WordKey("sept")] = 9
        return table
    }()

    static let weekdayWords: Set<WordKey> = Set([
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mon", "tue", "tues", "wed", "weds", "thu", "thur", "thurs", "fri", "sat", "sun",
    ].map(WordKey.init))

    /// Written after a time: zone names that are dropped (the date is the one written).
    static let zoneWords: Set<WordKey> = Set([
        "z", "utc", "gmt", "ut", "est", "edt", "cst", "cdt", "mst", "mdt", "pst", "pdt", "akst", "akdt",
        "hst", "ast", "adt", "bst", "cet", "cest", "eet", "eest", "wet", "west", "ist", "jst", "aest", "aedt",
    ].map(WordKey.init))

    static let ordinalWords: Set<WordKey> = Set(["st", "nd", "rd", "th"].map(WordKey.init))
    static let fillerWords: Set<WordKey> = Set(["of", "the", "at", "on"].map(WordKey.init))
    static let wordT = WordKey("t"), wordW = WordKey("w"), wordAM = WordKey("am"), wordPM = WordKey("pm")
    static let wordA = WordKey("a"), wordP = WordKey("p"), wordM = WordKey("m")
}
