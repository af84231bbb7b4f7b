/// Owner names as county records and property-data exports write them: surname first in
/// capitals (`SMITH JOHN A & MARY B`), record designations after the names (`TR`, `ETAL`,
/// `JTWROS`), and owners that are not people (`ACME PROPERTIES LLC`, `ESTATE OF MARY JONES`).
extension NameRule {
    /// Record designations, by key (lower case, no dots), with the text they are given as:
    /// trustees, "and others", "and wife/husband", life estate, joint tenancy.
    static let designations: [String: String] = [
        "tr": "TR", "trs": "TRS", "tre": "TRE", "tte": "TTE", "ttee": "TTEE", "ttees": "TTEES", "trustee": "TRUSTEE",
        "trustees": "TRUSTEES", "cotr": "CO-TR", "co-tr": "CO-TR", "etal": "ETAL", "etals": "ETALS", "etux": "ETUX",
        "etvir": "ETVIR", "le": "LE", "jtrs": "JTRS", "jtwros": "JTWROS", "jtros": "JTROS", "jt": "JT", "tic": "TIC",
        "h/w": "H/W", "h&w": "H&W", "hw": "HW", "trse": "TRSE", "etum": "ETUM", "lest": "LEST", "cust": "CUST",
    ]

    /// Two-word designations (`ET AL`, `ET UX`, `CO TR`), by the keys of their words.
    static let designationPairs: [(String, String, String)] = [
        ("et", "al", "ET AL"), ("et", "ux", "ET UX"), ("et", "vir", "ET VIR"), ("co", "tr", "CO TR"),
        ("co", "trustee", "CO TRUSTEE"), ("succ", "tr", "SUCC TR"), ("jt", "ten", "JT TEN"),
    ]

    /// The first words of `designationPairs`.
    static let designationStarts: Set<String> = Set(designationPairs.map(\.0))
    /// Every word a designation is or starts with: one look-up a word for a name that has none.
    private static let designationWords: Set<String> = designationStarts.union(designations.keys)

    /// Words that show a Vietnamese name, where a final `Le` is a given name, not a life estate.
    private static let vietnamese: Set<String> = ["thi", "van", "ngoc", "thanh", "minh", "duc", "quoc", "huu", "kim", "nguyen", "tran"]

    /// Takes the designations ending each person's words (before and after an `&`) out of
    /// `words`, and returns them joined by a space (`TR`, `TRS ETAL`); nil when there are none.
    /// A designation never starts a person's words, so `Le Thanh` and `Jt Smith` stay names;
    /// `LE` (life estate) is one only in names written surname first (`lifeEstates`): in
    /// `Mary Jo Le` it is the family name.
    static func takeDesignations(_ words: inout [String], lifeEstates: Bool = true) -> String? {
        // Most names have none: a look at each word's key, before any array is made.
        guard words.count > 1, words.contains(where: { w in key(w).map(designationWords.contains) ?? false }) else {
            return nil
        }
        var found: [String] = []
        var end = words.count
        var out: [String] = []
        // Walk the parts from the end, each ending at a joint (or the end).
        while end > 0 {
            var start = end
            while start > 0, !isJoint(words[start - 1]) { start -= 1 }
            var part = Array(words[start..<end])
            var taken: [String] = []
            while part.count > 1 {
                let keys = part.suffix(2).map { key($0) ?? "" }
                if part.count > 2, let pair = designationPairs.first(where: { $0.0 == keys[0] && $0.1 == keys[1] }) {
                    taken.insert(pair.2, at: 0)
                    part.removeLast(2)
                } else if let d = designations[keys[1]], keys[1] != "le" || (lifeEstates && lifeEstate(part, second: start > 0, in: words)),
                          !EntityName.trustKinds.contains(keys[0]) {
                    taken.insert(d, at: 0)
                    part.removeLast()
                } else if part.last == "," {
                    part.removeLast()
                } else {
                    break
                }
            }
            // A part of designations only (`SMITH JOHN & ETAL`) is dropped with its joint.
            if part.count == 1, let d = key(part[0]).flatMap({ designations[$0] }), start > 0 {
                taken.insert(d, at: 0)
                part.removeAll()
            }
            found.insert(contentsOf: taken, at: 0)
            if part.isEmpty, start > 0 {
                end = start - 1  // drop the joint too
                continue
            }
            out.insert(contentsOf: part, at: 0)
            if start > 0 { out.insert(words[start - 1], at: 0) }
            end = start - 1
        }
        if found.isEmpty { return nil }
        words = out
        var unique: [String] = []
        for d in found where !unique.contains(d) { unique.append(d) }  // SMITH JOHN TR & MARY TR: TR
        return unique.joined(separator: " ")
    }

    /// The organisation a last-name column names when the row has no first name
    /// (`ACME PROPERTIES LLC`, as property-data exports put an entity owner), or nil.
    public static func organization(in text: String) -> String? {
        var tokens = words(text.trimmed)
        guard !tokens.isEmpty else { return nil }
        _ = takeDesignations(&tokens, lifeEstates: false)
        return EntityName.recognize(tokens)
    }

    /// `LE` ending `part` is a life estate after two or more words of a name (one, for the
    /// second owner: `RIVERA CARLOS & ANA LE`), in a name not Vietnamese.
    private static func lifeEstate(_ part: [String], second: Bool, in words: [String]) -> Bool {
        part.count >= (second ? 2 : 3) && !words.contains { isVietnamese($0) }
    }

    static func isVietnamese(_ word: String) -> Bool { vietnamese.contains(key(word) ?? "") }

    /// The most common Vietnamese family names, written first.
    private static let vietnameseFamilies: Set<String> = [
        "nguyen", "tran", "le", "pham", "hoang", "huynh", "phan", "vu", "vo", "dang", "bui", "do", "ho", "ngo", "duong", "ly",
    ]

    /// One person written surname first (`SMITH JOHN A JR`, `DE LA CRUZ MARIA`): the family
    /// name with its leading particles, then the given and middle names; a generation may
    /// stand after the family name (`SMITH JR JOHN`).
    static func parseSurnameFirst(_ input: [String]) -> PersonName {
        var result = PersonName(input: "")
        var words = input
        result.prefix = takePrefixes(&words)
        var suffixes: [String] = []
        var k = 1
        while k < words.count {
            // A weak one (`V`, `DO`) is a middle initial or a name here.
            if let s = suffix(words[k]), !weakSuffixes.contains(key(words[k]) ?? ""), words.count > 2 || generations.contains(key(words[k]) ?? "") {
                suffixes.append(s)
                words.remove(at: k)
            } else {
                k += 1
            }
        }
        if !suffixes.isEmpty { result.suffix = suffixes.joined(separator: ", ") }
        guard !words.isEmpty else { return result }
        var familyEnd = 1
        // `DE LA CRUZ MARIA`; but `LE THI HOA` and `DO VAN AN` start with a Vietnamese family name.
        while familyEnd < words.count - 1, isParticle(words[familyEnd - 1]), !["le", "do"].contains(key(words[familyEnd - 1]) ?? "") {
            familyEnd += 1
        }
        var family = Array(words[..<familyEnd])
        if familyEnd == 1, words.count >= 3, key(words[0]) == "o" {
            family = [words[0] + "'" + words[1]]  // O CONNOR PATRICK: O'Connor
            familyEnd = 2
        }
        family[family.count - 1] = trimmingDots(family[family.count - 1])
        result.family = familyCase(family)
        var rest = words[familyEnd...]
        if rest.count == 2, vietnameseFamilies.contains(key(words[0]) ?? ""), ["van", "thi"].contains(key(rest[rest.startIndex]) ?? "") {
            // NGUYEN VAN AN: Van (Thi for women) is the middle name, An the given name.
            rest = [rest[rest.startIndex + 1], rest[rest.startIndex]]
        }
        if let first = rest.first { result.given = properCaseInitial(trimmingDots(first)) }
        if rest.count > 1 { result.middle = rest.dropFirst().map { properCaseInitial(trimmingDots($0)) }.joined(separator: " ") }
        return result
    }

    /// Generational suffixes, which may follow a family name written first.
    static let generations: Set<String> = ["jr", "sr", "ii", "iii", "iv", "2nd", "3rd"]

    /// A couple written surname first: `SMITH JOHN & MARY`, `SMITH JOHN A & MARY B`,
    /// `SMITH JOHN & SMITH MARY`, `SMITH JOHN & JONES MARY`.
    static func coupleSurnameFirst(_ a: [String], _ b: [String]) -> PersonName {
        var result = parseSurnameFirst(a)
        let second = nextSurnameFirst(b, after: result.family).name
        result.household = true
        result.secondPrefix = second.prefix
        result.secondGiven = second.given
        result.secondMiddle = second.middle
        result.secondFamily = second.family ?? result.family
        return result
    }

    /// The owner after a joint in a list written surname first: given names only, the family
    /// name `family` (the one before: `SMITH JOHN & MARY`), or a name of their own
    /// (`& JONES MARY`, `& SMITH MARY`); `ownFamily` says which.
    static func nextSurnameFirst(_ words: [String], after family: String?) -> (name: PersonName, ownFamily: Bool) {
        var rest = words
        let prefix = takePrefixes(&rest)
        // `& ROBERT JR`: a given name and a generation, not a family name `Robert`.
        var generation: String?
        if rest.count >= 2, let last = rest.last, generations.contains(key(last) ?? "") {
            generation = suffix(last)
            rest.removeLast()
        }
        let sameFamily = rest.count >= 2 && key(rest[0]) == family.flatMap { key($0.uppercased()) }
        let own = !(rest.count == 1 || (!sameFamily && secondIsGivenFirst(rest)))
        var name = own ? parseSurnameFirst(rest) : givenOnly(rest, family: family)
        name.prefix = prefix ?? name.prefix
        if let generation { name.suffix = name.suffix.map { $0 + ", " + generation } ?? generation }
        return (name, own)
    }

    /// `MARY B`, `MARY ANN`: a given name and middle names, not a surname and a given name
    /// (`JONES MARY`).
    private static func secondIsGivenFirst(_ words: [String]) -> Bool {
        if words.dropFirst().allSatisfy(isInitial) { return true }
        return GivenNames.contains(words[0]) && GivenNames.contains(words[1])
    }

    /// An estate written after the owner's name (`JONES MARY EST`, `JONES MARY ESTATE OF`):
    /// the words before it, or nil.
    static func estateOwner(_ words: [String]) -> [String]? {
        // Only the last two words' keys are needed (made for every name parsed).
        guard words.count >= 3 else { return nil }
        let last = key(words[words.count - 1]) ?? ""
        if last == "of", key(words[words.count - 2]) == "estate" { return Array(words.dropLast(2)) }
        if last == "est" || last == "estate" { return Array(words.dropLast()) }
        return nil
    }
}
