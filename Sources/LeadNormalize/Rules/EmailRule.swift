import LeadCore
import Foundation

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
        var t = input.trimmed
        if t.isEmpty { return result }
        // `Jane Doe <jane@example.com>`
        if let open = t.lastIndex(of: "<"), let close = t.lastIndex(of: ">"), open < close {
            t = String(t[t.index(after: open)..<close])
        }
        if t.lowercased().hasPrefix("mailto:") { t = String(t.dropFirst(7)) }
        if let query = t.firstIndex(of: "?") { t = String(t[..<query]) }
        t = t.filter { !$0.isWhitespace }
        while let last = t.last, ".,;:!)]}>\"'".contains(last) { t.removeLast() }
        while let first = t.first, "([{<\"'".contains(first) { t.removeFirst() }
        guard let at = t.lastIndex(of: "@") else {
            result.problem = "no @ in the address"
            return result
        }
        let local = String(t[..<at])
        let domain = String(t[t.index(after: at)...]).lowercased()
        let address = local + "@" + domain
        result.normalized = address
        if let problem = localProblem(local) ?? domainProblem(domain) ?? (address.utf8.count > 254 ? "longer than 254 characters" : nil) {
            result.problem = problem
        } else {
            result.valid = true
        }
        if let fix = suggestedDomain(domain) { result.suggestion = local + "@" + fix }
        return result
    }

    private static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")

    private static func localProblem(_ local: String) -> String? {
        if local.isEmpty { return "nothing before the @" }
        if local.utf8.count > 64 { return "the part before the @ is longer than 64 characters" }
        if local.contains("@") { return "more than one @" }
        if local.hasPrefix(".") || local.hasSuffix(".") || local.contains("..") { return "a misplaced dot before the @" }
        if let bad = local.first(where: { $0 != "." && !atext.contains($0) }) { return "the character \(bad) is not allowed before the @" }
        return nil
    }

    private static func domainProblem(_ domain: String) -> String? {
        if domain.isEmpty { return "nothing after the @" }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count < 2 { return "the domain has no dot" }
        for label in labels {
            if label.isEmpty { return "a misplaced dot in the domain" }
            if label.utf8.count > 63 { return "a domain label longer than 63 characters" }
            if label.hasPrefix("-") || label.hasSuffix("-") { return "a domain label starts or ends with a hyphen" }
            if !label.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }) { return "the domain has a character that is not allowed" }
        }
        let tld = labels.last!
        if tld.count < 2 || !(tld.allSatisfy { $0.isLetter } || tld.hasPrefix("xn--")) { return "the domain ending .\(tld) is not a real top-level domain" }
        return nil
    }

    /// A common domain one or two edits away (`gmial.com`, `gmail.con`, `yaho.com`), or nil.
    static func suggestedDomain(_ domain: String) -> String? {
        if commonDomains.contains(domain) { return nil }
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
