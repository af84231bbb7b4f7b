import LeadCore

/// Post office boxes (Publication 28 §28), rural routes (§24), highway contract routes (§25)
/// and military PSC/CMR/UNIT boxes (§225).
struct BoxPhrase {
    /// The route (`RR`, `HC`, `PSC`…) and its number's index, or nil for a PO box.
    var route: (words: Range<Int>, number: Int)?
    /// The box number's index, if there is one (`RR 2` has none).
    var id: Int?
    /// The index after the phrase.
    var end: Int
}

extension AddressParser {
    /// A box or route phrase starting at `i`: `PO Box 12`, `P O Box 12`, `P.O.B. 12`, `POB 12`,
    /// `Post Office Box 12`, `Box 12`, `Drawer 12`, (Canada) `CP 12`, `Case Postale 12`;
    /// `RR 2 Box 348`, `Rural Route 2`, `RFD 2`, `HC 284 Box 27`, `Star Route 3 Box 5`,
    /// `Highway Contract 3`, `PSC 802 Box 74`, `Unit 2050 Box 4190`.
    func boxPhrase(_ tokens: [AddressToken], at i: Int) -> BoxPhrase? {
        guard tokens[i].isBoxStart else { return nil }
        let n = tokens.count
        let segment = tokens[i].segment
        func key(_ j: Int) -> String? { j < n && tokens[j].segment == segment ? tokens[j].key : nil }
        /// The id at `j` (after an optional `#`), and the index after it.
        func id(at j: Int, needsDigit: Bool) -> (Int, Int)? {
            var j = j
            if j < n, tokens[j].isHash { j += 1 }
            guard key(j) != nil, !needsDigit || tokens[j].hasDigit, !tokens[j].isHash else { return nil }
            return (j, j + 1)
        }
        // Post office boxes.
        var words = 0
        var needsDigit = false
        switch tokens[i].key {
        case "PO":
            words = key(i + 1) == "BOX" || key(i + 1) == "BX" || key(i + 1) == "DRAWER" ? 2 : 1
            needsDigit = words == 1
        case "POB", "POBOX": words = 1
        case "P" where key(i + 1) == "O": words = key(i + 2) == "BOX" || key(i + 2) == "B" ? 3 : 2
        case "POST" where key(i + 1) == "OFFICE" && (key(i + 2) == "BOX" || key(i + 2) == "DRAWER"): words = 3
        case "BOX", "BX", "DRAWER", "LOCKBOX":
            words = 1
            needsDigit = true
        case "LOCK" where key(i + 1) == "BOX":
            words = 2
            needsDigit = true
        case "CP" where isCanadian:
            words = 1
            needsDigit = true
        case "CASE" where key(i + 1) == "POSTALE": words = 2
        default: break
        }
        if words > 0 {
            guard let (idIndex, end) = id(at: i + words, needsDigit: needsDigit) else { return nil }
            return BoxPhrase(route: nil, id: idIndex, end: end)
        }
        // Routes.
        var boxRequired = false
        switch tokens[i].key {
        case "HC", "HCR": words = ["ROUTE", "RTE", "RT"].contains(key(i + 1) ?? "") ? 2 : 1
        case "RR", "RFD", "PSC", "CMR": words = 1
        case "R" where key(i + 1) == "R": words = 2
        case "RURAL" where ["ROUTE", "RTE", "RT"].contains(key(i + 1) ?? ""): words = 2
        case "STAR" where ["ROUTE", "RTE", "RT"].contains(key(i + 1) ?? ""): words = 2
        case "HIGHWAY" where key(i + 1) == "CONTRACT", "HWY" where key(i + 1) == "CONTRACT":
            words = ["ROUTE", "RTE", "RT"].contains(key(i + 2) ?? "") ? 3 : 2
        case "RD", "ROUTE", "RTE", "RT", "UNIT":
            words = 1
            boxRequired = true
        default: return nil
        }
        guard let (number, afterNumber) = id(at: i + words, needsDigit: true) else { return nil }
        var boxID: Int?
        var end = afterNumber
        if let k = key(afterNumber), tokens[afterNumber].isBoxWord || k == "PO" {
            let skip = k == "PO" && key(afterNumber + 1) == "BOX" ? 2 : 1
            if let (b, e) = id(at: afterNumber + skip, needsDigit: false) {
                boxID = b
                end = e
            }
        }
        if boxRequired && boxID == nil { return nil }
        return BoxPhrase(route: (i..<(i + words), number), id: boxID, end: end)
    }

    /// A box with a lockbox, drawer, file or bin number beside it (Publication 28 §28 keeps only the
    /// PO box as the box): `Lockbox 9351 PO Box 8500`, `Drawer 368 PO Box 11407`, `PO Box 60000
    /// File 73484`. The other number is the unit; returns the words after both.
    mutating func takeBoxWithNumbers(_ t: [AddressToken], _ box: BoxPhrase) -> [AddressToken] {
        var t = t, box = box
        let noUnit = address.unitType == nil && address.unitID == nil
        if noUnit, box.route == nil, let id = box.id, box.end < t.count, Self.poBoxWords.contains(t[box.end].key),
           let second = boxPhrase(Array(t[box.end...]), at: 0), second.route == nil {
            address.unitType = AddressRule.joined(t[..<id].filter { !$0.isHash })
            address.unitID = t[id].text
            t = Array(t[box.end...])
            box = second
        }
        var tail = takeBox(t, box)
        if noUnit, address.unitID == nil, let first = tail.first, Self.boxSideUnits.contains(first.key) || first.isBoxWord,
           let end = unitRun(tail[...], at: 0, designator: true) {
            takeUnit(tail[..<end])
            tail.removeFirst(end)
        }
        return tail
    }

    /// Words a PO box starts with (not `Box`, `Drawer` or `Lockbox` alone).
    static let poBoxWords: Set<String> = ["PO", "P", "POB", "POBOX", "POST"]

    /// Stores the box (and route) and returns the words after it; a Canadian station after a
    /// box (`STN A`, `SUCC Centre-ville`, `RPO Main`) is kept in `unparsed`.
    mutating func takeBox(_ tokens: [AddressToken], _ box: BoxPhrase) -> [AddressToken] {
        if let id = box.id { address.poBoxID = tokens[id].text }
        if let route = box.route {
            address.streetName = AddressRule.joined(tokens[route.words.lowerBound...route.number].filter { !$0.isHash })
        }
        var tail = Array(tokens[box.end...])
        if let first = tail.first, ["STN", "STATION", "SUCC", "SUCCURSALE", "RPO", "CSP"].contains(first.key), tail.count >= 2 {
            // A station's name is one word, or `Main`/`Centre-ville`; the rest is the city.
            leftover += tail.prefix(2)
            tail.removeFirst(2)
        }
        return tail
    }
}
