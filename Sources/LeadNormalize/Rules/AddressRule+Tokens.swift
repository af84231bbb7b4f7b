import LeadCore

/// One word of an address: as written, and its look-up key.
struct AddressToken {
    /// As written, without the dots or colons around it (`Ave.` → `Ave`).
    var text: String
    /// Upper case without dots (`N.W.` → `NW`, `P.O.B.` → `POB`): what the tables are keyed by.
    var key: String
    /// Which comma- or line-separated part of the input it is in.
    var segment: Int
    /// Its place in the input, so that what is left over is given back in order.
    var position: Int
    /// What the tables say of the word.
    var info: WordInfo
    /// Starts with an ASCII digit (`123`, `4B`, `1/2`).
    var startsWithDigit: Bool
    var hasDigit: Bool
    var isAllDigits: Bool

    init(text: String, key: String, segment: Int, position: Int) {
        self.text = text
        self.key = key
        self.segment = segment
        self.position = position
        info = WordInfo.table[key] ?? .none
        var digits = 0
        for b in key.utf8 where Self.isDigit(b) { digits += 1 }
        startsWithDigit = key.utf8.first.map(Self.isDigit) ?? false
        hasDigit = digits > 0
        isAllDigits = digits > 0 && digits == key.utf8.count
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Whether `text` has an ASCII digit (a plain loop: `utf8.contains(where:)` with a function
    /// was not inlined, and cost a call a byte).
    static func hasDigit(_ text: String) -> Bool {
        for b in text.utf8 where isDigit(b) { return true }
        return false
    }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// Upper case without dots, on the bytes when the word is ASCII (most are).
    static func key(of text: String) -> String {
        var ascii = true
        // Read through a buffer: the UTF-8 view of a small (inline) string took each byte out
        // afresh, 450 instructions a word.
        var text = text
        let key = text.withUTF8 { u in
            String(unsafeUninitializedCapacity: u.count) { buffer in
                var n = 0
                for b in u where b != UInt8(ascii: ".") {
                    if b >= 0x80 { ascii = false }
                    buffer[n] = b >= 0x61 && b <= 0x7A ? b - 0x20 : b
                    n += 1
                }
                return n
            }
        }
        if ascii { return key }
        var upper = text.uppercased()
        upper.removeAll { $0 == "." }
        return upper
    }
}

extension AddressRule {
    /// Cuts the input into words: `,` `;` and line breaks end a segment; spaces, tabs and
    /// brackets end a word (`Montréal (Québec)`); `#` is a word of its own (`Apt#4` → `Apt`
    /// `#` `4`); a unit, box or route word glued to its number is split (`APT4`, `RR2`,
    /// `STE305`), as is a state glued to its ZIP (`FL32801`). Marks alone (`-`, `/`) are not words.
    static func tokenize(_ input: String) -> [AddressToken] {
        var tokens: [AddressToken] = []
        tokens.reserveCapacity(16)
        var segment = 0
        let utf8 = input.utf8
        var start = utf8.startIndex
        var index = start
        func flush() {
            if start < index { addWord(input[start..<index], segment: segment, to: &tokens) }
        }
        while index < utf8.endIndex {
            let b = utf8[index]
            switch b {
            case UInt8(ascii: ","), UInt8(ascii: ";"), 0x0A, 0x0D:
                flush()
                segment += 1
                start = utf8.index(after: index)
            case 0x20, 0x09, UInt8(ascii: "("), UInt8(ascii: ")"):
                flush()
                start = utf8.index(after: index)
            case UInt8(ascii: "#"):
                flush()
                tokens.append(AddressToken(text: "#", key: "#", segment: segment, position: tokens.count))
                start = utf8.index(after: index)
            default:
                break
            }
            index = utf8.index(after: index)
        }
        flush()
        mergeGridNumbers(&tokens)
        return tokens
    }

    /// Wisconsin and Illinois grid house numbers written in two words (`N165 W2123`) as one
    /// (`N165W2123`, Publication 28's form).
    private static func mergeGridNumbers(_ tokens: inout [AddressToken]) {
        func axis(_ t: AddressToken) -> UInt8? {
            // A letter then digits: most words are not, and say so in their flags.
            guard !t.startsWithDigit, t.hasDigit else { return nil }
            let u = t.key.utf8
            guard u.count >= 2, let f = u.first, u.dropFirst().allSatisfy(AddressToken.isDigit) else { return nil }
            switch f {
            case UInt8(ascii: "N"), UInt8(ascii: "S"): return 1
            case UInt8(ascii: "E"), UInt8(ascii: "W"): return 2
            default: return nil
            }
        }
        var k = 0
        while k + 1 < tokens.count {
            if tokens[k].segment == tokens[k + 1].segment, let x = axis(tokens[k]), let y = axis(tokens[k + 1]), x != y {
                let a = tokens[k], b = tokens[k + 1]
                tokens[k] = AddressToken(text: a.text + b.text, key: a.key + b.key, segment: a.segment, position: a.position)
                tokens.remove(at: k + 1)
            }
            k += 1
        }
    }

    /// Words that are split from a number glued to them.
    private static let gluedPrefixes: Set<String> = [
        "APT", "STE", "UNIT", "RM", "BLDG", "LOT", "SPC", "TRLR", "SUITE", "FL", "RR", "HC", "HCR", "BOX", "POB",
        "POBOX", "HWY", "RTE", "PSC", "CMR", "RFD", "APP",
    ]

    private static func addWord(_ raw: Substring, segment: Int, to tokens: inout [AddressToken]) {
        // Dots and colons around a word are punctuation (`Ave.`, `Attn:`); inside they stay (`N.W`).
        var word = raw
        while let f = word.utf8.first, f == UInt8(ascii: ".") || f == UInt8(ascii: ":") { word = word.dropFirst() }
        while let l = word.utf8.last, l == UInt8(ascii: ".") || l == UInt8(ascii: ":") { word = word.dropLast() }
        if word.isEmpty || word.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "|") }) { return }
        // En and em dashes (E2 80 93, E2 80 94).
        if word.utf8.count == 3, word.utf8.first == 0xE2 { let b = Array(word.utf8); if b[1] == 0x80 && (b[2] == 0x93 || b[2] == 0x94) { return } }
        let text = String(word)
        let key = AddressToken.key(of: text)
        // A word glued to its number: letters then digits.
        if let first = key.utf8.first, AddressToken.isLetter(first), AddressToken.hasDigit(key) {
            let letters = key.utf8.prefix { AddressToken.isLetter($0) }.count
            let rest = key.utf8.dropFirst(letters)
            if letters >= 2, let r = rest.first, AddressToken.isDigit(r) {
                let prefix = String(key.utf8.prefix(letters))!
                let digits = String(rest)!
                let stateZip = letters == 2 && (digits.utf8.count == 5 || digits.utf8.count == 10) && StateTable.code(forKey: prefix) != nil
                if gluedPrefixes.contains(prefix) || stateZip {
                    // The text's dots are in front of the digits, if anywhere: split the text at its first digit.
                    let cut = text.firstIndex { $0.isASCII && $0.isNumber } ?? text.endIndex
                    var head = String(text[..<cut])
                    while head.hasSuffix(".") { head.removeLast() }
                    tokens.append(AddressToken(text: head, key: prefix, segment: segment, position: tokens.count))
                    tokens.append(AddressToken(text: String(text[cut...]), key: digits, segment: segment, position: tokens.count))
                    return
                }
            }
        }
        tokens.append(AddressToken(text: text, key: key, segment: segment, position: tokens.count))
    }

    /// The tokens' texts joined by spaces, and by `, ` between segments.
    static func joined<C: Collection>(_ tokens: C) -> String? where C.Element == AddressToken {
        guard let first = tokens.first else { return nil }
        if tokens.count == 1 { return first.text }
        var s = ""
        s.reserveCapacity(32)
        var segment = first.segment
        for t in tokens {
            if !s.isEmpty { s += t.segment == segment ? " " : ", " }
            s += t.text
            segment = t.segment
        }
        return s
    }
}
