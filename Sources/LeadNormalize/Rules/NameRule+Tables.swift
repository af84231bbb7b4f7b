/// The words a name parser must know: titles, suffixes (credentials and generations) and the
/// particles that belong to a family name. Keys are lower case without dots.
extension NameRule {
    /// Titles written before a name (courtesy, academic, clerical, military, office).
    static let prefixes: Set<String> = [
        "mr", "mrs", "ms", "miss", "mx", "mme", "mlle", "dr", "doctor", "prof", "professor",
        "rev", "revd", "reverend", "pastor", "father", "fr", "rabbi", "sister", "brother", "msgr",
        "hon", "honorable", "honourable", "sir", "dame", "judge", "justice",
        "sen", "senator", "rep", "representative", "gov", "governor", "mayor",
        "capt", "captain", "sgt", "sergeant", "lt", "lieutenant", "col", "colonel", "maj", "major",
        "gen", "general", "cmdr", "commander", "adm", "admiral", "cpl", "corporal",
    ]

    /// Generational suffixes and credentials, with the spelling they are given in.
    static let suffixes: [String: String] = [
        "jr": "Jr", "sr": "Sr", "ii": "II", "iii": "III", "iv": "IV", "v": "V", "vi": "VI",
        "2nd": "2nd", "3rd": "3rd",
        "md": "MD", "do": "DO", "dds": "DDS", "dmd": "DMD", "dvm": "DVM", "od": "OD", "dpm": "DPM",
        "phd": "PhD", "edd": "EdD", "psyd": "PsyD", "pharmd": "PharmD", "jd": "JD", "llm": "LLM",
        "mba": "MBA", "esq": "Esq", "esquire": "Esq", "cpa": "CPA", "cfa": "CFA", "cfp": "CFP",
        "chfc": "ChFC", "clu": "CLU", "aia": "AIA", "pe": "PE", "rn": "RN", "lpn": "LPN", "np": "NP",
        "bsn": "BSN", "msn": "MSN", "lcsw": "LCSW", "facs": "FACS", "ret": "Ret",
    ]

    /// Suffixes that are also a middle initial or a name word when not clearly at the end.
    static let weakSuffixes: Set<String> = ["v", "do", "pe", "np", "od", "ret"]

    /// Words that start a family name (`van der Berg`, `de la Cruz`, `St. John`, `Mac Donald`).
    static let particles: Set<String> = [
        "de", "del", "della", "dela", "der", "den", "des", "di", "da", "dos", "das", "do", "du",
        "la", "le", "lo", "van", "vander", "von", "ten", "ter", "bin", "al", "st", "ste", "mac", "mc",
    ]

    /// Particles that keep their capital (`St. John`, `Mac Donald`) when the name is recased.
    static let capitalParticles: Set<String> = ["st", "ste", "mac", "mc"]

    static let macNames: Set<String> = [
        "macdonald", "macarthur", "mackenzie", "macleod", "macmillan", "macintosh", "macintyre", "macneil",
        "macgregor", "macpherson", "maclean", "mackay", "macaulay", "macdougall", "macfarlane", "mackinnon",
    ]

    /// The word in lower case without dots and without commas at its ends (`Ph.D.,` → `phd`);
    /// nil when that is longer than any word of the tables, which most name words are.
    static func key(_ word: String) -> String? {
        var out: [UInt8] = []
        for b in word.utf8 {
            if b == UInt8(ascii: ".") || b == UInt8(ascii: ",") { continue }
            if out.count == 14 { return nil }
            out.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
        }
        if out.contains(where: { $0 >= 0x80 }) { return String(decoding: out, as: UTF8.self).lowercased() }
        return String(decoding: out, as: UTF8.self)
    }

    static func isPrefix(_ word: String) -> Bool { key(word).map(prefixes.contains) ?? false }
    static func isParticle(_ word: String) -> Bool { key(word).map(particles.contains) ?? false }
    static func suffix(_ word: String) -> String? { key(word).flatMap { suffixes[$0] } }

    /// `&`, `and`, `+` or `&amp;` joining a couple.
    static func isJoint(_ word: String) -> Bool {
        switch word.utf8.count {
        case 1: return word == "&" || word == "+"
        case 3: return key(word) == "and"
        case 5: return word == "&amp;"
        default: return false
        }
    }

    /// One letter, with or without its dot: a middle initial.
    static func isInitial(_ word: String) -> Bool {
        var letters = 0
        for s in word.unicodeScalars {
            if s == "." { continue }
            guard s.properties.isAlphabetic else { return false }
            letters += 1
        }
        return letters == 1
    }
}
