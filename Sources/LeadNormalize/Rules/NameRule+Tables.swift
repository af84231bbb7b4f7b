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
        "drs", "attorney", "atty", "congressman", "congresswoman", "ambassador", "bishop", "deacon", "chaplain",
        "commissioner", "councilman", "councilwoman", "councilmember", "alderman", "sheriff", "supt", "superintendent",
        "det", "detective", "imam", "cantor", "assemblyman", "assemblywoman", "delegate",
    ]

    /// Words that make a title of the title after them (`State Senator`, `U.S. Rep.`).
    static let titleModifiers: Set<String> = ["state", "us", "county", "city", "deputy", "assistant", "vice", "chief", "lieutenant", "lt"]

    /// Generational suffixes and credentials, with the spelling they are given in.
    static let suffixes: [String: String] = [
        "jr": "Jr", "sr": "Sr", "ii": "II", "iii": "III", "iv": "IV", "v": "V", "vi": "VI",
        "2nd": "2nd", "3rd": "3rd",
        "md": "MD", "do": "DO", "dds": "DDS", "dmd": "DMD", "dvm": "DVM", "od": "OD", "dpm": "DPM",
        "phd": "PhD", "edd": "EdD", "psyd": "PsyD", "pharmd": "PharmD", "jd": "JD", "llm": "LLM",
        "mba": "MBA", "esq": "Esq", "esquire": "Esq", "cpa": "CPA", "cfa": "CFA", "cfp": "CFP",
        "chfc": "ChFC", "clu": "CLU", "aia": "AIA", "pe": "PE", "rn": "RN", "lpn": "LPN", "np": "NP",
        "bsn": "BSN", "msn": "MSN", "lcsw": "LCSW", "facs": "FACS", "ret": "Ret",
        // Real-estate designations (National Association of REALTORS®), design and other
        // professional credentials.
        "realtor": "REALTOR", "realtors": "REALTOR", "gri": "GRI", "crs": "CRS", "abr": "ABR", "sres": "SRES",
        "e-pro": "e-PRO", "epro": "e-PRO", "crb": "CRB", "ccim": "CCIM", "sior": "SIOR", "psa": "PSA", "srs": "SRS",
        "mrp": "MRP", "ahwd": "AHWD", "c2ex": "C2EX", "cips": "CIPS", "cdpe": "CDPE", "clhms": "CLHMS", "rsps": "RSPS",
        "sfr": "SFR", "cne": "CNE", "cpm": "CPM", "csi": "CSI", "faia": "FAIA", "leed": "LEED", "ap": "AP",
        "ncarb": "NCARB", "pmp": "PMP", "ea": "EA", "rph": "RPh", "pa-c": "PA-C", "dc": "DC", "fnp": "FNP",
        "aprn": "APRN", "crna": "CRNA", "dnp": "DNP", "mph": "MPH", "msw": "MSW", "lmft": "LMFT", "lpc": "LPC",
        "crpc": "CRPC", "ricp": "RICP", "cpcu": "CPCU", "aams": "AAMS", "asid": "ASID", "usn": "USN", "usmc": "USMC",
        "usaf": "USAF",
    ]

    /// Suffixes that are also a middle initial or a name word when not clearly at the end.
    static let weakSuffixes: Set<String> = ["v", "do", "pe", "np", "od", "ret", "ap", "ea", "dc", "psa", "csi", "crs"]

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

    /// The word in lower case without dots and commas (`Ph.D.,` → `phd`); nil when it cannot
    /// be a key of the tables (longer than any of them, or not ASCII).
    static func key(_ word: String) -> String? {
        // On the word's own bytes: the UTF-8 view's iterator cost more than the work, and a
        // name's words are looked up several times each (titles, designations, entities).
        var text = word
        return text.withUTF8 { bytes -> String? in
            guard bytes.count <= 2 * longestKey else { return nil }
            var kept = 0, plain = true
            for b in bytes {
                if b == UInt8(ascii: ".") || b == UInt8(ascii: ",") { plain = false; continue }
                if b >= 0x80 { return nil }  // every key of the tables is ASCII
                if b >= 0x41 && b <= 0x5A { plain = false }
                kept += 1
            }
            if kept > longestKey { return nil }
            // Most words are already a key: lower case, no dots.
            if plain { return word }
            return String(unsafeUninitializedCapacity: kept) { out in
                var k = 0
                for b in bytes where b != UInt8(ascii: ".") && b != UInt8(ascii: ",") {
                    out[k] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                    k += 1
                }
                return k
            }
        }
    }

    /// The longest key of the tables (`representative`).
    private static let longestKey = 14

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
            // An ASCII scalar is alphabetic when it is a letter: Unicode's tables only for the rest.
            guard s.isASCII ? (s.value | 0x20) >= 0x61 && (s.value | 0x20) <= 0x7A : s.properties.isAlphabetic else { return false }
            letters += 1
            if letters > 1 { return false }
        }
        return letters == 1
    }
}
