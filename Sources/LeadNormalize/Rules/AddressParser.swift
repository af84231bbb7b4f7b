import LeadCore

/// One address being read: the components found so far and every word no component took.
/// `AddressRule.parse` runs it over a whole address, `parseStreetLine` over a street line only.
struct AddressParser {
    var address = PostalAddress()
    var problems: [String] = []
    var repairs: [String] = []
    /// Words that fit no component, given back in `unparsed` in the order they were written.
    var leftover: [AddressToken] = []
    var recipient: [AddressToken] = []
    /// The country the text itself shows (a postal code, a province, a country name).
    var shownCountry: String?
    /// The country assumed when the text shows none (`--country`), deciding Canadian forms
    /// such as `10-123 Main St` (unit 10) and `CP 123` (a box).
    let assumedCountry: String?

    init(country: String?) { assumedCountry = country }

    var isCanadian: Bool { (shownCountry ?? assumedCountry) == "CA" || address.state.map(StateTable.isCanadian) == true }

    /// A whole address: last line from the end, then recipient, delivery line and city.
    mutating func parseWhole(_ input: String, defaultState: String?) {
        var tokens = AddressRule.tokenize(input)
        guard !tokens.isEmpty else { return }
        takeCountry(&tokens)
        takePostalCodeAndState(&tokens, defaultState: defaultState)
        readDeliveryAndCity(tokens, withCity: true)
    }

    /// A street line only (city, state and ZIP are in columns of their own).
    mutating func parseStreetLine(_ input: String) {
        readDeliveryAndCity(AddressRule.tokenize(input), withCity: false)
    }

    static let attentionWords: Set<String> = ["ATTN", "ATTENTION", "C/O"]

    /// Puts the recipient and the leftovers in the address, and the country.
    mutating func finish() {
        address.recipient = AddressRule.joined(recipient)
        if !leftover.isEmpty {
            leftover.sort { $0.position < $1.position }
            address.unparsed = AddressRule.joined(leftover)
            problems.append("not placed in any component: \(address.unparsed!)")
        }
        if address.houseNumber == nil && address.poBoxID == nil && address.streetName != nil {
            problems.append("no house number")
        }
        let hasAny = !address.isEmpty || address.recipient != nil || address.unparsed != nil
        if hasAny {
            address.country = shownCountry ?? address.state.map { StateTable.isCanadian($0) ? "CA" : "US" } ?? (address.postalCode != nil ? "US" : nil)
                ?? assumedCountry ?? "US"
        }
    }

    /// Splits what is left after the last line into recipient, delivery line and city. The
    /// delivery line starts at its anchor (a house number or a box); what comes before the
    /// anchor is the recipient, except a unit written first (`Suite 200, 100 King St W`).
    mutating func readDeliveryAndCity(_ tokens: [AddressToken], withCity: Bool) {
        guard let firstToken = tokens.first, let lastToken = tokens.last else { return }
        // Most street lines are one segment: no list of segments to build for them.
        let single = firstToken.segment == lastToken.segment
        var segments: [ArraySlice<AddressToken>] = []
        if !single {
            var start = 0
            for k in 1...tokens.count where k == tokens.count || tokens[k].segment != tokens[k - 1].segment {
                segments.append(tokens[start..<k])
                start = k
            }
        }
        if let anchor = anchorIndex(tokens) {
            takeRecipientAndUnits(tokens[..<anchor])
            let anchorSegment = tokens[anchor].segment
            var delivery = tokens[anchor...].prefix { $0.segment == anchorSegment }
            var later = single ? [] : segments.filter { $0.first!.segment > anchorSegment }
            var city: ArraySlice<AddressToken>?
            if withCity, let last = later.last, isCitySegment(last) {
                city = last
                later.removeLast()
                // `Springfield, Sangamon County`: the county is not the city.
                if last.last?.key == "COUNTY", let before = later.last, isCitySegment(before) {
                    leftover += last
                    city = before
                    later.removeLast()
                }
            }
            // No comma before the city: a place the ZIP code or the state has ends the street.
            if withCity && city == nil, isHouseNumber(tokens[anchor]), let start = knownCityStart(delivery, earliest: anchor + 2) {
                city = delivery[start...]
                delivery = delivery[..<start]
            }
            let cityFromTail = withCity && city == nil
            let tail = parseDelivery(Array(delivery), cityFromTail: cityFromTail)
            // `1800 M Street, NW, Washington`, `Peachtree Street, NE Suite 2000 Atlanta`.
            if let next = later.first ?? city, next.first?.segment == anchorSegment + 1, takePostdirectional(opening: next) {
                if later.isEmpty {
                    city = city?.dropFirst()
                    if city?.isEmpty == true { city = nil }
                } else {
                    later[0] = later[0].dropFirst()
                    if later[0].isEmpty { later.removeFirst() }
                }
            }
            // `3523 Williams St, POB 477 Patterson, GA`: the words after a box ending the address are the city.
            let cityAfterBox = withCity && city == nil && tail.isEmpty
            for (n, segment) in later.enumerated() { takeSecondarySegment(segment, cityAfterBox: cityAfterBox && n == later.count - 1) }
            if cityFromTail { takeCity(tail) } else { leftover += tail }
            if let city { takeCity(Array(city)) }
            return
        }
        // No house number and no box: a city alone (`Wausau, WI 54403`), or a street without a
        // number (`Hwy 50 Pueblo CO`, `Main St, Springfield, IL`).
        // `C/O Glenn M Koogler` on a line of its own: the recipient.
        if single, Self.attentionWords.contains(firstToken.key) {
            recipient += tokens
            return
        }
        if single {
            let only = tokens
            let streetLike = only.indices.contains { k in
                let t = only[k]
                if t.hasDigit || t.isHighway { return true }
                // A common street type after a word (`Oak Park Ave`), but not Saint (`Port St Lucie`).
                guard k >= 1, t.isCommonSuffix else { return false }
                return !(t.suffix == "ST" && k + 1 < only.count)
            }
            if withCity && !streetLike && (address.state != nil || address.postalCode != nil) {
                takeCity(only)
            } else {
                let tail = parseDelivery(only, cityFromTail: withCity)
                if withCity { takeCity(tail) } else { leftover += tail }
            }
            return
        }
        var rest = segments
        var city: ArraySlice<AddressToken>?
        if withCity, let last = rest.last, isCitySegment(last) {
            city = last
            rest.removeLast()
        }
        let first = rest.removeFirst()
        if unitRun(first, at: first.startIndex) != nil {
            takeSecondarySegment(first)
        } else {
            leftover += parseDelivery(Array(first), cityFromTail: false)
        }
        for segment in rest { takeSecondarySegment(segment) }
        if let city { takeCity(Array(city)) }
    }

    /// A comma segment that can be the city: words, not a unit, a box or a street line.
    private func isCitySegment(_ segment: ArraySlice<AddressToken>) -> Bool {
        guard let first = segment.first else { return false }
        if isHouseNumber(first) || boxPhrase(Array(segment), at: 0) != nil { return false }
        // `3665 Chesnut Drive, C-5`: a unit's id alone.
        if segment.count == 1, first.hasDigit, isBareUnitID(first) { return false }
        // A unit alone is not a city; a unit glued to one is (`Dept 12 Lowell`).
        if let end = unitRun(segment, at: segment.startIndex) { return segment[end...].contains { !$0.isAllDigits } }
        return segment.contains { !$0.isAllDigits }
    }

    /// A segment after the street: a unit (`Apt 4`), a box (`PO Box 9`), else kept as written.
    private mutating func takeSecondarySegment(_ segment: ArraySlice<AddressToken>, cityAfterBox: Bool = false) {
        // `111 W. Monroe, 12C, Chicago`: a unit without a designator, alone in its segment.
        if segment.count == 1, let only = segment.first, isBareUnitID(only), address.streetName != nil,
           address.unitType == nil, address.unitID == nil {
            address.unitID = only.text
            return
        }
        var k = segment.startIndex
        while k < segment.endIndex {
            if let end = unitRun(segment, at: k) {
                takeUnit(segment[k..<end])
                k = end
            } else if let box = boxPhrase(Array(segment[k...]), at: 0) {
                let tail = takeBox(Array(segment[k...]), box)
                if cityAfterBox && address.city == nil { takeCity(tail) } else { leftover += tail }
                return
            } else {
                leftover.append(segment[k])
                k += 1
            }
        }
    }

    /// The city: the words left, without unit or mail-stop text glued to them (`Dept 12`,
    /// `MS 4410`) and without a number standing alone.
    mutating func takeCity(_ tokens: [AddressToken]) {
        var words: [AddressToken] = []
        var k = 0
        while k < tokens.count {
            // `ATTN: Regus`, `C/O DTZ` after the street: kept as written, to the end of its segment.
            if Self.attentionWords.contains(tokens[k].key) {
                let segment = tokens[k].segment
                let end = tokens[k...].firstIndex { $0.segment != segment } ?? tokens.endIndex
                leftover += tokens[k..<end]
                k = end
            } else if let end = unitRun(tokens[...], at: k) {
                takeUnit(tokens[k..<end])
                k = end
            } else if let end = mailStopRun(tokens, at: k) {
                leftover += tokens[k..<end]
                k = end
            } else if tokens[k].isAllDigits || (tokens[k].isHash) {
                leftover.append(tokens[k])
                k += 1
            } else {
                words.append(tokens[k])
                k += 1
            }
        }
        // `Unit 2 East`, `Apt 13 C` with no state or ZIP code after: a direction or a letter is no city.
        if words.count == 1, address.state == nil, address.postalCode == nil, words[0].isDirectional {
            leftover += words
            return
        }
        // `4315 Webster Avenue LH`: one or two letters after the street, nothing after them.
        if words.count == 1, address.state == nil, address.postalCode == nil, address.houseNumber != nil,
           words[0].key.utf8.count <= 2, words[0].key.utf8.allSatisfy(AddressToken.isLetter) {
            if address.unitID == nil && address.unitType == nil { address.unitID = words[0].text } else { leftover += words }
            return
        }
        if let city = AddressRule.joined(words) {
            if address.city == nil { address.city = city } else { leftover += words }
        }
    }
}
