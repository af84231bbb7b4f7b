import LeadCore
import Foundation

public struct PersonName: Sendable, Equatable {
    public var input: String
    public var prefix: String?
    public var given: String?
    public var middle: String?
    public var family: String?
    public var suffix: String?
    public var nickname: String?
    /// A couple on one row (`John & Jane Smith`): the second person's names follow.
    public var household = false
    public var secondGiven: String?
    public var secondFamily: String?

    /// `Given Middle Family` as one display name (first person only).
    public var full: String? {
        let parts = [given, middle, family].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// Splits full names: prefixes and suffixes, `SMITH, JOHN A`, middle initials, particles
/// (`de la Cruz`, `van der Berg`), nicknames in quotes or brackets, and couples as a
/// household. ALL-CAPS or all-lower names are put in proper case (McDonald, O'Neil,
/// Smith-Jones); names already in mixed case (DeShawn) are kept as written.
public enum NameRule {
    static let prefixes: Set<String> = ["mr", "mrs", "ms", "miss", "mx", "dr", "prof", "rev", "hon", "sir", "fr", "capt", "sgt"]
    static let suffixes: [String: String] = [
        "jr": "Jr", "sr": "Sr", "ii": "II", "iii": "III", "iv": "IV", "v": "V", "md": "MD", "phd": "PhD",
        "esq": "Esq", "cpa": "CPA", "dds": "DDS", "rn": "RN",
    ]
    static let particles: Set<String> = ["de", "del", "della", "der", "di", "da", "dos", "das", "do", "du", "la", "le", "van", "von", "vander", "st", "ten", "ter", "bin", "al"]
    static let macNames: Set<String> = ["macdonald", "macarthur", "mackenzie", "macleod", "macmillan", "macintosh", "macintyre", "macneil", "macgregor", "macpherson", "maclean", "mackay", "macaulay", "macdougall", "macfarlane", "mackinnon"]

    public static func parse(_ input: String) -> PersonName {
        var name = PersonName(input: input)
        var text = input.trimmed
        if text.isEmpty { return name }
        // A nickname in quotes or brackets.
        // (Most names have none of the marks; scanning the bytes first skips four Character searches.)
        let marks = text.utf8.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "'") || $0 == 0xE2 }
        for (open, close) in marks ? [(Character("\""), Character("\"")), ("“", "”"), ("(", ")"), ("'", "'")] : [] {
            if let a = firstIndex(of: open, in: text[...]), let b = firstIndex(of: close, in: text[text.index(after: a)...]), text.index(after: a) < b {
                let nick = text[text.index(after: a)..<b].trimmed
                if !nick.isEmpty && !nick.contains(" ") || open == "\"" {
                    name.nickname = properCase(nick)
                    text.removeSubrange(a...b)
                    break
                }
            }
        }
        // A couple: `John & Jane Smith`, `John and Jane Smith`, `John Smith & Jane Doe`, `SMITH, JOHN & JANE`.
        let tokens = words(text)
        if let joint = tokens.firstIndex(where: isJoint), joint > 0, joint < tokens.count - 1 {
            var a = parseOne(tokens[..<joint].joined(separator: " "))
            let b = parseOne(tokens[(joint + 1)...].joined(separator: " "))
            if a.family == nil { a.family = b.family }
            a.household = true
            a.secondGiven = b.given
            a.secondFamily = b.family ?? a.family
            a.input = input
            a.nickname = name.nickname
            return a
        }
        var one = parseOne(text, words: tokens)
        one.input = input
        one.nickname = name.nickname
        return one
    }

    /// `text.firstIndex(of: mark)`, found by looking at the bytes: only where the mark's first
    /// byte is does a Character start that may be it (checked there, with its boundary).
    static func firstIndex(of mark: Character, in text: Substring) -> String.Index? {
        let lead = mark.utf8.first!
        var from = text.utf8.startIndex
        while let i = text.utf8[from...].firstIndex(of: lead) {
            if let at = String.Index(i, within: text), text[at] == mark { return at }
            from = text.utf8.index(after: i)
        }
        return nil
    }

    /// One person's name, no couple. `words`, when given, are `words(text)`, already split.
    static func parseOne(_ text: String, words known: [String]? = nil) -> PersonName {
        var result = PersonName(input: text)
        var tokens: [String]
        var commaFamily: [String]?
        // Most names have no comma: their words are the whole text's.
        let commaParts = text.utf8.contains(UInt8(ascii: ","))
            ? text.utf8.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self).trimmed }.filter { !$0.isEmpty }
            : [text.trimmed].filter { !$0.isEmpty }
        if commaParts.count >= 2, !isSuffix(commaParts[1]) {
            // `Family, Given Middle[, Suffix]`
            commaFamily = words(commaParts[0])
            tokens = words(commaParts[1])
            for extra in commaParts.dropFirst(2) { tokens += words(extra) }
        } else {
            if commaParts.count == 1 {
                // The one part is the text trimmed; when trimming changed nothing, its words are
                // the ones already split.
                tokens = known.flatMap { commaParts[0].utf8.count == text.utf8.count ? $0 : nil } ?? words(commaParts[0])
            } else {
                tokens = words(commaParts.joined(separator: " "))
            }
        }
        if let first = tokens.first, isPrefix(first) {
            result.prefix = properCase(stripping(first, "."))
            tokens.removeFirst()
        }
        while let last = tokens.last, isSuffix(last) {
            result.suffix = [suffixes[key(last)]!, result.suffix].compactMap { $0 }.joined(separator: " ")
            tokens.removeLast()
        }
        if var family = commaFamily {
            while let last = family.last, isSuffix(last) {
                result.suffix = suffixes[key(last)]
                family.removeLast()
            }
            result.family = family.isEmpty ? nil : familyCase(family)
            if let first = tokens.first { result.given = properCase(first) }
            if tokens.count > 1 { result.middle = tokens.dropFirst().map(properCaseInitial).joined(separator: " ") }
            return result
        }
        guard !tokens.isEmpty else { return result }
        if tokens.count == 1 {
            result.given = properCase(tokens[0])
            return result
        }
        // The family name starts at the first particle after the given name, or is the last word.
        var familyStart = tokens.count - 1
        var k = tokens.count - 2
        while k >= 1, isParticle(tokens[k]) {
            familyStart = k
            k -= 1
        }
        result.given = properCase(tokens[0])
        if familyStart > 1 { result.middle = tokens[1..<familyStart].map(properCaseInitial).joined(separator: " ") }
        result.family = familyCase(Array(tokens[familyStart...]))
        return result
    }

    static func words(_ s: String) -> [String] {
        // Split on the bytes: a space or tab is never part of a multi-byte character.
        s.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { String(decoding: $0, as: UTF8.self) }
    }

    static func key(_ word: String) -> String {
        if let ascii = word.utf8.withContiguousStorageIfAvailable({ bytes -> String? in
            var start = 0, end = bytes.count
            while start < end && (bytes[start] == UInt8(ascii: ".") || bytes[start] == UInt8(ascii: ",")) { start += 1 }
            while end > start && (bytes[end - 1] == UInt8(ascii: ".") || bytes[end - 1] == UInt8(ascii: ",")) { end -= 1 }
            var out = [UInt8]()
            out.reserveCapacity(end - start)
            for k in start..<end {
                if bytes[k] >= 0x80 { return nil }
                out.append(lowerASCII(bytes[k]))
            }
            return String(decoding: out, as: UTF8.self)
        }), let ascii { return ascii }
        return stripping(word, ".,").lowercased()
    }

    /// `word` without the characters of `set` at either end.
    static func stripping(_ word: String, _ set: String) -> String {
        // ASCII marks (the only ones used) can be checked on the bytes, without copying them.
        let marks = set.utf8
        if marks.allSatisfy({ $0 < 0x80 }), let (first, last) = word.utf8Ends, !marks.contains(first), !marks.contains(last) {
            return word
        }
        var s = Substring(word)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s.count == word.count ? word : String(s)
    }

    static func isSuffix(_ word: String) -> Bool { shortKey(word, longest: longestSuffix).map { suffixes[$0] != nil } ?? false }
    static func isPrefix(_ word: String) -> Bool { shortKey(word, longest: longestPrefix).map(prefixes.contains) ?? false }
    static func isParticle(_ word: String) -> Bool { shortKey(word, longest: longestParticle).map(particles.contains) ?? false }

    private static let longestSuffix = suffixes.keys.map(\.utf8.count).max()!
    private static let longestPrefix = prefixes.map(\.utf8.count).max()!
    private static let longestParticle = particles.map(\.utf8.count).max()!

    /// `key(word)`, or nil when the word is ASCII and its key would be longer than `longest`
    /// bytes: most words of a name are longer than any prefix, suffix or particle, and need
    /// neither a key built nor a hash taken. (Lower-casing can shorten only non-ASCII text.)
    static func shortKey(_ word: String, longest: Int) -> String? {
        var bytes = 0, marks = 0, ascii = true
        for b in word.utf8 {
            bytes += 1
            if b >= 0x80 { ascii = false; break }
        }
        if ascii {
            // Leading and trailing `.` and `,` do not count.
            let utf8 = word.utf8
            var i = utf8.startIndex
            while i != utf8.endIndex, utf8[i] == UInt8(ascii: ".") || utf8[i] == UInt8(ascii: ",") { marks += 1; i = utf8.index(after: i) }
            if marks < bytes {
                var j = utf8.endIndex
                while j != i, utf8[utf8.index(before: j)] == UInt8(ascii: ".") || utf8[utf8.index(before: j)] == UInt8(ascii: ",") { marks += 1; j = utf8.index(before: j) }
            }
            if bytes - marks > longest { return nil }
        }
        return key(word)
    }

    /// `&`, `and`, `+` or `&amp;` (any case, after leading `.` or `,`) joining a couple, and not
    /// ending in `.` or `,`.
    static func isJoint(_ word: String) -> Bool {
        var utf8 = Substring(word).utf8
        guard let last = utf8.last, last != UInt8(ascii: "."), last != UInt8(ascii: ",") else { return false }
        while let first = utf8.first, first == UInt8(ascii: ".") || first == UInt8(ascii: ",") { utf8 = utf8.dropFirst() }
        switch utf8.count {
        case 1: return utf8.first == UInt8(ascii: "&") || utf8.first == UInt8(ascii: "+")
        case 3: return utf8.elementsEqual("and".utf8) { lowerASCII($0) == $1 }
        case 5: return utf8.elementsEqual("&amp;".utf8) { lowerASCII($0) == $1 }
        default: return false
        }
    }

    /// A family name from its own column: `DE LA CRUZ` → `de la Cruz`, `MCDONALD` → `McDonald`.
    public static func properCaseFamily(_ text: String) -> String {
        familyCase(words(text))
    }

    /// Particles stay lower case inside a family name (`de la Cruz`), unless they start it alone.
    static func familyCase(_ words: [String]) -> String {
        if words.count == 1 { return properCase(words[0]) }  // most family names: one word, no particle
        return words.enumerated().map { k, w in
            k < words.count - 1 && isParticle(w) && !isMixedCase(w) ? w.lowercased() : properCase(w)
        }.joined(separator: " ")
    }

    /// `A` → `A.`-less initial kept as `A`; other words proper-cased.
    static func properCaseInitial(_ word: String) -> String {
        let bare = stripping(word, ".")
        return bare.count == 1 ? bare.uppercased() : properCase(word)
    }

    static func isMixedCase(_ word: String) -> Bool {
        var upper = false, lower = false
        for scalar in word.unicodeScalars {
            let p = scalar.properties
            if p.changesWhenLowercased { upper = true }
            if p.changesWhenUppercased { lower = true }
            if upper && lower { return true }
        }
        return false
    }

    /// Proper case for a word written all in capitals or all in lower case; mixed case is kept.
    public static func properCase(_ word: String) -> String {
        if let ascii = properCaseASCII(word) { return ascii }
        if isMixedCase(word) { return word }
        return word.split(separator: "-", omittingEmptySubsequences: false).map { part -> String in
            let lower = part.lowercased()
            if let apostrophe = lower.firstIndex(where: { $0 == "'" || $0 == "’" }), lower.distance(from: lower.startIndex, to: apostrophe) == 1 {
                // O'Neil, D'Angelo
                let after = lower.index(after: apostrophe)
                return lower.prefix(1).uppercased() + String(lower[apostrophe]) + capitalized(String(lower[after...]))
            }
            if lower.hasPrefix("mc") && lower.count > 3 {
                return "Mc" + capitalized(String(lower.dropFirst(2)))
            }
            if macNames.contains(lower) {
                return "Mac" + capitalized(String(lower.dropFirst(3)))
            }
            return capitalized(lower)
        }.joined(separator: "-")
    }

    /// `properCase` on the bytes of an ASCII word (the common case), or nil for any other word.
    /// Same rules: mixed case kept; each hyphenated part gets a capital, after `O'` and `Mc`
    /// too, and the listed Mac names.
    static func properCaseASCII(_ word: String) -> String? {
        word.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            var upper = false, lower = false
            for b in bytes {
                if b >= 0x80 { return nil }
                if b >= 0x41 && b <= 0x5A { upper = true } else if b >= 0x61 && b <= 0x7A { lower = true }
            }
            if upper && lower { return word }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count && bytes[end] != UInt8(ascii: "-") { end += 1 }
                    for k in start..<end { out[k] = lowerASCII(bytes[k]) }
                    let count = end - start
                    if count > 0 {
                        out[start] = upperASCII(out[start])
                        if count > 2 && out[start + 1] == UInt8(ascii: "'") {
                            out[start + 2] = upperASCII(out[start + 2])  // O'Neil
                        } else if count > 3 && out[start] == UInt8(ascii: "M") && out[start + 1] == UInt8(ascii: "c") {
                            out[start + 2] = upperASCII(out[start + 2])  // McDonald
                        } else if count > 3 && out[start] == UInt8(ascii: "M") && out[start + 1] == UInt8(ascii: "a") && out[start + 2] == UInt8(ascii: "c"),
                                  macNames.contains(String(decoding: [lowerASCII(out[start])] + out[(start + 1)..<end], as: UTF8.self)) {
                            out[start + 3] = upperASCII(out[start + 3])  // MacDonald
                        }
                    }
                    if end < bytes.count { out[end] = UInt8(ascii: "-") }
                    start = end + 1
                }
                return bytes.count
            }
        } ?? nil
    }

    @inline(__always) static func lowerASCII(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    @inline(__always) static func upperASCII(_ b: UInt8) -> UInt8 { b >= 0x61 && b <= 0x7A ? b & 0xDF : b }

    private static func capitalized(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }
}
