/// RFC 5321 §4.1.2 (Mailbox: Dot-string or Quoted-string, then a domain or an address
/// literal, §4.1.3), its §4.5.3.1 limits, RFC 6531/6532's UTF-8 in both parts, and RFC 6761,
/// 6762 and 7686's special-use names, which no mail reaches.
extension EmailRule {
    struct Address {
        /// The local part exactly as written (a quoted one with its quotes).
        var local: String
        /// The domain in lower case, or the address literal exactly as written.
        var domain: String
        var text: String { local + "@" + domain }
    }

    struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static let specialUseTopLevel: Set<String> = ["arpa", "invalid", "local", "localhost", "onion", "test"]

    /// The address when the bytes are one valid RFC 5321 / 6531 mailbox, nothing around it.
    static func check(_ b: [UInt8]) -> Result<Address, Problem> {
        guard !b.isEmpty else { return .failure(Problem("empty")) }
        // The local part ends at its closing quote, or at the first @.
        let at: Int
        if b[0] == UInt8(ascii: "\"") {
            guard let close = closingQuote(b) else { return .failure(Problem("a quoted local part is not closed or has a character not allowed")) }
            guard close + 1 < b.count, b[close + 1] == UInt8(ascii: "@") else {
                return .failure(Problem(close + 1 < b.count ? "text after the quoted local part" : "no @ in the address"))
            }
            at = close + 1
        } else {
            guard let first = b.firstIndex(of: UInt8(ascii: "@")) else { return .failure(Problem("no @ in the address")) }
            if let problem = dotStringProblem(b[..<first]) { return .failure(problem) }
            at = first
        }
        if at > 64 { return .failure(Problem("the part before the @ is longer than 64 octets")) }
        let domainBytes = b[(at + 1)...]
        if domainBytes.isEmpty { return .failure(Problem("nothing after the @")) }
        if domainBytes.contains(UInt8(ascii: "@")) { return .failure(Problem("more than one @")) }
        let domain: String
        if domainBytes.first == UInt8(ascii: "[") {
            if let problem = addressLiteralProblem(domainBytes) { return .failure(problem) }
            domain = String(decoding: domainBytes, as: UTF8.self)
        } else {
            if domainBytes.count > 255 { return .failure(Problem("the domain is longer than 255 octets")) }
            if let problem = domainProblem(domainBytes) { return .failure(problem) }
            domain = lowerCased(domainBytes)
        }
        // The path `<local@domain>` is at most 256 octets.
        if b.count > 254 { return .failure(Problem("longer than 254 octets")) }
        return .success(Address(local: String(decoding: b[..<at], as: UTF8.self), domain: domain))
    }

    /// RFC 5322 atext, by byte.
    private static let atext: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8 { table[Int(b)] = true }
        return table
    }()

    /// Dot-string: atoms of atext (or UTF-8 beyond ASCII) joined by single dots.
    private static func dotStringProblem(_ local: ArraySlice<UInt8>) -> Problem? {
        if local.isEmpty { return Problem("nothing before the @") }
        let dot = UInt8(ascii: ".")
        if local.first == dot || local.last == dot { return Problem("a dot at the start or end of the part before the @") }
        var previous: UInt8 = 0
        let atext = atext  // the table once, not its lazy global at every byte
        for b in local {
            if b == dot && previous == dot { return Problem("two dots in a row before the @") }
            previous = b
            if b == dot || b >= 0x80 || atext[Int(b)] { continue }
            return Problem(b == 0x20 ? "a space in the address" : "the character \(Character(Unicode.Scalar(b))) is not allowed before the @")
        }
        return nonASCIIProblem(local)
    }

    /// The index of the quote closing a Quoted-string that starts at 0 (qtextSMTP, a quoted
    /// pair of printable ASCII, or UTF-8 beyond ASCII), or nil.
    private static func closingQuote(_ b: [UInt8]) -> Int? {
        var k = 1
        while k < b.count {
            let c = b[k]
            if c == UInt8(ascii: "\"") { return nonASCIIProblem(b[1..<k]) == nil ? k : nil }
            if c == UInt8(ascii: "\\") {
                guard k + 1 < b.count, b[k + 1] >= 0x20, b[k + 1] <= 0x7E else { return nil }
                k += 2
                continue
            }
            guard (c >= 0x20 && c <= 0x7E) || c >= 0x80 else { return nil }
            k += 1
        }
        return nil
    }

    /// UTF-8 beyond ASCII is allowed (RFC 6532) except white space and control characters.
    private static func nonASCIIProblem(_ b: ArraySlice<UInt8>) -> Problem? {
        guard b.contains(where: { $0 >= 0x80 }) else { return nil }
        for scalar in String(decoding: b, as: UTF8.self).unicodeScalars where scalar.value >= 0x80 {
            let p = scalar.properties
            if p.isWhitespace { return Problem("a space in the address") }
            if p.generalCategory == .control || p.generalCategory == .format || p.generalCategory == .unassigned {
                return Problem("a control or invisible character in the address")
            }
        }
        return nil
    }

    /// Letters, digits and hyphens in labels of 1 to 63 octets that neither start nor end with
    /// a hyphen; a U-label's characters are letters, marks and digits. At least two labels;
    /// the last is letters (or an `xn--` A-label) and not a special-use name.
    private static func domainProblem(_ b: ArraySlice<UInt8>) -> Problem? {
        let hyphen = UInt8(ascii: "-"), dot = UInt8(ascii: ".")
        guard b.contains(dot) else { return Problem("the domain has no dot") }
        var start = b.startIndex
        var last = b[b.startIndex..<b.startIndex]
        while start <= b.endIndex {
            var end = start
            while end < b.endIndex && b[end] != dot { end += 1 }
            let label = b[start..<end]
            if label.isEmpty { return Problem("a misplaced dot in the domain") }
            if label.count > 63 { return Problem("a domain label longer than 63 octets") }
            if label.first == hyphen || label.last == hyphen { return Problem("a domain label starts or ends with a hyphen") }
            for c in label where !(isASCIILetter(c) || isDigit(c) || c == hyphen || c >= 0x80) {
                return Problem(c == 0x20 ? "a space in the address" : "the domain has a character that is not allowed")
            }
            if label.contains(where: { $0 >= 0x80 }), !isULabel(label) { return Problem("the domain has a character that is not allowed") }
            last = label
            start = end + 1
        }
        // Most top-level labels are two, three or six ASCII letters, lengths no special-use
        // name has: valid, said from the bytes with no string made.
        if last.count == 2 || last.count == 3 || last.count == 6, last.allSatisfy(isASCIILetter) { return nil }
        let tld = lowerCased(last)
        if specialUseTopLevel.contains(tld) { return Problem("the domain .\(tld) is a special-use name that mail cannot reach") }
        let isALabel = tld.hasPrefix("xn--") && tld.utf8.count > 4
        let letters = tld.unicodeScalars.allSatisfy { $0.isASCII ? isASCIILetter(UInt8($0.value)) : $0.properties.isAlphabetic }
        if !(isALabel || (letters && tld.unicodeScalars.count >= 2)) {
            return Problem("the domain ending .\(tld) is not a real top-level domain")
        }
        return nil
    }

    /// A label with non-ASCII characters: letters, marks, digits and hyphens only.
    private static func isULabel(_ label: ArraySlice<UInt8>) -> Bool {
        String(decoding: label, as: UTF8.self).unicodeScalars.allSatisfy { s in
            if s.isASCII { return true }
            switch s.properties.generalCategory {
            case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: return true
            default: return false
            }
        }
    }

    static func lowerCased(_ b: ArraySlice<UInt8>) -> String {
        if b.allSatisfy({ $0 < 0x80 }) {
            // Written straight into the string: no array of the lowered bytes first.
            return String(unsafeUninitializedCapacity: b.count) { out in
                var n = 0
                for c in b {
                    out[n] = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
                    n += 1
                }
                return n
            }
        }
        return String(decoding: b, as: UTF8.self).lowercased()
    }

    @inline(__always) static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
