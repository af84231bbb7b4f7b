import Synchronization

/// Misspelt common domains (`gmial.com`, `yahoo.con`): the suggestion, never applied.
extension EmailRule {
    static let commonDomains = [
        "gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "aol.com", "icloud.com", "live.com",
        "msn.com", "comcast.net", "att.net", "verizon.net", "sbcglobal.net", "me.com", "mac.com",
        "ymail.com", "protonmail.com", "proton.me", "bellsouth.net", "cox.net", "charter.net",
        "earthlink.net", "optonline.net", "gmx.com", "mail.com", "rocketmail.com", "googlemail.com",
    ]

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
