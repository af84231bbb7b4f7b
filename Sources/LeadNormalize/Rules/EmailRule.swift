import Foundation
import LeadCore
import Synchronization

public struct EmailResult: Sendable, Equatable {
    public var input: String
    public var valid: Bool
    /// The cleaned address (domain lower-cased); nil when nothing address-like was found.
    public var normalized: String?
    /// The likely intended address when the domain looks like a misspelt common one. Never applied.
    public var suggestion: String?
    public var problem: String?
}

/// Cleans and checks email addresses by the practical RFC 5321/5322 rules (no DNS look-up).
public enum EmailRule {
    static let commonDomains = [
        "gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "aol.com", "icloud.com", "live.com",
        "msn.com", "comcast.net", "att.net", "verizon.net", "sbcglobal.net", "me.com", "mac.com",
        "ymail.com", "protonmail.com", "proton.me", "bellsouth.net", "cox.net", "charter.net",
        "earthlink.net", "optonline.net", "gmx.com", "mail.com", "rocketmail.com", "googlemail.com",
    ]

    public static func normalize(_ input: String) -> EmailResult {
        var result = EmailResult(input: input, valid: false)
        var t = Array(input.trimmed.utf8)
        if t.isEmpty { return result }
        // `Jane Doe <jane@example.com>`
        if let open = t.lastIndex(of: UInt8(ascii: "<")), let close = t.lastIndex(of: UInt8(ascii: ">")), open < close {
            t = Array(t[(open + 1)..<close])
        }
        if t.count >= 7, startsWithMailto(t) { t.removeFirst(7) }
        if let query = t.firstIndex(of: UInt8(ascii: "?")) { t.removeSubrange(query...) }
        if t.contains(where: { $0 <= 0x20 }) {
            t.removeAll { $0 == 0x20 || (0x09...0x0D).contains($0) }
        }
        if t.contains(where: { $0 >= 0x80 }) { t = removingUnicodeSpaces(t) }
        while let last = t.last, trailingJunk.contains(last) { t.removeLast() }
        while let first = t.first, leadingJunk.contains(first) { t.removeFirst() }
        guard let at = t.lastIndex(of: UInt8(ascii: "@")) else {
            result.problem = "no @ in the address"
            return result
        }
        let local = t[..<at]
        let domainBytes = t[(at + 1)...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        let domain = domainBytes.allSatisfy { $0 < 0x80 }
            ? String(decoding: domainBytes, as: UTF8.self)
            : String(decoding: t[(at + 1)...], as: UTF8.self).lowercased()
        let localText = String(decoding: local, as: UTF8.self)
        let address = localText + "@" + domain
        result.normalized = address
        if let problem = localProblem(local, localText) ?? domainProblem(domain) ?? (address.utf8.count > 254 ? "longer than 254 characters" : nil) {
            result.problem = problem
        } else {
            result.valid = true
        }
        if let fix = suggestedDomain(domain) { result.suggestion = localText + "@" + fix }
        return result
    }

    /// The bytes without the non-ASCII characters that have Unicode's White_Space property
    /// (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), found
    /// by their UTF-8 bytes.
    static func removingUnicodeSpaces(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            var skip = 0
            if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0x85 || b[i + 1] == 0xA0 {
                skip = 2
            } else if i + 2 < b.count {
                let (x, y, z) = (b[i], b[i + 1], b[i + 2])
                if (x == 0xE1 && y == 0x9A && z == 0x80)
                    || (x == 0xE2 && y == 0x80 && ((0x80...0x8A).contains(z) || z == 0xA8 || z == 0xA9 || z == 0xAF))
                    || (x == 0xE2 && y == 0x81 && z == 0x9F)
                    || (x == 0xE3 && y == 0x80 && z == 0x80) {
                    skip = 3
                }
            }
            if skip > 0 {
                i += skip
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return out
    }

    private static let trailingJunk = Set(".,;:!)]}>\"'".utf8)
    private static let leadingJunk = Set("([{<\"'".utf8)

    /// RFC 5322 atext, by byte.
    private static let atext: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for b in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8 { table[Int(b)] = true }
        return table
    }()

    private static func localProblem(_ local: ArraySlice<UInt8>, _ text: String) -> String? {
        if local.isEmpty { return "nothing before the @" }
        if local.count > 64 { return "the part before the @ is longer than 64 characters" }
        if local.contains(UInt8(ascii: "@")) { return "more than one @" }
        let dot = UInt8(ascii: ".")
        if local.first == dot || local.last == dot || hasDoubleDot(local) {
            return "a misplaced dot before the @"
        }
        if local.contains(where: { $0 != dot && !atext[Int($0)] }) {
            let bad = text.first { $0 != "." && !($0.isASCII && atext[Int($0.asciiValue!)]) }!
            return "the character \(bad) is not allowed before the @"
        }
        return nil
    }

    private static func domainProblem(_ domain: String) -> String? {
        if domain.isEmpty { return "nothing after the @" }
        var text = domain
        return text.withUTF8 { b -> String? in
            guard b.contains(UInt8(ascii: ".")) else { return "the domain has no dot" }
            let hyphen = UInt8(ascii: "-")
            // Label by label, in order, without splitting: [start, end) between the dots.
            var start = 0
            var tld = 0..<0
            while start <= b.count {
                var end = start
                while end < b.count && b[end] != UInt8(ascii: ".") { end += 1 }
                let label = UnsafeBufferPointer(rebasing: b[start..<end])
                if label.isEmpty { return "a misplaced dot in the domain" }
                if label.count > 63 { return "a domain label longer than 63 characters" }
                if label.first == hyphen || label.last == hyphen { return "a domain label starts or ends with a hyphen" }
                if !label.allSatisfy({ isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == hyphen }) { return "the domain has a character that is not allowed" }
                tld = start..<end
                start = end + 1
            }
            let last = UnsafeBufferPointer(rebasing: b[tld])
            if last.count < 2 || !(last.allSatisfy(isASCIILetter) || last.starts(with: "xn--".utf8)) {
                return "the domain ending .\(String(decoding: last, as: UTF8.self)) is not a real top-level domain"
            }
            return nil
        }
    }

    /// `mailto:` in any case at the start.
    private static func startsWithMailto(_ t: [UInt8]) -> Bool {
        var k = 0
        for m in "mailto:".utf8 {
            guard t[k] | 0x20 == m | 0x20 else { return false }
            k += 1
        }
        return true
    }

    private static func hasDoubleDot(_ local: ArraySlice<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for b in local {
            if b == UInt8(ascii: ".") && previous == UInt8(ascii: ".") { return true }
            previous = b
        }
        return false
    }

    private static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// A common domain one or two edits away (`gmial.com`, `gmail.con`, `yaho.com`), or nil.
    static func suggestedDomain(_ domain: String) -> String? {
        if commonDomainSet.contains(domain) { return nil }
        // Lists repeat their domains; the answer for each is worked out once.
        if let known = suggestionCache.withLock({ $0[domain] }) { return known }
        let answer = closestCommonDomain(domain)
        suggestionCache.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[domain] = answer
        }
        return answer
    }

    private static let commonDomainSet = Set(commonDomains)
    private static let suggestionCache = Mutex<[String: String?]>([:])

    private static func closestCommonDomain(_ domain: String) -> String? {
        var best: (String, Int)?
        for candidate in commonDomains {
            let limit = candidate.count >= 9 ? 2 : 1
            let d = editDistance(domain, candidate, limit: limit)
            if d <= limit, best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    /// Optimal string alignment distance (a swap of neighbours counts as one edit).
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let x = Array(a.utf8), y = Array(b.utf8)
        if abs(x.count - y.count) > limit { return limit + 1 }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            current[0] = i
            for j in 1...max(y.count, 1) where !y.isEmpty {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return x.isEmpty ? y.count : previous[y.count]
    }
}
