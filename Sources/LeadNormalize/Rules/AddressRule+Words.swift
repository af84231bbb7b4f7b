/// What a word is to the address rule, looked up once per word when the input is cut into
/// tokens (one hash look-up instead of one per table per question).
struct WordInfo {
    struct Flags: OptionSet {
        let rawValue: UInt16
        static let directional = Flags(rawValue: 1 << 0)
        static let highway = Flags(rawValue: 1 << 1)
        static let qualifier = Flags(rawValue: 1 << 2)
        static let mailStop = Flags(rawValue: 1 << 3)
        static let boxWord = Flags(rawValue: 1 << 4)
        static let routeWord = Flags(rawValue: 1 << 5)
        /// A word a box or route phrase can start with (`PO`, `P`, `POST`, `RURAL`, `STAR`…).
        static let boxStart = Flags(rawValue: 1 << 6)
        static let stateCode = Flags(rawValue: 1 << 7)
        static let unitWithoutID = Flags(rawValue: 1 << 8)
        static let commonSuffix = Flags(rawValue: 1 << 9)
        static let hash = Flags(rawValue: 1 << 10)
    }
    var flags: Flags = []
    /// The USPS suffix (`AVENUE` → `AVE`) and unit designator (`SUITE` → `STE`), as places in
    /// `standards` (0: none), so that a token holds no extra strings to retain and release.
    var suffixIndex: UInt16 = 0
    var unitIndex: UInt16 = 0
    var suffix: String? { suffixIndex == 0 ? nil : Self.standards[Int(suffixIndex)] }
    var unit: String? { unitIndex == 0 ? nil : Self.standards[Int(unitIndex)] }

    /// The standard abbreviations, in a fixed order (index 0 unused).
    static let standards: [String] = [""] + Array(Set(USPSTables.suffixes.values).union(USPSTables.units.values)).sorted()

    static let none = WordInfo()

    /// Every word any table knows, with what each table says of it.
    static let table: [String: WordInfo] = {
        var t: [String: WordInfo] = [:]
        var place: [String: UInt16] = [:]
        for (k, s) in standards.enumerated() { place[s] = UInt16(k) }
        func add(_ word: String, _ change: (inout WordInfo) -> Void) { change(&t[word, default: WordInfo()]) }
        for (w, s) in USPSTables.suffixes {
            add(w) {
                $0.suffixIndex = place[s]!
                if USPSTables.commonSuffixes.contains(s) { $0.flags.insert(.commonSuffix) }
            }
        }
        for (w, u) in USPSTables.units {
            add(w) {
                $0.unitIndex = place[u]!
                if USPSTables.unitsWithoutID.contains(u) { $0.flags.insert(.unitWithoutID) }
            }
        }
        for w in USPSTables.directionals.keys { add(w) { $0.flags.insert(.directional) } }
        for w in USPSTables.highwayWords.keys { add(w) { $0.flags.insert(.highway) } }
        for w in USPSTables.highwayQualifiers.keys { add(w) { $0.flags.insert(.qualifier) } }
        for w in USPSTables.mailStops { add(w) { $0.flags.insert(.mailStop) } }
        for w in AddressParser.boxWords { add(w) { $0.flags.formUnion([.boxWord, .boxStart]) } }
        for w in AddressParser.routeWords.keys { add(w) { $0.flags.formUnion([.routeWord, .boxStart]) } }
        for w in ["PO", "P", "POST", "LOCK", "CP", "CASE", "R", "RURAL", "STAR", "HIGHWAY", "HWY", "RD", "ROUTE", "RTE", "RT", "UNIT"] {
            add(w) { $0.flags.insert(.boxStart) }
        }
        add("#") { $0.flags.insert(.hash) }
        for w in StateTable.usCodes.union(StateTable.provinceCodes) { add(w) { $0.flags.insert(.stateCode) } }
        return t
    }()
}

extension AddressToken {
    var suffix: String? { info.suffix }
    var unit: String? { info.unit }
    var isDirectional: Bool { info.flags.contains(.directional) }
    var isHighway: Bool { info.flags.contains(.highway) }
    var isQualifier: Bool { info.flags.contains(.qualifier) }
    var isMailStop: Bool { info.flags.contains(.mailStop) }
    var isBoxWord: Bool { info.flags.contains(.boxWord) }
    var isRouteWord: Bool { info.flags.contains(.routeWord) }
    var isBoxStart: Bool { info.flags.contains(.boxStart) }
    var isStateCode: Bool { info.flags.contains(.stateCode) }
    var isUnitWithoutID: Bool { info.flags.contains(.unitWithoutID) }
    var isCommonSuffix: Bool { info.flags.contains(.commonSuffix) }
    var isHash: Bool { info.flags.contains(.hash) }
}
