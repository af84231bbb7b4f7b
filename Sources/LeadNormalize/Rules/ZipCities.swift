/// US place names by state and by ZIP code, from GeoNames' postal codes (geonames.org, CC BY 4.0),
/// generated into `ZipCityData.swift` by `scripts/make_zip_cities.py`. It tells where the street
/// ends and the city begins when no comma does (`115 Broadway San Francisco CA`), and that
/// `ST LOUIS` is a city, not a suffix and a city.
///
/// The compiled-in text (about 480 kB, one entry a ZIP code) is read on first use, not at
/// start-up: a run that parses no address pays nothing.
enum ZipCities {
    struct Table {
        /// Place keys (see `key(_:)`) by state code.
        var places: [String: Set<String>] = [:]
        /// ZIP code → index into `zipPlaces`.
        var zips: [Int32: Int32] = [:]
        var zipPlaces: [(state: String, key: String)] = []
        /// The most words in a place name.
        var longest = 1
    }

    /// Read from `text` the first time an address asks (Swift's lazy, thread-safe static).
    static let table: Table = read(text)

    /// A place name as the tables key it: upper case, `-` as a space, and the words lists
    /// shorten in their short form (`St. Louis` and `Saint Louis`, `W Palm Beach` and `West Palm
    /// Beach`, `Fruitland Pk` and `Fruitland Park` are one place).
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

    /// The place and state a ZIP code (`28659`) is in.
    static func place(zip: String) -> (state: String, key: String)? {
        guard zip.utf8.count == 5, let n = Int32(zip), let i = table.zips[n] else { return nil }
        return table.zipPlaces[Int(i)]
    }

    /// Whether `key` names a place in `state`.
    static func isPlace(_ key: String, in state: String) -> Bool {
        table.places[state]?.contains(key) ?? false
    }

    private static func read(_ text: String) -> Table {
        var t = Table()
        var state = ""
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            if line.first == UInt8(ascii: "@") {
                state = String(decoding: line.dropFirst(), as: UTF8.self)
                continue
            }
            // The name runs to the first word that starts with a digit (the first ZIP code).
            let words = line.split(separator: UInt8(ascii: " "))
            let nameCount = words.firstIndex { $0.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false } ?? words.count
            let key = Self.key(words[..<nameCount].map { String(decoding: $0, as: UTF8.self) })
            t.longest = max(t.longest, key.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: " ") ? 1 : 0) })
            t.places[state, default: []].insert(key)
            let index = Int32(t.zipPlaces.count)
            t.zipPlaces.append((state, key))
            var zip: Int32 = 0
            for (k, word) in words[nameCount...].enumerated() {
                let value = Int32(String(decoding: word, as: UTF8.self), radix: k == 0 ? 10 : 36) ?? 0
                zip = k == 0 ? value : zip + value
                t.zips[zip] = index
            }
        }
        return t
    }
}
