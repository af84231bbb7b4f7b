import LeadCore

/// The last line, read from the end: country, postal code, state or province.
extension AddressParser {
    /// Takes a trailing country name off `tokens`.
    mutating func takeCountry(_ tokens: inout [AddressToken]) {
        guard tokens.count >= 2 else { return }
        let keys = tokens.suffix(4).map(\.key)
        if keys.suffix(4) == ["UNITED", "STATES", "OF", "AMERICA"] {
            shownCountry = "US"
            tokens.removeLast(4)
        } else if keys.suffix(2) == ["UNITED", "STATES"] {
            shownCountry = "US"
            tokens.removeLast(2)
        } else if let last = keys.last, ["USA", "US", "CANADA", "CAN"].contains(last) {
            shownCountry = last.hasPrefix("CA") ? "CA" : "US"
            tokens.removeLast()
        }
    }

    /// Takes a trailing postal code (Canadian `A1A 1A1`, or a US ZIP when it reads as one) and
    /// the state or province before it.
    mutating func takePostalCodeAndState(_ tokens: inout [AddressToken], defaultState: String?) {
        let n = tokens.count
        guard n > 0 else { return }
        // Canada: `K1A 0B1`, `K1A0B1`, `K1A-0B1`.
        if n >= 2, Self.isCanadianHalf(tokens[n - 2].key.utf8, first: true), Self.isCanadianHalf(tokens[n - 1].key.utf8, first: false) {
            address.postalCode = tokens[n - 2].key + " " + tokens[n - 1].key
            shownCountry = "CA"
            tokens.removeLast(2)
        } else if let code = Self.canadianCode(tokens[n - 1].key) {
            address.postalCode = code
            shownCountry = "CA"
            tokens.removeLast()
        } else if let zipToken = tokens.last, zipToken.startsWithDigit,
                  zipToken.key.utf8.allSatisfy({ AddressToken.isDigit($0) || $0 == UInt8(ascii: "-") }),
                  !(n >= 2 && numberBelongsToWord(tokens, at: n - 1)) {
            takeZip(&tokens, defaultState: defaultState)
            return
        }
        takeState(&tokens, hasPostalCode: address.postalCode != nil)
    }

    /// A trailing number: a ZIP after a state, a clean ZIP (`62701`, `62701-1234`) without one,
    /// or a number Excel shortened when the state (or the list's default) confirms it; any other
    /// number stays where it was written (a unit's or house's number, or `unparsed`).
    private mutating func takeZip(_ tokens: inout [AddressToken], defaultState: String?) {
        let zipToken = tokens.removeLast()
        takeState(&tokens, hasPostalCode: true)
        let digits = zipToken.key.utf8.filter(AddressToken.isDigit).count
        let clean = (digits == 5 || digits == 9) && zipToken.key.utf8.count <= 10
        if let state = address.state {
            let (repair, problem) = ExcelRepair.applyUSZip(zipToken.text, state: state, to: &address)
            if let repair { repairs.append(repair) }
            if let problem {
                // Not a ZIP code, but written: kept.
                problems.append(problem)
                leftover.append(zipToken)
            }
            return
        }
        if clean || (defaultState.map { if case .repaired = ExcelRepair.usZip(zipToken.text, state: $0) { true } else { false } } ?? false) {
            let (repair, problem) = ExcelRepair.applyUSZip(zipToken.text, state: defaultState, to: &address)
            if let repair { repairs.append(repair) }
            if address.postalCode != nil { return }
            // A ZIP's shape that is no one's ZIP (`00042`, `00500-1234`): said, and kept as
            // written, not read as a unit or a city.
            if clean, let problem, ExcelRepair.unassigned(String(decoding: zipToken.key.utf8.filter(AddressToken.isDigit).prefix(5), as: UTF8.self)) {
                problems.append(problem)
                leftover.append(zipToken)
                return
            }
        }
        tokens.append(zipToken)
    }

    /// Takes a state or province (a code, a name of up to four words, an older abbreviation)
    /// from the end of `tokens`, unless the word reads better as part of the street.
    private mutating func takeState(_ tokens: inout [AddressToken], hasPostalCode: Bool) {
        let n = tokens.count
        guard n > 0 else { return }
        for length in stride(from: min(4, n), through: 1, by: -1) {
            let words = tokens[(n - length)...]
            let segment = tokens[n - 1].segment
            guard words.allSatisfy({ $0.segment == segment }) else { continue }
            let key = length == 1 ? words[n - 1].key : words.map(\.key).joined(separator: " ")
            guard let code = StateTable.code(forKey: key) else { continue }
            let previous: AddressToken? = n > length && tokens[n - length - 1].segment == segment ? tokens[n - length - 1] : nil
            if !hasPostalCode, let previous, !stateFollows(previous, word: key, length: length, in: tokens[..<(n - length)]) { continue }
            // `Peachtree Street, NE`: a directional alone after a street is its post-directional.
            if !hasPostalCode, previous == nil, length == 1, words[n - 1].isDirectional, n >= 2, tokens[n - 2].suffix != nil { continue }
            address.state = code
            tokens.removeLast(length)
            return
        }
    }

    /// Without a postal code, whether a state-like word at the end of a line is the state: a
    /// code that is also a street word (`CT` court, `NE` northeast, `MT` mount) must follow a
    /// whole street (`123 Main St Hartford CT`, not `123 Oak Ct` or `5 Main St NE`), and no
    /// state name follows a bare house number (`123 Washington`).
    private func stateFollows(_ previous: AddressToken, word: String, length: Int, in before: ArraySlice<AddressToken>) -> Bool {
        if previous.startsWithDigit { return false }
        // `3719 Old Alabama`, `333 North Michigan`: a state's name after a house number and one
        // word is the street's.
        let line = before.reversed().prefix { $0.segment == previous.segment }
        if word.utf8.count > 2, line.count <= 2, line.last?.startsWithDigit == true { return false }
        let info = WordInfo.table[word] ?? .none
        let streetWord = info.suffix != nil || info.unit != nil || info.flags.contains(.directional)
        guard length == 1, streetWord else { return true }
        // `1275 Cromwell Ave Rocky Hill CT`: a place of that state after a whole street.
        let words = Array(line.reversed())
        for n in stride(from: min(ZipCities.longestName, words.count - 2), through: 1, by: -1) {
            let street = words[..<(words.count - n)]
            guard street.dropFirst().contains(where: { $0.suffix != nil || $0.isHighway }) else { continue }
            if ZipCities.isPlace(ZipCities.key(words.suffix(n).map(\.key)), in: word) { return true }
        }
        if previous.suffix != nil || previous.isDirectional { return false }
        // `1750 Tysons Blvd Fourth FL`: a floor.
        if word == "FL", AddressParser.floorWords.contains(previous.key) { return false }
        return before.dropFirst().contains { $0.suffix != nil || $0.isHighway || $0.key == "BOX" }
    }

    static func isCanadianHalf(_ s: String.UTF8View, first: Bool) -> Bool {
        guard s.count == 3 else { return false }
        var k = 0
        for b in s {
            let letterPlace = (k % 2 == 0) == first
            if letterPlace ? !AddressToken.isLetter(b) : !AddressToken.isDigit(b) { return false }
            k += 1
        }
        return true
    }

    /// `K1A0B1` or `K1A-0B1` as `K1A 0B1`.
    static func canadianCode(_ key: String) -> String? {
        let u = key.utf8
        guard u.count == 6 || (u.count == 7 && u[u.index(u.startIndex, offsetBy: 3)] == UInt8(ascii: "-")) else { return nil }
        // ASCII only, so that three bytes are three characters (a multi-byte letter cut in two
        // was a fuzz finding: fixtures/fuzz/address-multibyte-in-canadian-postal-code.bin).
        guard u.allSatisfy({ $0 < 0x80 }) else { return nil }
        let head = String(key.utf8.prefix(3))!, tail = String(key.utf8.suffix(3))!
        guard isCanadianHalf(head.utf8, first: true), isCanadianHalf(tail.utf8, first: false) else { return nil }
        return head + " " + tail
    }
}
