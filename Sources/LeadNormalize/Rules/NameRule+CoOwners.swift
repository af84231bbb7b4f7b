import LeadCore

/// Three owners or more on one row, joined by `&` or `and`, as county records list them:
/// `SMITH JOHN & MARY & ROBERT` (one family name, written first), `SMITH JOHN & JONES MARY &
/// DOE PAT` (each their own), `SMITH, JOHN & MARY & ROBERT`, `John & Mary & Robert Smith`
/// (the family name written once, last), `John Smith & Mary Jones & Pat Doe`. The first two
/// owners fill the household's fields; the rest are `otherOwners`, in the order written.
extension NameRule {
    /// The owners named by `tokens`, or nil when there are fewer than three (or titles only
    /// stand between the joints: `Mr. & Mrs. …` is read as a couple).
    static func threeOrMore(_ tokens: [String], surnameFirst: Bool) -> PersonName? {
        // Three parts need two joints: most names have none, and no parts are made for them.
        var joints = 0
        for token in tokens where isJoint(token) { joints += 1 }
        guard joints >= 2 else { return nil }
        let parts = tokens.split(whereSeparator: isJoint).map(Array.init)
        guard parts.count >= 3, !parts.contains(where: { leadingPrefixes($0) == $0.count }) else { return nil }
        var people: [PersonName] = []
        if parts[0].contains(","), !parts.dropFirst().joined().contains(",") {
            // `SMITH, JOHN A & MARY B & ROBERT`: the family name once, before a comma.
            people.append(parseOne(parts[0]))
            for part in parts.dropFirst() { people.append(givenOnly(part, family: people[0].family)) }
        } else if surnameFirst, parts[0].count >= 2 {
            people.append(parseSurnameFirst(parts[0]))
            var family = people[0].family
            for part in parts.dropFirst() {
                let (name, own) = nextSurnameFirst(part, after: family)
                if own { family = name.family }
                people.append(name)
            }
        } else {
            // Given names first: the family name stands after the last of those who share it.
            for (k, part) in parts.enumerated() {
                var rest = part
                let prefix = takePrefixes(&rest)
                let onlyGiven = rest.count == 1 || (k < parts.count - 1 && rest.dropFirst().allSatisfy(isInitial))
                var name = onlyGiven ? givenOnly(rest, family: nil) : parseOne(rest)
                name.prefix = prefix ?? name.prefix
                people.append(name)
            }
            var family: String?
            for k in people.indices.reversed() {
                if people[k].family == nil { people[k].family = family } else { family = people[k].family }
            }
        }
        var result = people[0]
        result.household = true
        result.secondPrefix = people[1].prefix
        result.secondGiven = people[1].given
        result.secondMiddle = people[1].middle
        result.secondFamily = people[1].family ?? result.family
        result.otherOwners = people.dropFirst(2).map { CoOwner(prefix: $0.prefix, given: $0.given, middle: $0.middle, family: $0.family) }
        return result
    }

    /// `MARY`, `MARY B`: given and middle names, with the family name of another owner.
    static func givenOnly(_ words: [String], family: String?) -> PersonName {
        var name = PersonName(input: "")
        var rest = words
        name.prefix = takePrefixes(&rest)
        name.given = rest.first.map { properCaseInitial(trimmingDots($0)) }
        if rest.count > 1 { name.middle = rest.dropFirst().map { properCaseInitial(trimmingDots($0)) }.joined(separator: " ") }
        name.family = family
        return name
    }
}
