/// Owners that are not people: companies (`ACME PROPERTIES LLC`), trusts, estates
/// (`ESTATE OF MARY JONES`), banks, churches, governments (`CITY OF BOSTON`), associations and
/// the federal housing agencies (FNMA, FHLMC, HUD, the Secretary of Housing and Urban
/// Development, the Secretary of Veterans Affairs). Recognised by their words, the way county
/// assessors' owner rolls write them; the name is given back in a mailing's case: words
/// title-cased, legal forms and acronyms in capitals (`Acme Properties LLC`).
enum EntityName {
    /// The entity's name, cased, when `words` (`NameRule.words`) name one; nil for a person.
    static func recognize(_ words: [String]) -> String? {
        let keys = words.map { NameRule.key($0) ?? $0.lowercased() }
        guard isEntity(words, keys) else { return nil }
        // A government in county order (`AUSTIN CITY OF`, `TEXAS STATE OF`) is addressed as it
        // names itself: City of Austin.
        let n = keys.count
        if n >= 3, keys[n - 1] == "of", ["city", "county", "state", "town", "village"].contains(keys[n - 2]) {
            return cased(Array(words[(n - 2)...]) + words[..<(n - 2)])
        }
        return cased(words)
    }

    static func isEntity(_ words: [String], _ keys: [String]) -> Bool {
        // Most names have none of the words any reading below needs: one look-up a word.
        guard keys.contains(where: cues.contains) else { return false }
        for (k, key) in keys.enumerated() {
            // Hoa is a Vietnamese given name (NGUYEN THI HOA), not a homeowners' association.
            if strong.contains(key), key != "hoa" || !words.contains(where: NameRule.isVietnamese) { return true }
            // N.A. (a national bank) only with its dots: Na is a family name.
            if key == "na", words[k].contains("."), k > 0 { return true }
            let next = k + 1 < keys.count ? keys[k + 1] : nil
            if next == "of", ofPhrases.contains(key) { return true }
            // `HABITAT FOR HUMANITY`, `FRIENDS FOR LIFE`: no person's name has `for` inside it.
            if key == "for", k > 0, k < keys.count - 1 { return true }
            // County order puts the place first: `AUSTIN CITY OF`, `TEXAS STATE OF`, `TRAVIS COUNTY`.
            if k == keys.count - 1, k > 0, (key == "of" && ofPhrases.contains(keys[k - 1])) || key == "county" { return true }
            // `GRACE CHURCH`, `BETHEL TEMPLE`: two words naming a place of worship, the first not
            // a given name (`MARY CHURCH` is a person) unless it names churches (Grace, Faith).
            if worship.contains(key), k == 1, keys.count == 2, !GivenNames.contains(words[0]) || churchNames.contains(keys[0]) {
                return true
            }
            if trustKinds.contains(key), let next, ["tr", "trs", "trust", "trst"].contains(next) { return true }  // SMITH JOHN REV TR
            if weak.contains(key) {
                // `FIRST BAPTIST CHURCH`, `CHURCH OF GOD`, `ACME CO`; but `JOHN CHURCH` and
                // `CHURCH JOHN A` are people.
                if next == "of" || (k == keys.count - 1 && keys.count >= 3 && !isPersonShape(words))
                    || (key == "co" && k == keys.count - 1 && k > 0 && !GivenNames.contains(words[0])) {
                    return true
                }
            }
        }
        for (a, b) in pairs {
            if let i = keys.firstIndex(of: a), i + 1 < keys.count, keys[i + 1] == b { return true }
        }
        return false
    }

    /// `Mary Ann Church`, `John A Church`, `Pastor John Board`: a title, or a given name, a second
    /// given name or an initial, and a family name that is also an entity's word.
    static func isPersonShape(_ words: [String]) -> Bool {
        if NameRule.leadingPrefixes(words) > 0 { return true }
        return words.count == 3 && GivenNames.contains(words[0]) && (NameRule.isInitial(words[1]) || GivenNames.contains(words[1]))
    }

    /// Words that name an entity wherever they stand (keys: lower case, no dots).
    static let strong: Set<String> = [
        "llc", "pllc", "lllp", "llp", "lp", "inc", "incorporated", "corp", "corporation", "ltd", "limited", "plc",
        "trust", "trusts", "bank", "bancorp", "association", "assn", "assoc", "hoa", "poa", "partners", "partnership",
        "holdings", "authority", "fnma", "fhlmc", "gnma", "hud", "investments", "properties", "realty", "ventures",
        "enterprises", "development", "developers", "management", "mgmt", "builders", "construction", "company",
        "foundation", "ministries", "diocese", "congregation", "university", "hospital", "apartments",
        "condominium", "condominiums", "cooperative", "mortgage", "housing", "dept", "department", "government",
        "commonwealth", "municipality", "township", "twp", "borough", "services", "financial", "lending",
        "funding", "reit", "dba", "trst", "usda", "usa", "tabernacle", "cathedral", "synagogue", "mosque",
    ]

    /// Places of worship whose names are also family names (Church, Temple, Chapel).
    static let worship: Set<String> = ["church", "temple", "chapel"]

    /// Given names that name churches too (`GRACE CHURCH`, `FAITH TEMPLE`).
    static let churchNames: Set<String> = ["grace", "faith", "hope", "trinity", "christian", "victory", "emmanuel", "immanuel", "joy"]

    /// Words that are also family names (Church, Temple, Parish): an entity's only when they
    /// end a name of three words or more, or come before `of`.
    static let weak: Set<String> = [
        "church", "temple", "lodge", "capital", "group", "club", "co", "union", "school", "schools", "academy",
        "fellowship", "parish", "society", "district", "college", "homes", "fund", "agency", "commission", "board", "chapel",
    ]

    /// Words that start an entity's name before `of`: `CITY OF BOSTON`, `ESTATE OF MARY JONES`.
    static let ofPhrases: Set<String> = [
        "city", "county", "state", "town", "village", "estate", "est", "secretary", "sec", "secy", "administrator", "people", "board",
        "heirs",
    ]

    /// Words before `TR` that make it a trust (`REV TR`, `LIVING TR`), not a trustee.
    static let trustKinds: Set<String> = ["rev", "revoc", "revocable", "irrev", "irrevocable", "liv", "living", "fam", "family", "land", "marital", "bypass"]

    /// Abbreviations of a trust's name written out (`SMITH JOHN REV TR` → `Smith John Revocable Trust`).
    static let expansions: [String: String] = [
        "tr": "Trust", "trs": "Trust", "trst": "Trust", "rev": "Revocable", "revoc": "Revocable", "irrev": "Irrevocable", "liv": "Living", "fam": "Family",
    ]

    /// Two words that together name an entity.
    static let pairs: [(String, String)] = [
        ("fannie", "mae"), ("freddie", "mac"), ("ginnie", "mae"), ("united", "states"), ("veterans", "affairs"),
    ]

    /// Every word `isEntity` can start from (a name without one is a person's): the sets above,
    /// the first words of the pairs, and `of`, `for`, `county` and `na`.
    static let cues: Set<String> = strong.union(weak).union(worship).union(trustKinds)
        .union(pairs.map(\.0)).union(["of", "for", "county", "na"])
}
