/// Which way a column writes people's names: `John Smith` (`first-last`), `SMITH JOHN`
/// (`last-first`, as county records and property-data exports do), or `auto`: decided for the
/// whole column from its values, as a person glancing down it would (`NameOrder.decide`).
/// A name with a comma (`SMITH, JOHN`) says its own order whatever the column's.
public enum NameOrder: String, Codable, Sendable, CaseIterable {
    case firstLast = "first-last"
    case lastFirst = "last-first"
    case auto

    /// The order of a column from (a sample of) its values: `last-first` when most values are
    /// written in capitals and the surname-first shapes outnumber the given-first ones at least
    /// two to one; otherwise `first-last`, so an ordinary `John Smith` list is never flipped.
    ///
    /// A value counts towards surname first when its second word is a common given name and its
    /// first word is not (`SMITH JOHN A`), or when a couple's second person is one given name
    /// (`SMITH JOHN & MARY`); towards given first in the mirror cases (`JOHN SMITH`,
    /// `JOHN & MARY SMITH`). Entities, values with a comma and values whose words are both or
    /// neither common given names say nothing.
    public static func decide<S: Sequence>(_ values: S) -> NameOrder where S.Element == String {
        var seen = 0, capitals = 0, surnameFirst = 0, givenFirst = 0
        for value in values {
            var text = value.trimmed
            guard !text.isEmpty else { continue }
            _ = NameRule.takeNickname(&text)
            var tokens = NameRule.words(text)
            _ = NameRule.takeDesignations(&tokens)
            guard !tokens.isEmpty, EntityName.recognize(tokens) == nil else { continue }
            seen += 1
            if isCapitals(text) { capitals += 1 }
            guard !tokens.contains(",") else { continue }
            var first = tokens
            var second: [String] = []
            if let joint = tokens.firstIndex(where: NameRule.isJoint) {
                first = Array(tokens[..<joint])
                second = Array(tokens[(joint + 1)...])
            }
            first = first.filter { !NameRule.isPrefix($0) && NameRule.suffix($0) == nil }
            if first.count == 1, second.count >= 2 { givenFirst += 1; continue }  // JOHN & MARY SMITH
            if first.count >= 2, second.count == 1, !NameRule.isInitial(second[0]) { surnameFirst += 1; continue }  // SMITH JOHN & MARY
            guard first.count >= 2 else { continue }
            let a = GivenNames.contains(first[0]), b = GivenNames.contains(first[1]) && !NameRule.isInitial(first[1])
            if b && !a { surnameFirst += 1 } else if a && !b { givenFirst += 1 }
        }
        guard seen > 0, capitals * 5 >= seen * 3 else { return .firstLast }
        return surnameFirst > 0 && surnameFirst >= 2 * givenFirst ? .lastFirst : .firstLast
    }

    /// Every letter a capital (and at least two letters).
    static func isCapitals(_ text: String) -> Bool {
        var letters = 0
        for s in text.unicodeScalars where s.properties.isAlphabetic {
            if s.properties.changesWhenUppercased { return false }
            letters += 1
        }
        return letters >= 2
    }

    /// `auto` decided from `values`; the other orders as they are.
    public func resolved<S: Sequence>(for values: S) -> NameOrder where S.Element == String {
        self == .auto ? Self.decide(values) : self
    }
}
