import LeadCore

/// The street: house number, directionals, name (highways included), suffix and unit.
extension AddressParser {
    /// Reads a delivery line from its anchor and returns the words after the street (the city
    /// when `cityFromTail`, else kept as written).
    mutating func parseDelivery(_ t: [AddressToken], cityFromTail: Bool) -> [AddressToken] {
        guard !t.isEmpty else { return [] }
        if let box = boxPhrase(t, at: 0) { return takeBoxWithNumbers(t, box) }
        var k = 0
        // A unit written before the number (`Suite 200 100 King St`).
        while k < t.count, let end = unitRun(t[...], at: k) {
            takeUnit(t[k..<end])
            k = end
        }
        if k < t.count, t[k].startsWithDigit, t[k].key.utf8.contains(UInt8(ascii: "-")), isCanadian, let (unit, house) = Self.unitCivic(t[k]) {
            // Canada Post: `10-123 Main St` is unit 10 at 123.
            if address.unitID == nil { address.unitID = unit } else { leftover.append(AddressToken(text: unit, key: unit, segment: t[k].segment, position: t[k].position)) }
            address.houseNumber = house
            k += 1
        } else if k < t.count, isHouseNumber(t[k]) || (k == 0 && isSpelledHouseNumber(t, at: 0)) {
            address.houseNumber = t[k].text
            k += 1
        }
        if address.houseNumber != nil, k < t.count, Self.fractions.contains(t[k].key) {
            address.houseNumber! += " " + t[k].text
            k += 1
        }
        // `4922 B South Cornell Ave`, `1809 C Cross Beam Dr`: a letter after the number, before a
        // directional or a word (not a street type: `1800 M Street`; not initials: `L B J Fwy`,
        // `C and N Smith Mill Rd`), is the number's.
        if address.houseNumber != nil, k + 2 < t.count, t[k].key.utf8.count == 1, t[k].key.utf8.allSatisfy(AddressToken.isLetter),
           !t[k].isDirectional, t[k].key != "I", !(t[k].key == "U" && t[k + 1].key == "S"),
           t[k + 1].isDirectional || Self.isPlainWord(t[k + 1]) {
            address.houseNumber! += " " + t[k].text
            k += 1
        }
        var street = Array(t[k...])
        var after: [AddressToken] = []
        // A PO box after the street (a dual address, Publication 28 §215).
        if let b = street.indices.dropFirst().first(where: { j in boxPhrase(street, at: j).map { $0.route == nil } ?? false }),
           let box = boxPhrase(street, at: b) {
            after = takeBox(street, box)
            street = Array(street[..<b])
        }
        // Mail stops (`Mail Stop 5`, `MSC 301`) are no unit: kept as written.
        var m = 1
        while m < street.count {
            if let end = mailStopRun(street, at: m) {
                leftover += street[m..<end]
                street.removeSubrange(m..<end)
            } else {
                m += 1
            }
        }
        // The unit: the first designator after at least one street word.
        var unitTail: [AddressToken] = []
        if let u = firstUnit(in: street, cityFromTail: cityFromTail), let end = unitRun(street[...], at: u, bare: true) {
            takeUnit(street[u..<end])
            var k = end
            // A second unit right after it (`Apt 4 Rear`, `Bldg 3 Apt 4`) is kept as written.
            while k < street.count, let next = unitRun(street[...], at: k, bare: true) {
                takeUnit(street[k..<next])
                k = next
            }
            unitTail = Array(street[k...])
            street = Array(street[..<u])
        }
        var nameTail = parseStreetName(street, cityFromTail: cityFromTail)
        // `Grand Ave. 600`, `Broadway Street 10`, `Canal Street C1S`: a unit without a designator.
        if let first = nameTail.first, isBareUnitID(first), address.unitType == nil, address.unitID == nil, address.streetName != nil {
            address.unitID = first.text
            nameTail.removeFirst()
        }
        return nameTail + unitTail + after
    }

    private func firstUnit(in street: [AddressToken], cityFromTail: Bool) -> Int? {
        for u in street.indices.dropFirst() {
            if unitRun(street[...], at: u) != nil { return u }
            // A designator without an id: at the end, or before another unit.
            if street[u].isUnitWithoutID {
                let last = u == street.count - 1
                let beforeUnit = u + 1 < street.count && unitRun(street[...], at: u + 1) != nil
                let afterSuffix = !cityFromTail && street[u - 1].suffix != nil
                if last || beforeUnit || afterSuffix { return u }
            }
        }
        return nil
    }

    /// Directionals, name and suffix; returns the words after the street.
    mutating func parseStreetName(_ s: [AddressToken], cityFromTail: Bool) -> [AddressToken] {
        guard !s.isEmpty else { return [] }
        func isDirectional(_ t: AddressToken) -> Bool { t.isDirectional }
        /// `ST` that is Saint: at the name's start (`N St Louis`), or with another street type
        /// after the next word (`Port St Lucie Blvd`).
        /// A rarer street type right after a directional is the name (`N Wells`, `S Stony Island`).
        func isNameAfterDirectional(_ c: Int) -> Bool { c == 1 && isDirectional(s[0]) && !s[c].isCommonSuffix }
        func isSaint(_ c: Int) -> Bool {
            guard s[c].key == "ST", c + 1 < s.count else { return false }
            let next = s[c + 1]
            guard next.suffix == nil, !next.isDirectional, next.unit == nil, !next.hasDigit else { return false }
            return (c == 1 && isDirectional(s[0])) || s[(c + 1)...].contains { $0.isCommonSuffix && $0.suffix != "ST" }
        }
        /// A post-directional at `j`: a short one always; a word (`North`) only where no city can follow.
        func postdirectional(at j: Int) -> Bool {
            j < s.count && isDirectional(s[j]) && (s[j].key.utf8.count <= 2 || !cityFromTail || j == s.count - 1)
        }
        // Highways: `US Hwy 50`, `State Route 9`, `County Road 12`, `I-95`.
        if let (start, number) = highway(in: s) {
            var nameStart = 0
            if start == 1, isDirectional(s[0]) {
                address.streetPredirectional = s[0].text
                nameStart = 1
            }
            var j = number + 1
            // `Highway 71 Business`, `US 17 Alt`.
            if j < s.count, ["BUSINESS", "BUS", "ALT", "ALTERNATE", "BYPASS"].contains(s[j].key) { j += 1 }
            address.streetName = AddressRule.joined(s[nameStart..<j])
            if postdirectional(at: j) {
                address.streetPostdirectional = s[j].text
                j += 1
            }
            return Array(s[j...])
        }
        // Grid: `842 E 1700 S` (Publication 28 Appendix D2).
        if s.count >= 3, isDirectional(s[0]), s[1].startsWithDigit, isDirectional(s[2]), s[2].key.utf8.count <= 2 {
            // `N 2900 E Road`: a grid line with a street type after it names the road `2900 E`.
            if s.count >= 4, s[3].suffix != nil {
                address.streetPredirectional = s[0].text
                address.streetName = AddressRule.joined(s[1...2])
                address.streetSuffix = s[3].text
                return Array(s[4...])
            }
            address.streetPredirectional = s[0].text
            address.streetName = s[1].text
            address.streetPostdirectional = s[2].text
            return Array(s[3...])
        }
        // The suffix: with a city in the same words, the first common one after the name (the
        // city can hold suffix words: `Park Ridge`, `Lake Forest`); else the last.
        var chosen: Int?
        if cityFromTail {
            var first: Int?
            for c in s.indices.dropFirst() where s[c].suffix != nil && !isSaint(c) && !isNameAfterDirectional(c) {
                if first == nil { first = c }
                if s[c].isCommonSuffix { chosen = c; break }
            }
            chosen = chosen ?? first
            // `6330 S Stony Island`, `2010 N Central Park` with nothing after: a rarer street type
            // ending a street line alone is part of its name.
            if let c = chosen, c == s.count - 1, !s[c].isCommonSuffix, address.state == nil, address.postalCode == nil { chosen = nil }
            // `6190 Turkey Run Court` with nothing after: the last street type ends the street, not
            // the first (no city is `COURT`).
            if let c = chosen, c + 2 == s.count, s[c + 1].isCommonSuffix, address.state == nil, address.postalCode == nil { chosen = c + 1 }
            // `Priority Way West Dr`: a directional and a street type after it are no city.
            if let c = chosen, c + 3 == s.count, isDirectional(s[c + 1]), s[c + 2].suffix != nil { chosen = c + 2 }
        } else {
            chosen = s.indices.dropFirst().last { s[$0].suffix != nil && !isSaint($0) && !isNameAfterDirectional($0) }
            // `850 Jaeger St Jaeger Square`, `3705 N Overlook Blvd Overlook Park Flats`: two words or
            // more after a common street type, none a directional, not ending in a road's type
            // (`River Rd Liberty Grove Rd`), are a building's or complex's name, kept as written;
            // the street ends at the first common type.
            // A post-directional may follow the type (`2908 Bryant Ave S Uptown Square`).
            let nameStart = isDirectional(s[0]) ? 2 : 1
            if let first = s.indices.dropFirst(nameStart).first(where: { s[$0].isCommonSuffix && !isSaint($0) }), let c = chosen, first < c {
                let named = first + 1 < s.count && s[first + 1].isDirectional && s[first + 1].key.utf8.count <= 2 ? first + 2 : first + 1
                if s.count - named >= 2, !s[named...].contains(where: { $0.isDirectional || $0.hasDigit }),
                   !USPSTables.roadSuffixes.contains(s[s.count - 1].suffix ?? "") {
                    chosen = first
                }
            }
        }
        if let c = chosen {
            var nameStart = 0
            if c >= 2, isDirectional(s[0]) {
                address.streetPredirectional = s[0].text
                nameStart = 1
            }
            // `Ballast Pt W Blvd`, `New Mexico NW Av`: an abbreviated directional before the street
            // type, after a name of its own (not a grid number: `2700 N Ave`), is the
            // post-directional; a word stays in the name (`Old North Rd`, `Park Circle East Rd`).
            var nameEnd = c
            if c - 1 > nameStart, isDirectional(s[c - 1]), s[c - 1].key.utf8.count <= 2, !s[c - 2].startsWithDigit {
                nameEnd = c - 1
                address.streetPostdirectional = s[c - 1].text
            }
            address.streetName = AddressRule.joined(s[nameStart..<nameEnd])
            address.streetSuffix = s[c].text
            var j = c + 1
            if address.streetPostdirectional == nil, postdirectional(at: j) {
                address.streetPostdirectional = s[j].text
                j += 1
            }
            return Array(s[j...])
        }
        // No suffix. With a city expected in the same words, where the street ends is a guess.
        if cityFromTail && (address.state != nil || address.postalCode != nil) && s.count > 1 {
            problems.append("could not tell where the street ends and the city begins")
        }
        var start = 0, end = s.count
        if s.count >= 2, isDirectional(s[0]) { start = 1; address.streetPredirectional = s[0].text }
        // `860 W Blackhawk 305 Chicago`: a number after the name starts what follows the street.
        var rest: [AddressToken] = []
        if let cut = s.indices.dropFirst(start + 1).first(where: { isBareUnitID(s[$0]) }) {
            rest = Array(s[cut...])
            end = cut
        }
        if end - start >= 2, isDirectional(s[end - 1]) { end -= 1; address.streetPostdirectional = s[end].text }
        address.streetName = AddressRule.joined(s[start..<end])
        return rest
    }

    /// A highway name's first word and its number's index: a highway word (`HWY`, `ROUTE`,
    /// `SR`, `FM`, `I`) or `ROAD` after a qualifier (`COUNTY ROAD`), then a number (or a county
    /// road's letters, `County Road K`); `I-95` alone. Qualifiers before it join the name.
    func highway(in s: [AddressToken]) -> (start: Int, number: Int)? {
        for h in s.indices {
            let key = s[h].key
            if key.utf8.first == UInt8(ascii: "I"), key.utf8.count > 2, key.hasPrefix("I-"), key.utf8.dropFirst(2).allSatisfy(AddressToken.isDigit) { return (h, h) }
            let qualified = h > 0 && s[h - 1].isQualifier
            // The token's table flags are `highwayWords`' keys: no second look-up a word.
            guard s[h].isHighway || (qualified && (key == "ROAD" || key == "RD")) else { continue }
            var number = h + 1
            if number < s.count, s[number].isHash || s[number].key == "NO" { number += 1 }
            guard number < s.count else { continue }
            let n = s[number]
            let countyLetters = qualified && n.key.utf8.count <= 3 && n.key.utf8.allSatisfy(AddressToken.isLetter)
                && !n.isDirectional
            guard (n.startsWithDigit && n.key.utf8.count <= 5) || countyLetters else { continue }
            var start = h
            // `US HWY`, `STATE ROUTE`, `NC HWY`, `OLD STATE HWY`.
            while start > 0, start > h - 2,
                  s[start - 1].isQualifier
                    || (s[start - 1].isStateCode && !s[start - 1].isDirectional) {
                start -= 1
            }
            return (start, number)
        }
        return nil
    }
}
