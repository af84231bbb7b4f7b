import LeadCore

/// House numbers and unit ids written in the forms lists use: fractions, Canada Post's
/// `unit-civic`, number words, a letter after the number, ids without a designator.
extension AddressParser {
    static let fractions: Set<String> = ["1/2", "1/4", "3/4", "1/3", "2/3", "½", "¼", "¾"]

    /// A unit's id written without a designator (`600`, `12C`, `C1S`, `M-9`): a short word with a
    /// digit, not an ordinal (`5th`) nor a fraction.
    func isBareUnitID(_ t: AddressToken) -> Bool {
        guard t.hasDigit, t.key.utf8.count <= 6, !Self.fractions.contains(t.key) else { return false }
        let letters = t.key.utf8.drop(while: AddressToken.isDigit)
        let ordinal = ["ST", "ND", "RD", "TH"].contains(String(letters) ?? "") && letters.count < t.key.utf8.count
        return !ordinal
    }

    /// A word of three letters or more that is not a street type nor `AND`.
    static func isPlainWord(_ t: AddressToken) -> Bool {
        t.key.utf8.count >= 3 && t.key.utf8.allSatisfy(AddressToken.isLetter) && t.suffix == nil && t.key != "AND"
    }

    /// House numbers written as words (`One S. Dearborn St`, `Fifty N. Front St`).
    static let numberWords: Set<String> = [
        "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE", "TWENTY",
        "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY", "HUNDRED",
    ]

    /// A number word opening a segment, then a directional or a street type within three words,
    /// where no house number in figures follows.
    func isSpelledHouseNumber(_ t: [AddressToken], at i: Int) -> Bool {
        guard Self.numberWords.contains(t[i].key), i == 0 || t[i - 1].segment != t[i].segment else { return false }
        let rest = t[(i + 1)...].prefix { $0.segment == t[i].segment }
        guard let next = rest.first, !t[(i + 1)...].contains(where: { $0.isAllDigits && $0.segment == t[i].segment }) else { return false }
        return (next.isDirectional && rest.count >= 2) || rest.dropFirst().prefix(3).contains { $0.isCommonSuffix }
    }

    /// `10-123` → unit `10`, civic number `123`.
    static func unitCivic(_ t: AddressToken) -> (String, String)? {
        guard let dash = t.text.firstIndex(of: "-") else { return nil }
        let unit = t.text[..<dash], house = t.text[t.text.index(after: dash)...]
        guard !unit.isEmpty, !house.isEmpty, house.first?.isASCII == true, house.first?.isNumber == true,
              unit.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) else { return nil }
        return (String(unit), String(house))
    }
}
