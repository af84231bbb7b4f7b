/// An organisation's name in the case a mailing writes it, from owner rolls written in
/// capitals. Ordinary words are title-cased and small words lower case inside the name
/// (`First Baptist Church of Dallas`); legal forms are written as the entities write them
/// (`LLC`, `LP`, `N.A.` in capitals; `Inc`, `Corp`, `Co`, `Ltd` title-cased); and acronyms stay
/// in capitals (`ABC Realty LLC`, `JPM Holdings LLC`, `US Bank N.A.`).
///
/// Which short words are acronyms (the heuristic):
///
/// | word | cased | why |
/// | --- | --- | --- |
/// | a legal form or agency (`LLC`, `HUD`, `FNMA`) | its own table | written one way |
/// | two letters or more, no vowel (`JMK`, `TD`, `RBC`) | capitals | unless an abbreviation (`ST`, `MGMT`) or a name (`NG`) |
/// | two or three letters, in `shortWords` (`OAK`, `NEW`, `ONE`, `LEE`) | title case | an English word or a name |
/// | two or three letters otherwise (`ABC`, `JPM`, `AAA`) | capitals | initials |
/// | letters joined by `&` (`AT&T`, `M&T`) | capitals | initials |
/// | longer words | title case | |
///
/// What it gets wrong: an unlisted three-letter word (`HUB` → `HUB`), and an acronym of four
/// letters or more with a vowel (`NAACP` → `Naacp`). Words already in mixed case are kept.
extension EntityName {
    /// Legal forms and agencies kept in capitals, by key.
    static let capitals: Set<String> = [
        "llc", "pllc", "lllp", "llp", "lp", "plc", "pc", "pa", "na", "hoa", "poa", "fnma", "fhlmc", "gnma", "hud", "fha", "va",
        "usda", "usa", "us", "ii", "iii", "iv", "dba", "fsb", "reit", "ymca", "ywca", "tr",
    ]

    /// Legal forms written title-cased, as the companies write them (`Apple Inc`, `Wells Fargo & Co`).
    static let titledForms: [String: String] = ["inc": "Inc", "corp": "Corp", "co": "Co", "ltd": "Ltd", "assn": "Assn", "assoc": "Assoc"]

    /// Small words kept in lower case inside a name.
    static let small: Set<String> = ["of", "and", "the", "for", "in", "at", "on", "by", "to", "de", "la", "del"]

    /// Vowel-less words that are abbreviations or names, not initials.
    static let abbreviations: Set<String> = [
        "st", "mt", "ft", "dr", "jr", "sr", "mr", "mrs", "ms", "pl", "blvd", "bldg", "mgmt", "svc", "svcs", "natl", "intl",
        "twp", "hwy", "pkwy", "ctr", "dept", "ng", "wm", "chas", "thos",
    ]

    /// Words of two or three letters that are English words or names, title-cased; any other
    /// word that short is read as initials.
    static let shortWords: Set<String> = Set("""
        ace act add age ago aid aim air all and ant any ape apt arc are ark arm art ash ask ate awe axe bad bag ban bar bat bay \
        bed bee beg bet bid big bin bit bog bow box boy bud bug bun bus but buy cab can cap car cat cob cod cog cot cow cub cue \
        cup cut dam day den dew did die dig dim din dip doe dog don dot dry dub due dug dun duo dye ear eat ebb eel egg ego elf \
        elk elm emu end era eve ewe eye fan far fat fax fed fee few fig fin fir fit fix fly foe fog for fox fry fun fur gap gas \
        gel gem get gig gin god got gum gun gut guy gym had hag ham has hat hay hen her hew hex hey hid him hip his hit hob hog \
        hop hot how hub hue hug hum hut ice icy ill imp ink inn ion ire irk its ivy jab jam jar jaw jay jet jig job jog jot joy \
        jug jut keg key kid kin kit lab lad lag lap law lay led leg let lid lie lip lit log lot low mad man map mat maw may men \
        met mid mix mob mod mom mop mud mug nab nag nap net new nil nip nod nor not now nun nut oaf oak oar oat odd ode off oft \
        oil old one opt orb ore our out owe owl own pad pal pan pap par pat paw pay pea peg pen pep per pet pew pie pig pin pit \
        ply pod pop pot pro pry pub pun pup put rag ram ran rap rat raw ray red rib rid rig rim rip rob rod roe rot row rub rug \
        rum run rut rye sad sag sap sat saw say sea see set sew she shy sin sip sir sis sit six ski sky sly sob sod son sow soy \
        spa spy sub sue sum sun tab tad tag tan tap tar tax tea tee ten the tie tin tip toe ton too top tot tow toy try tub tug \
        two urn use van vat vet vex via vie vow wad wag war was wax way web wed wee wet who why wig win wit woe wok won woo wow \
        yak yam yap yaw yea yes yet yew you zap zen zip zoo \
        am an as at be by do go he if in is it me my no of oh ok on or ox so to up we \
        al ed jo bo cy ty li wu ho ma yu le vu ly ha hu ku \
        los las el san sta ste des du von der den dos das ave rio \
        abe ada amy ann ava ben bob cal dan deb dee eli eva gus ian ida jan jim joe jon kay ken kim lee lou luz max meg mel \
        mae mac sec est nan ned pam pat peg ray rex rod ron roy sal sam ted tim tom val wes ali ngo lam lin tan lau yee fong chu cox orr poe
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// The words as a mailing writes an organisation: `ACME PROPERTIES L.L.C.` → `Acme Properties L.L.C.`,
    /// `FIRST CHURCH OF GOD` → `First Church of God`; words already in mixed case are kept.
    static func cased(_ words: [String]) -> String {
        let keys = words.map { NameRule.key($0) ?? "" }
        let trustWords: Set<String> = ["tr", "trs", "trust", "trst"]
        /// A word of a trust's name: `REV TR`, `LIVING TR` (but `LAND TRUST CO TR 8002` keeps its TR).
        /// Also a run of them: `REV LIV TR` → `Revocable Living Trust`.
        func inTrustName(_ k: Int) -> Bool {
            if trustWords.contains(keys[k]) { return k > 0 && trustKinds.contains(keys[k - 1]) }
            var next = k
            while next < keys.count, trustKinds.contains(keys[next]) { next += 1 }
            return next > k && next < keys.count && trustWords.contains(keys[next])
        }
        var out = ""
        for (k, word) in words.enumerated() {
            if word == "," { out += ","; continue }
            if !out.isEmpty { out += " " }
            // A trust's abbreviations are written out: `REV TR` → `Revocable Trust`.
            if inTrustName(k) || keys[k] == "trst", !NameRule.isMixedCase(word), let long = expansions[keys[k]], k > 0 { out += long; continue }
            out += casedWord(word, first: k == 0)
        }
        return out
    }

    static func casedWord(_ word: String, first: Bool) -> String {
        if NameRule.isMixedCase(word) { return word }
        let key = NameRule.key(word) ?? word.lowercased()
        if capitals.contains(key) { return word.uppercased() }
        if let form = titledForms[key] { return word.hasSuffix(".") ? form + "." : form }
        if !first, small.contains(key) { return word.lowercased() }
        let letters = key.filter(\.isLetter)
        guard letters.count == key.count || word.contains("&") else { return NameRule.properCase(word) }  // 1ST, 3M: as written
        if word.contains("&"), letters.count <= 4 { return word.uppercased() }  // AT&T, M&T
        if letters.count >= 2, !letters.contains(where: "aeiouy".contains), !abbreviations.contains(key) {
            return word.uppercased()  // JMK PROPERTIES LLC: initials
        }
        if (2...3).contains(letters.count), !shortWords.contains(key), !abbreviations.contains(key), !GivenNames.contains(key) { return word.uppercased() }  // ABC, JPM
        return NameRule.properCase(word)
    }
}
