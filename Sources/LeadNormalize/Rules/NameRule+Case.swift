import LeadCore

/// Proper case for names written all in capitals or all in lower case (McDonald, O'Neil,
/// Smith-Jones, de la Cruz); names already in mixed case (DeShawn) are kept as written.
extension NameRule {
    /// A family name from its own column: `DE LA CRUZ` → `de la Cruz`, `MCDONALD` → `McDonald`.
    public static func properCaseFamily(_ text: String) -> String {
        familyCase(words(text))
    }

    /// Particles stay lower case inside a family name (`de la Cruz`), unless they start it alone.
    static func familyCase(_ words: [String]) -> String {
        if words.count == 1 { return properCase(words[0]) }  // most family names: one word, no particle
        return words.enumerated().map { k, w in
            k < words.count - 1 && isParticle(w) && !isMixedCase(w) && !capitalParticles.contains(key(w) ?? "")
                ? w.lowercased() : properCase(w)
        }.joined(separator: " ")
    }

    /// An initial without its dot (`a.` → `A`); other words proper-cased.
    static func properCaseInitial(_ word: String) -> String {
        isInitial(word) ? word.filter { $0 != "." }.uppercased() : properCase(word)
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
