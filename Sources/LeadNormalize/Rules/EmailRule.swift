import Foundation
import LeadCore

public struct EmailResult: Sendable, Equatable {
    public var input: String
    public var valid: Bool
    /// The address with its domain in lower case; only when `valid`.
    public var normalized: String?
    /// The likely intended address (stray spaces or marks taken out, a misspelt common domain
    /// put right). Never applied: an address that needs it is not `valid`, or keeps its
    /// own spelling in `normalized`.
    public var suggestion: String?
    public var problem: String?
    /// What was taken off a valid address copied with a mark after it (`trailing "," removed`).
    public var repair: String?
}

/// Checks email addresses by RFC 5321's rules for an SMTP path, with RFC 6531's
/// internationalised addresses (no DNS look-up). The address may come as RFC 5322's
/// `Name <address>` or as a `mailto:` link; nothing else about it is changed: an address that
/// needs repair is invalid, and the repair is offered as `suggestion`. Two exceptions, neither
/// a guess: a `,` `;` or `.` copied along after an otherwise valid address is taken off (and
/// said in `repair`), and a Unicode address is put in NFC with its IDN domain in Unicode
/// (RFC 6532; EmailRule+Unicode).
public enum EmailRule {
    public static func normalize(_ input: String) -> EmailResult {
        var result = EmailResult(input: input, valid: false)
        let text = composed(input.trimmed)
        if text.isEmpty { return result }
        let whole = Array(text.utf8)
        var bytes = extracted(whole)
        // Checked once: the answer is kept for the switch below.
        var checked = check(bytes)
        if case .failure = checked, let mark = whole.last, copiedMarks.contains(mark) {
            // `bob@example.com,` (or `Bob <bob@example.com>,`) copied from a list: valid once
            // the marks after it are off.
            var cut = whole
            while let last = cut.last, copiedMarks.contains(last) { cut.removeLast() }
            let inner = extracted(cut)
            let innerChecked = check(inner)
            if case .success = innerChecked {
                result.repair = "trailing \"\(String(decoding: whole[cut.count...], as: UTF8.self))\" removed"
                (bytes, checked) = (inner, innerChecked)
            }
        }
        switch checked {
        case .success(let address):
            result.valid = true
            result.normalized = Joining.joined(address.local, "@", unicodeDomain(address.domain))
            if let fix = suggestedDomain(address.domain) { result.suggestion = Joining.joined(address.local, "@", fix) }
        case .failure(let problem):
            result.problem = problem.message
            if let repaired = repaired(bytes), repaired != text { result.suggestion = repaired }
        }
        return result
    }

    /// The addr-spec inside `Display Name <addr-spec>`, or after `mailto:` (its `?query`
    /// dropped); otherwise the bytes as they are.
    static func extracted(_ t: [UInt8]) -> [UInt8] {
        if t.last == UInt8(ascii: ">"), let open = t.lastIndex(of: UInt8(ascii: "<")) {
            return Array(t[(open + 1)..<(t.count - 1)])
        }
        if t.count > 7, startsWithMailto(t) {
            var rest = Array(t[7...])
            if let query = rest.firstIndex(of: UInt8(ascii: "?")) { rest.removeSubrange(query...) }
            return rest
        }
        return t
    }

    /// What a person most likely meant: white space (ASCII and Unicode) taken out, marks
    /// around the address dropped, a misspelt common domain put right. Nil unless the result
    /// is a valid address.
    static func repaired(_ b: [UInt8]) -> String? {
        var t = b.filter { $0 != 0x20 && !(0x09...0x0D).contains($0) }
        if t.contains(where: { $0 >= 0x80 }) { t = removingUnicodeSpaces(t) }
        if t.count > 7, startsWithMailto(t) { t = extracted(t) }
        while let last = t.last, trailingJunk.contains(last) { t.removeLast() }
        while let first = t.first, leadingJunk.contains(first) { t.removeFirst() }
        guard let at = t.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        let local = String(decoding: t[..<at], as: UTF8.self)
        let domain = String(decoding: t[(at + 1)...], as: UTF8.self).lowercased()
        let candidate = local + "@" + (suggestedDomain(domain) ?? domain)
        guard case .success(let address) = check(Array(candidate.utf8)) else { return nil }
        return address.text
    }

    private static let trailingJunk = Set(".,;:!)]}>\"'".utf8)
    /// Marks a list leaves after an address it separates or ends.
    private static let copiedMarks = Set(",;.".utf8)
    private static let leadingJunk = Set("([{<\"'".utf8)

    /// `mailto:` in any case at the start.
    private static func startsWithMailto(_ t: [UInt8]) -> Bool {
        var k = 0
        for m in "mailto:".utf8 {
            guard t[k] | 0x20 == m | 0x20 else { return false }
            k += 1
        }
        return true
    }

    /// The bytes without the non-ASCII characters that have Unicode's White_Space property
    /// (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), found
    /// by their UTF-8 bytes.
    static func removingUnicodeSpaces(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let skip = unicodeSpaceLength(b, at: i)
            if skip > 0 {
                i += skip
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return out
    }

    /// The length in bytes of the non-ASCII White_Space character at `i`, or 0.
    static func unicodeSpaceLength(_ b: [UInt8], at i: Int) -> Int {
        if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0x85 || b[i + 1] == 0xA0 { return 2 }
        guard i + 2 < b.count else { return 0 }
        let (x, y, z) = (b[i], b[i + 1], b[i + 2])
        if (x == 0xE1 && y == 0x9A && z == 0x80)
            || (x == 0xE2 && y == 0x80 && ((0x80...0x8A).contains(z) || z == 0xA8 || z == 0xA9 || z == 0xAF))
            || (x == 0xE2 && y == 0x81 && z == 0x9F)
            || (x == 0xE3 && y == 0x80 && z == 0x80) {
            return 3
        }
        return 0
    }
}
