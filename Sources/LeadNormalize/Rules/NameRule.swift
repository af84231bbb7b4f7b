import LeadCore

public struct PersonName: Sendable, Equatable {
    public var input: String
    public var prefix: String?
    public var given: String?
    public var middle: String?
    public var family: String?
    public var suffix: String?
    public var nickname: String?
    /// A couple on one row (`John & Jane Smith`, `Mr. and Mrs. Craig Courville`): the second
    /// person's names follow.
    public var household = false
    public var secondPrefix: String?
    public var secondGiven: String?
    public var secondMiddle: String?
    public var secondFamily: String?
    /// The third owner and any after it (`SMITH JOHN & MARY & ROBERT`), in the order written.
    public var otherOwners: [CoOwner] = []
    /// The owner when it is not a person (`Acme Properties LLC`): its name; the person's
    /// fields stay nil.
    public var organization: String?
    /// Record designations that followed the names (`TR`, `ETAL`, `JTWROS`), never a name.
    public var designation: String?

    /// The line a mailing addresses this name by (`Salutation`).
    public var salutation: String {
        Salutation.of(organization: organization, prefix: prefix, given: given, family: family, suffix: suffix,
                      household: household, secondPrefix: secondPrefix, secondGiven: secondGiven, secondFamily: secondFamily,
                      others: otherOwners)
    }

    /// `Given Middle Family` as one display name (first person only).
    public var full: String? {
        let parts = [given, middle, family].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// Splits full names as lead and mailing lists write them: titles (`prefix`), credentials and
/// generations (`suffix`, found before any `Family, Given` reading), `SMITH, JOHN A`, middle
/// initials, particles (`de la Cruz`, `van der Berg`, `St. John`), nicknames in any quotes or
/// brackets, and couples as a household. ALL-CAPS or all-lower names are put in proper case.
/// Owner rolls' shapes too (NameRule+Owner): surname first with `order: .lastFirst`, record
/// designations, and owners that are not people (`organization`).
public enum NameRule {
    public static func parse(_ input: String, order: NameOrder = .firstLast) -> PersonName {
        let text = input.trimmed
        if order == .firstLast, let plain = plainName(text, input: input) { return plain }
        return read(input, trimmed: text, order: order)
    }

    /// Every reading of `parse`: nicknames, designations, estates, entities, couples and more
    /// owners, titles, suffixes and particles. (`plainName` answers the common name without it.)
    static func read(_ input: String, trimmed: String, order: NameOrder) -> PersonName {
        var text = trimmed
        if text.isEmpty { return PersonName(input: input) }
        let nickname = takeNickname(&text)
        var tokens = words(text)
        let order = order.resolved(for: [text])
        let designation = takeDesignations(&tokens, lifeEstates: order == .lastFirst)
        var name: PersonName
        if let owner = estateOwner(tokens), EntityName.recognize(owner) == nil {
            // `JONES MARY EST`: the estate of the person named.
            name = PersonName(input: input)
            name.organization = "Estate of " + (parseWords(owner, order: order).full ?? EntityName.cased(owner))
        } else if let organization = EntityName.recognize(tokens) {
            name = PersonName(input: input)
            name.organization = organization
        } else {
            name = parseWords(tokens, order: order)
        }
        name.input = input
        name.nickname = nickname
        name.designation = designation
        return name
    }

    /// Every word a reading of `parse` looks up, by key: titles and their modifiers, suffixes,
    /// particles, designations, an entity's cues, joints, `the`, `est` and `estate`.
    static let readingWords: Set<String> = prefixes.union(titleModifiers).union(suffixes.keys).union(particles)
        .union(designations.keys).union(designationStarts).union(EntityName.cues).union(["the", "and", "est", "estate"])

    /// Most names in a list are two to four words written given name first, each of letters (an
    /// apostrophe or hyphen inside: `O'Neil`, `Smith-Jones`), none a word any reading
    /// looks up (`readingWords`). Every reading of `read` then leaves them as they are, and
    /// `parseOne` takes the first as given, the last as family and the rest as middle: that
    /// answer is made here at once, with no reading tried. Nil for any other text.
    static func plainName(_ text: String, input: String) -> PersonName? {
        var words: [String] = []
        var plain = true
        var copy = text
        copy.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x20 { end += 1 }
                // A word: letters at both ends, letters, `'` or `-` inside.
                guard end - start >= 1, words.count < 4 else { plain = false; return }
                var ascii = true
                for k in start..<end {
                    let b = bytes[k]
                    if b >= 0x80 { ascii = false; continue }
                    guard isLetter(b) || ((b == UInt8(ascii: "'") || b == UInt8(ascii: "-")) && k > start && k < end - 1) else { plain = false; return }
                }
                if ascii {
                    let key = String(unsafeUninitializedCapacity: end - start) { out in
                        for k in start..<end { out[k - start] = lowerASCII(bytes[k]) }
                        return end - start
                    }
                    guard !readingWords.contains(key) else { plain = false; return }
                } else {
                    // Letters beyond ASCII (`Zoë`, `JOSÉ`, `Łukasz`): no reading looks such a word
                    // up, since every key of the tables is ASCII (`key`). A mark or any other
                    // character leaves the name to the readings.
                    let word = String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars
                    guard let first = word.first, let last = word.last, isNameLetter(first), isNameLetter(last),
                          word.allSatisfy({ $0.isASCII || isNameLetter($0) }) else { plain = false; return }
                }
                words.append(String(decoding: bytes[start..<end], as: UTF8.self))
                start = end
                while start < bytes.count && bytes[start] == 0x20 { start += 1 }
            }
        }
        guard plain, words.count >= 2 else { return nil }
        var name = PersonName(input: input)
        name.given = properCaseInitial(words[0])
        if words.count > 2 { name.middle = words[1..<(words.count - 1)].map(properCaseInitial).joined(separator: " ") }
        name.family = properCase(words[words.count - 1])
        return name
    }

    @inline(__always) private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// An ASCII letter, or an upper-case, lower-case or other letter beyond ASCII (not a
    /// title-case or modifier letter, not a mark).
    private static func isNameLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isLetter(UInt8(scalar.value)) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .otherLetter: return true
        default: return false
        }
    }

    /// A person or a couple from the words of their names.
    static func parseWords(_ tokens: [String], order: NameOrder) -> PersonName {
        let surnameFirst = order == .lastFirst && !tokens.contains(",")
        if let owners = threeOrMore(tokens, surnameFirst: surnameFirst) { return owners }
        if let joint = tokens.firstIndex(where: isJoint), joint > 0, joint < tokens.count - 1 {
            let a = Array(tokens[..<joint])
            var b = Array(tokens[(joint + 1)...])
            if surnameFirst, a.count >= 2, leadingPrefixes(a) < a.count {
                if let another = b.firstIndex(where: isJoint), another > 0 { b = Array(b[..<another]) }
                return coupleSurnameFirst(a, b)
            }
            return couple(a, b)
        }
        return surnameFirst ? parseSurnameFirst(tokens) : parseOne(tokens)
    }

    /// The words of the text, split at spaces and commas; a comma is kept as its own word
    /// (`","`) so that `Family, Given` can be read. Words of marks only (`-`, `.`) are dropped.
    static func words(_ s: String) -> [String] {
        var out: [String] = []
        // One pass over the bytes: a space or tab ends a word, a comma ends one and is one.
        // (Split into arrays of slices first, the words cost 5,000 instructions a name.)
        var text = s
        text.withUTF8 { bytes in
            var start = 0
            func flush(_ end: Int) {
                if start < end { appendWord(UnsafeBufferPointer(rebasing: bytes[start..<end]), to: &out) }
            }
            for (k, b) in bytes.enumerated() {
                switch b {
                case 0x20, 0x09:
                    flush(k)
                    start = k + 1
                case UInt8(ascii: ","):
                    flush(k)
                    if out.last != "," && !out.isEmpty { out.append(",") }
                    start = k + 1
                default:
                    break
                }
            }
            flush(bytes.count)
        }
        while out.last == "," { out.removeLast() }
        return out
    }

    private static func appendWord(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [String]) {
        guard bytes.contains(where: { !($0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "'")) }) else { return }
        out.append(String(decoding: bytes, as: UTF8.self))
    }

    /// One person's name, from its words (commas as `","`).
    static func parseOne(_ words: [String]) -> PersonName {
        var result = PersonName(input: "")
        // Comma-separated groups.
        var groups = words.split(separator: ",", omittingEmptySubsequences: true).map(Array.init)
        guard !groups.isEmpty else { return result }
        // Suffixes first: whole groups of them after a comma (`, M.D., Ph.D.`, `Smith, Jr., John`),
        // then the ones ending the last group and the family group (`John Smith Jr`, `Smith Jr, John`).
        var found: [String] = []
        var k = 1
        while k < groups.count {
            let group = groups[k]
            // `Smith, V` and `Rahman, Md` are family and given names; `John Smith, DO` has a credential.
            if group.allSatisfy({ suffix($0) != nil }), !(groups.count == 2 && groups[0].count < 2 && group.count == 1) {
                found += group.map { suffix($0)! }
                groups.remove(at: k)
            } else {
                k += 1
            }
        }
        found = takeTrailingSuffixes(&groups[groups.count - 1], keeping: groups.count == 1 ? 2 : 1, commaGiven: groups.count > 1) + found
        if groups.count > 1 { found = takeTrailingSuffixes(&groups[0], keeping: 1, commaGiven: false) + found }
        if !found.isEmpty { result.suffix = found.joined(separator: ", ") }

        var given: [String]
        var family: [String] = []
        if groups.count > 1 {
            family = groups[0]
            given = groups.dropFirst().flatMap { $0 }
        } else {
            given = groups[0]
        }
        result.prefix = takePrefixes(&given)
        if groups.count == 1 {
            if given.count == 1, result.prefix != nil {
                family = given  // `Mr. Smith`
                given = []
            } else if given.count > 1 {
                let start = familyStart(given)
                family = Array(given[start...])
                given.removeSubrange(start...)
            }
        }
        if let first = given.first { result.given = properCaseInitial(trimmingDots(first)) }
        if given.count > 1 { result.middle = given.dropFirst().map(properCaseInitial).joined(separator: " ") }
        if !family.isEmpty {
            family[family.count - 1] = trimmingDots(family[family.count - 1])
            result.family = familyCase(family)
        }
        return result
    }

    /// The suffixes ending `words`, leaving at least `keeping` words; a weak one (`V`, `DO`)
    /// only when the words are not a given name after a comma.
    private static func takeTrailingSuffixes(_ words: inout [String], keeping: Int, commaGiven: Bool) -> [String] {
        var found: [String] = []
        while words.count > keeping, let last = words.last, let s = suffix(last) {
            if commaGiven || words.count <= 2, key(last).map(weakSuffixes.contains) ?? false { break }
            found.insert(s, at: 0)
            words.removeLast()
        }
        return found
    }

    /// The titles starting `words` (`Dr.`, `Lt. Col.`, `The Hon.`), leaving at least one word.
    static func takePrefixes(_ words: inout [String]) -> String? {
        let n = leadingPrefixes(words)
        guard n > 0 else { return nil }
        // Titles alone (`Dr`) are a name.
        let take = n < words.count ? n : n - 1
        guard take > 0, !(take == 1 && key(words[0]) == "the") else { return nil }
        let taken = words[..<take].map { key($0) == "us" ? "US" : properCase(trimmingDots($0)) }.joined(separator: " ")
        words.removeFirst(take)
        return taken
    }

    /// How many words at the start are titles (`The` counts before one).
    static func leadingPrefixes(_ words: [String]) -> Int {
        guard let first = words.first else { return 0 }
        // Most names start with no title: said from the first word's key, made once.
        let firstKey = key(first)
        guard let firstKey, firstKey == "the" || prefixes.contains(firstKey) || titleModifiers.contains(firstKey) else { return 0 }
        var k = 0
        if words.count > 1, firstKey == "the", isPrefix(words[1]) { k = 1 }
        while k < words.count {
            if isPrefix(words[k]) {
                k += 1
            } else if k + 1 < words.count, key(words[k]).map(titleModifiers.contains) ?? false, isPrefix(words[k + 1]) {
                k += 2  // State Senator
            } else {
                break
            }
        }
        return k
    }

    /// Where the family name starts among a name's words: at the particles before the last
    /// word (`de la Cruz`), or the last word.
    static func familyStart(_ words: [String]) -> Int {
        var start = words.count - 1
        var k = words.count - 2
        while k >= 1, isParticle(words[k]) {
            start = k
            k -= 1
        }
        return start
    }

    static func trimmingDots(_ word: String) -> String {
        guard word.utf8.last == UInt8(ascii: ".") else { return word }
        var w = Substring(word)
        while w.last == "." { w = w.dropLast() }
        return w.isEmpty ? word : String(w)
    }
}
