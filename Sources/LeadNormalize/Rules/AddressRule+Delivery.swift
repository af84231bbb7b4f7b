import LeadCore

/// The delivery line: where it starts, its box or house number, and its units.
extension AddressParser {
    /// Where the delivery line starts: the first house number or box. A number inside a name
    /// (`Studio 54 LLC, 123 Main St`) gives way to a later one that starts a comma segment
    /// when nothing street-like follows it.
    func anchorIndex(_ tokens: [AddressToken]) -> Int? {
        var fallback: Int?
        for i in tokens.indices where isAnchor(tokens, at: i) {
            let startsSegment = i == 0 || tokens[i - 1].segment != tokens[i].segment
            if fallback != nil {
                if startsSegment { return i }
                continue
            }
            if startsSegment || boxPhrase(tokens, at: i) != nil { return i }
            let segment = tokens[i].segment
            let streetFollows = tokens[(i + 1)...].prefix { $0.segment == segment }.contains {
                $0.suffix != nil || $0.isHighway || ($0.unit != nil)
            }
            if streetFollows { return i }
            fallback = i
        }
        return fallback
    }

    private func isAnchor(_ tokens: [AddressToken], at i: Int) -> Bool {
        if isHouseNumber(tokens[i]) && !numberBelongsToWord(tokens, at: i) { return true }
        if isSpelledHouseNumber(tokens, at: i) { return true }
        return boxPhrase(tokens, at: i) != nil
    }

    /// `123`, `123A`, `112-10` (Queens), `N89W16785` (Wisconsin grid), `123½`; not an
    /// ordinal (`5th`) nor a fraction alone (`1/2`).
    func isHouseNumber(_ t: AddressToken) -> Bool {
        let u = t.key.utf8
        guard let f = u.first, u.count <= 12 else { return false }
        if t.isAllDigits { return true }
        if AddressToken.isDigit(f) {
            let rest = u.drop(while: AddressToken.isDigit)
            if rest.first == UInt8(ascii: "-") { return rest.count >= 2 && rest.dropFirst().allSatisfy { AddressToken.isDigit($0) || AddressToken.isLetter($0) } }
            if rest.count == 1 && AddressToken.isLetter(rest.first!) { return true }
            return t.key.hasSuffix("½") || t.key.hasSuffix("¼") || t.key.hasSuffix("¾")
        }
        guard t.hasDigit, f == UInt8(ascii: "N") || f == UInt8(ascii: "S") || f == UInt8(ascii: "E") || f == UInt8(ascii: "W") else { return false }
        let g = Array(u)
        // Grid: N89W16785, W156N8480.
        func isDirection(_ b: UInt8) -> Bool { b == UInt8(ascii: "N") || b == UInt8(ascii: "S") || b == UInt8(ascii: "E") || b == UInt8(ascii: "W") }
        guard g.count >= 4 else { return false }
        let firstDigits = g.dropFirst().prefix(while: AddressToken.isDigit).count
        guard firstDigits > 0, 1 + firstDigits < g.count, isDirection(g[1 + firstDigits]) else { return false }
        let tail = g[(2 + firstDigits)...]
        return !tail.isEmpty && tail.allSatisfy(AddressToken.isDigit)
    }

    /// Whether the number at `i` is the id of the word before it (`Apt 4`, `Box 12`, `RR 2`,
    /// `Hwy 50`, `County Road 12`, `# 4`); a ZIP-shaped number after a state code is not
    /// (`FL 32801`, `MS 39201`).
    func numberBelongsToWord(_ tokens: [AddressToken], at i: Int) -> Bool {
        guard i > 0, tokens[i - 1].segment == tokens[i].segment else { return false }
        let word = tokens[i - 1]
        let previous = word.key
        let digits = tokens[i].key.utf8.lazy.filter(AddressToken.isDigit).count
        if (digits == 5 || digits == 9) && word.isStateCode { return false }
        if word.isHash || word.isMailStop || word.isHighway { return true }
        if word.unit != nil && !word.isUnitWithoutID { return true }
        if word.isBoxWord || word.isRouteWord { return true }
        if previous == "ROAD" || previous == "RD", i >= 2, tokens[i - 2].isQualifier { return true }
        if previous == "NO", i >= 2, tokens[i - 2].isHighway { return true }
        if Self.boxSideUnits.contains(previous) { return true }
        if isCanadian && (previous == "CP" || previous == "POSTALE") { return true }
        return false
    }

    static let boxWords: Set<String> = ["BOX", "BX", "POB", "POBOX", "DRAWER", "LOCKBOX"]
    /// Floors written as words (`Second Floor`, `Ground Floor`).
    static let floorWords: Set<String> = [
        "GROUND", "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH", "TENTH",
    ]
    /// Words that number a file or bin at a box (`File 74155 PO Box 60000`), written before it: a unit.
    static let boxSideUnits: Set<String> = ["FILE", "BIN", "MSC"]
    /// Route designators (Publication 28 §24–25, and military PSC/CMR units) with their USPS form.
    static let routeWords: [String: String] = ["RR": "RR", "RFD": "RR", "HC": "HC", "HCR": "HC", "PSC": "PSC", "CMR": "CMR"]

    /// A unit starting at `k`: `Apt 4`, `Ste. #305`, `# 4`, `5th Floor`; with `bare`, also a
    /// designator that takes no id (`Rear`, `Bsmt`). Returns the index after it.
    func unitRun(_ tokens: ArraySlice<AddressToken>, at k: Int, bare: Bool = false, designator: Bool = false) -> Int? {
        let t = tokens[k]
        let end = tokens.endIndex
        func idAt(_ j: Int) -> Bool {
            guard j < end, tokens[j].segment == t.segment else { return false }
            let id = tokens[j]
            return id.hasDigit || (id.key.utf8.count <= 2 && id.key.utf8.allSatisfy(AddressToken.isLetter) && id.suffix == nil)
        }
        if t.isHash {
            guard k + 1 < end, tokens[k + 1].segment == t.segment else { return nil }
            // `# APT 2`: the hash before a designator is the designator's.
            if tokens[k + 1].unit != nil, let run = unitRun(tokens, at: k + 1, bare: bare) { return run }
            return k + 2
        }
        if t.unit != nil || designator {
            var j = k + 1
            // `Apt #4`, `Apt. No. 5`.
            if j < end, tokens[j].isHash || tokens[j].key == "NO", tokens[j].segment == t.segment, idAt(j + 1) { j += 1 }
            if idAt(j) {
                // `Apt 13 C`: a letter after the number is the id's.
                let letter = j + 1 < end ? tokens[j + 1] : nil
                if let letter, letter.segment == t.segment, tokens[j].isAllDigits, letter.key.utf8.count == 1,
                   letter.key.utf8.allSatisfy(AddressToken.isLetter), !letter.isDirectional { return j + 2 }
                // `Unit 2 East` ending a line with no state or ZIP code after: the side is the id's.
                if let letter, letter.segment == t.segment, letter.isDirectional, j + 2 == end,
                   address.state == nil, address.postalCode == nil { return j + 2 }
                return j + 1
            }
            return bare && t.isUnitWithoutID ? k + 1 : nil
        }
        // `5th Floor`, `2nd Fl`.
        if k + 1 < end, t.startsWithDigit || Self.floorWords.contains(t.key), tokens[k + 1].unit == "FL", tokens[k + 1].segment == t.segment {
            return k + 2
        }
        return nil
    }

    /// A mail stop (`MS 4410`, `Mail Stop 12`, `MSC 301`); returns the index after it.
    func mailStopRun(_ tokens: [AddressToken], at k: Int) -> Int? {
        if tokens[k].isMailStop, k + 1 < tokens.count, tokens[k + 1].hasDigit { return k + 2 }
        if tokens[k].key == "MAIL", k + 2 < tokens.count, ["STOP", "CODE"].contains(tokens[k + 1].key), tokens[k + 2].hasDigit { return k + 3 }
        return nil
    }

    /// The first unit goes in `unit_type`/`unit_id`; a second one (`Bldg 3 Apt 4`) is kept in `unparsed`.
    mutating func takeUnit(_ run: ArraySlice<AddressToken>) {
        guard address.unitType == nil && address.unitID == nil, let first = run.first else {
            leftover += run
            return
        }
        if first.isHash, run.count > 2, run.dropFirst().first?.unit != nil {
            takeUnit(run.dropFirst())
        } else if first.isHash {
            address.unitType = "#"
            address.unitID = run.dropFirst().first?.text
        } else if first.startsWithDigit || Self.floorWords.contains(first.key), let floor = run.dropFirst().first {
            address.unitType = floor.text
            address.unitID = first.text
        } else {
            address.unitType = first.text
            address.unitID = AddressRule.joined(run.dropFirst().filter { !$0.isHash && $0.key != "NO" })
        }
    }

    /// Before the delivery line: units written first, else the recipient.
    mutating func takeRecipientAndUnits(_ prefix: ArraySlice<AddressToken>) {
        var k = prefix.startIndex
        while k < prefix.endIndex {
            if let end = unitRun(prefix, at: k) {
                takeUnit(prefix[k..<end])
                k = end
            } else if Self.boxSideUnits.contains(prefix[k].key), let end = unitRun(prefix, at: k, designator: true), end == prefix.endIndex {
                takeUnit(prefix[k..<end])
                k = end
            } else {
                recipient.append(prefix[k])
                k += 1
            }
        }
    }
}
