/// The line a mailing greets or addresses its recipient by: an organisation's name
/// (`Acme Properties LLC`), a couple (`John & Mary Smith`, `John Smith & Mary Jones`,
/// `Mr. & Mrs. Craig Courville`), three owners or more (`John, Mary & Robert Smith`,
/// `John Smith, Mary Jones & Pat Doe`), one person (`John Smith Jr`, `Mr. Smith`, `The Smith Family`),
/// or `Current Resident` when there is no usable name. Middle names, credentials and
/// record designations are left out, as mail is addressed.
public enum Salutation {
    public static let noName = "Current Resident"

    public static func of(organization: String?, prefix: String?, given: String?, family: String?, suffix: String?,
                          household: Bool, secondPrefix: String?, secondGiven: String?, secondFamily: String?,
                          others: [CoOwner] = []) -> String {
        if let organization = usable(organization) { return organization }
        let given = usable(given), family = usable(family)
        if household, !others.isEmpty, given != nil {
            return names([(given, family), (secondGiven, secondFamily ?? family)] + others.map { ($0.given, $0.family) })
        }
        if household, let second = usable(secondGiven), let given {
            let secondFamily = usable(secondFamily)
            if secondFamily == nil || secondFamily == family {
                return join(given + " & " + second, family)
            }
            return join(given, family) + " & " + join(second, secondFamily)
        }
        if household, usable(secondGiven) == nil, let first = usable(prefix), let second = usable(secondPrefix), family != nil {
            return join(titled(first) + " & " + titled(second), join(given, family))  // Mr. & Mrs. Craig Courville
        }
        let generation = generationOf(suffix)
        switch (given, family) {
        case let (given?, family?): return join(join(given, family), generation)
        case let (nil, family?): return usable(prefix).map { titled($0) + " " + family } ?? "The \(family) Family"
        case let (given?, nil): return given
        case (nil, nil): return noName
        }
    }

    /// Owners as one line: the given names of neighbours sharing a family name listed before it
    /// once (`John, Mary & Robert Smith`), the groups joined by commas and a final `&`
    /// (`John & Mary Smith & Pat Jones`, `John Smith, Mary Jones & Pat Doe`). An owner without
    /// a family name takes the one before it; one with no name at all is left out.
    public static func names(_ people: [(given: String?, family: String?)]) -> String {
        var groups: [(givens: [String], family: String?)] = []
        for person in people {
            let family = usable(person.family) ?? groups.last?.family
            guard let given = usable(person.given) else {
                if let family, groups.last?.family != family { groups.append(([], family)) }
                continue
            }
            if let last = groups.last, last.family == family {
                groups[groups.count - 1].givens.append(given)
            } else {
                groups.append(([given], family))
            }
        }
        return list(groups.map { $0.givens.isEmpty ? $0.family ?? "" : join(list($0.givens), $0.family) })
    }

    /// `A`, `A & B`, `A, B & C`: the items not blank.
    public static func list(_ items: [String?]) -> String {
        let items = items.compactMap(usable)
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " & " + items[items.count - 1]
    }

    private static func usable(_ s: String?) -> String? {
        guard let s, s.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
        return s
    }

    private static func join(_ a: String, _ b: String?) -> String { b.map { a + " " + $0 } ?? a }
    private static func join(_ a: String?, _ b: String?) -> String { a.map { join($0, b) } ?? b ?? "" }

    /// The generation among a name's suffixes (`Jr`, `III`), which a mailing keeps.
    private static func generationOf(_ suffix: String?) -> String? {
        suffix?.split(separator: ",").map { String($0.drop { $0 == " " }) }
            .first { ["Jr", "Sr", "II", "III", "IV", "V", "2nd", "3rd"].contains($0) }
    }

    /// A title as a mailing writes it: abbreviations with their dot (`Mr.`, `Lt. Col.`).
    private static func titled(_ prefix: String) -> String {
        prefix.split(separator: " ").map { word in
            abbreviations.contains(String(word)) ? word + "." : String(word)
        }.joined(separator: " ")
    }

    private static let abbreviations: Set<String> = [
        "Mr", "Mrs", "Ms", "Dr", "Drs", "Rev", "Hon", "Prof", "Sen", "Rep", "Gov", "Capt", "Sgt", "Lt", "Col", "Maj",
        "Gen", "Atty", "Fr", "Msgr", "Cmdr", "Adm", "Cpl",
    ]
}

extension Lead {
    /// The line a mailing addresses this lead by (`Salutation`).
    public var salutation: String {
        Salutation.of(organization: organization, prefix: prefix, given: givenName, family: familyName, suffix: suffix,
                      household: household, secondPrefix: secondPrefix, secondGiven: secondGivenName, secondFamily: secondFamilyName,
                      others: otherOwners)
    }
}
