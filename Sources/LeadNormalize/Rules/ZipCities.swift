/// US place names by state and by ZIP code, from GeoNames' postal codes (geonames.org, CC BY 4.0),
/// generated into `ZipCityData.swift` by `scripts/make_zip_cities.py`. It tells where the street
/// ends and the city begins when no comma does (`115 Broadway San Francisco CA`), and that
/// `ST LOUIS` is a city, not a suffix and a city.
///
/// The compiled-in text (about 470 kB, one line a place, the lines of a state sorted by name) is
/// indexed on first use, not at start-up, and without a dictionary of names: a name is looked up
/// by bisection in its state's lines, a ZIP code in one sorted array.
enum ZipCities {
    struct Table {
        var bytes: [UInt8] = []
        /// Where each place's line starts in `bytes`, in the text's order.
        var lines: [Int32] = []
        /// Each state's lines (indices into `lines`), by the state's two letters.
        var states: [String: Range<Int>] = [:]
        /// `zip << 32 | line`, sorted.
        var zips: [Int64] = []
    }

    /// Indexed from `text` the first time an address asks (Swift's lazy, thread-safe static).
    static let table: Table = index(text)

    /// The most words in a place's name.
    static var longest: Int { longestName }

    /// A place name as the table keys it: upper case, `-` as a space, and the words lists shorten
    /// in their short form (`St. Louis` and `Saint Louis`, `W Palm Beach` and `West Palm Beach`,
    /// `Fruitland Pk` and `Fruitland Park` are one place). The generator keys the same way
    /// (its SHORT_WORDS is this table).
    static func key<S: Sequence>(_ words: S) -> String where S.Element == String {
        var out: [Substring] = []
        for word in words {
            for part in word.split(whereSeparator: { $0 == "-" || $0 == " " }) {
                out.append(shortWords[part] ?? part)
            }
        }
        return out.joined(separator: " ")
    }

    private static let shortWords: [Substring: Substring] = [
        "SAINT": "ST", "SAINTE": "STE", "FORT": "FT", "MOUNT": "MT", "NORTH": "N", "SOUTH": "S", "EAST": "E",
        "WEST": "W", "PARK": "PK", "HEIGHTS": "HTS", "SPRINGS": "SPGS", "SPRING": "SPG", "LAKE": "LK",
        "BEACH": "BCH", "VILLAGE": "VLG", "CENTER": "CTR", "JUNCTION": "JCT", "POINT": "PT", "FALLS": "FLS",
        "CITY": "CY", "TOWNSHIP": "TWP", "ISLAND": "IS", "HARBOR": "HBR",
    ]

    /// The place (its key) and state a ZIP code (`28659`) is in.
    static func place(zip: String) -> (state: String, key: String)? {
        guard zip.utf8.count == 5, let n = Int64(zip) else { return nil }
        let t = table
        var lo = 0, hi = t.zips.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if t.zips[mid] >> 32 < n { lo = mid + 1 } else { hi = mid }
        }
        guard lo < t.zips.count, t.zips[lo] >> 32 == n else { return nil }
        let line = Int(t.zips[lo] & 0xFFFF_FFFF)
        guard let state = t.states.first(where: { $0.value.contains(line) })?.key else { return nil }
        return (state, String(decoding: t.bytes[name(of: line, in: t)], as: UTF8.self))
    }

    /// Whether `key` names a place in `state`.
    static func isPlace(_ key: String, in state: String) -> Bool {
        let t = table
        guard let range = t.states[state] else { return false }
        let wanted = Array(key.utf8)
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            let name = t.bytes[name(of: mid, in: t)]
            if name.elementsEqual(wanted) { return true }
            if name.lexicographicallyPrecedes(wanted) { lo = mid + 1 } else { hi = mid }
        }
        return false
    }

    /// The bytes of a line's name: up to the space before its first ZIP code.
    private static func name(of line: Int, in t: Table) -> Range<Int> {
        let start = Int(t.lines[line])
        var k = start
        while k < t.bytes.count, !(t.bytes[k] == 0x20 && k + 1 < t.bytes.count && t.bytes[k + 1] >= 0x30 && t.bytes[k + 1] <= 0x39) { k += 1 }
        return start..<k
    }

    private static func index(_ text: String) -> Table {
        var t = Table()
        t.bytes = Array(text.utf8)
        t.lines.reserveCapacity(30_000)
        t.zips.reserveCapacity(42_000)
        let b = t.bytes
        var k = 0
        var state = ""
        var stateStart = 0
        while k < b.count {
            var end = k
            while end < b.count, b[end] != 0x0A { end += 1 }
            if b[k] == UInt8(ascii: "@") {
                if !state.isEmpty { t.states[state] = stateStart..<t.lines.count }
                state = String(decoding: b[(k + 1)..<end], as: UTF8.self)
                stateStart = t.lines.count
            } else {
                let line = Int64(t.lines.count)
                t.lines.append(Int32(k))
                // The ZIP codes: the first word starting with a digit, then base-36 differences.
                var j = k
                while j < end, !(b[j] == 0x20 && j + 1 < end && b[j + 1] >= 0x30 && b[j + 1] <= 0x39) { j += 1 }
                var zip: Int64 = 0, value: Int64 = 0, first = true
                j += 1
                while j <= end {
                    if j == end || b[j] == 0x20 {
                        zip = first ? value : zip + value
                        t.zips.append(zip << 32 | line)
                        first = false
                        value = 0
                    } else {
                        let c = Int64(b[j])
                        let digit = c <= 0x39 ? c - 0x30 : c - 0x61 + 10
                        value = value * (first ? 10 : 36) + digit
                    }
                    j += 1
                }
            }
            k = end + 1
        }
        if !state.isEmpty { t.states[state] = stateStart..<t.lines.count }
        t.zips.sort()
        return t
    }
}
