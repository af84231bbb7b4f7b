/// Couples on one row, as mailing lists address them: `John & Jane Smith`,
/// `Ronald T. & Karen P. Lindsay`, `Mr. and Mrs. Craig Courville`, `John Smith and Jane Doe`,
/// `SMITH, JOHN A & MARY B`.
extension NameRule {
    /// `a` and `b` are the words either side of the `&` or `and`.
    static func couple(_ a: [String], _ b: [String]) -> PersonName {
        var result: PersonName
        var second: PersonName
        if a.contains(","), !b.contains(",") {
            // Family first: the words after the joint are the second person's given names.
            result = parseOne(a)
            var rest = b
            second = PersonName(input: "")
            second.prefix = takePrefixes(&rest)
            second.given = rest.first.map { properCaseInitial(trimmingDots($0)) }
            if rest.count > 1 { second.middle = rest.dropFirst().map(properCaseInitial).joined(separator: " ") }
        } else if leadingPrefixes(a) == a.count {
            var rest = b
            let titles = takePrefixes(&rest)
            if let joint = rest.firstIndex(where: isJoint), joint > 0, joint < rest.count - 1 {
                // `Mr. & Mrs. John and Jane Smith`: the titles, then the couple's names.
                result = couple(Array(rest[..<joint]), Array(rest[(joint + 1)...]))
                result.prefix = a.map { properCase(trimmingDots($0)) }.joined(separator: " ")
                result.secondPrefix = titles
                return result
            }
            // Titles only before the joint: `Mr. and Mrs. Craig Courville` names the first person.
            second = parseOne(b)
            result = second
            result.prefix = a.map { properCase(trimmingDots($0)) }.joined(separator: " ")
            second.given = nil
            second.middle = nil
        } else {
            second = parseOne(b)
            var first = a
            let prefix = takePrefixes(&first)
            let givenOnly = first.count == 1 || (second.family != nil && first.dropFirst().allSatisfy(isInitial) && !first.contains(","))
            if givenOnly {
                // `John & Jane Smith`, `Ronald T. & Karen P. Lindsay`: one family name, written once.
                result = PersonName(input: "")
                result.prefix = prefix
                result.given = properCaseInitial(trimmingDots(first[0]))
                if first.count > 1 { result.middle = first.dropFirst().map(properCaseInitial).joined(separator: " ") }
                result.family = second.family
                result.suffix = second.suffix
            } else {
                result = parseOne(a)
            }
        }
        result.household = true
        result.secondPrefix = second.prefix
        result.secondGiven = second.given
        result.secondMiddle = second.middle
        result.secondFamily = second.family ?? result.family
        if result.family == nil { result.family = second.family }
        return result
    }
}

/// Nicknames in quotes or brackets: `Robert "Bob" Smith`, `“Bob”`, `‘Bob’`, `'Bob'`,
/// `Elizabeth (Liz) Taylor`.
extension NameRule {
    private static let pairs: [(Character, Set<Character>)] = [
        ("\"", ["\"", "”"]), ("“", ["”", "\""]), ("‘", ["’", "'"]), ("'", ["'", "’"]), ("(", [")"]), ("[", ["]"]),
        ("«", ["»"]), ("„", ["“", "”"]),
    ]

    /// The nickname, proper-cased, taken out of `text`; nil when there is none. A mark opens
    /// one only at the start of a word and closes it only at the end of one, so the
    /// apostrophes of O'Neil and D'Angelo are not quotes.
    static func takeNickname(_ text: inout String) -> String? {
        // Most names have no mark at the start of a word (O'Neil's is inside one): the bytes
        // say so at once, where the first byte of every opening mark is looked for.
        guard mayOpenNickname(text) else { return nil }
        let chars = Array(text)
        for (i, c) in chars.enumerated() {
            guard let closers = pairs.first(where: { $0.0 == c })?.1, i == 0 || chars[i - 1].isWhitespace || chars[i - 1] == "," else { continue }
            var j = i + 1
            while j < chars.count {
                if closers.contains(chars[j]), j + 1 == chars.count || chars[j + 1].isWhitespace || chars[j + 1] == "," { break }
                j += 1
            }
            guard j < chars.count, j > i + 1 else { continue }
            let nick = String(chars[(i + 1)..<j]).trimmed
            guard !nick.isEmpty else { continue }
            let nickWords = nick.split(separator: " ").map(String.init)
            if nickWords.allSatisfy({ suffix($0) != nil }) {
                // `Colin L. Powell (Ret.)`: a suffix in brackets, not a nickname.
                text = (String(chars[..<i]) + " " + nick + " " + String(chars[(j + 1)...])).trimmed
                return nil
            }
            text = (String(chars[..<i]) + " " + String(chars[(j + 1)...])).trimmed
            return nickWords.map(properCase).joined(separator: " ")
        }
        return nil
    }

    private static func mayOpenNickname(_ text: String) -> Bool {
        var previous: UInt8 = 0x20
        for b in text.utf8 {
            if previous == 0x20 || previous == 0x09 || previous == 0x2C,
               b == 0x22 || b == 0x27 || b == 0x28 || b == 0x5B || b == 0xC2 || b == 0xE2 {
                return true
            }
            previous = b
        }
        return false
    }
}
