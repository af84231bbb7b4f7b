import LeadCore
/// USPS Publication 28 abbreviations: street suffixes (Appendix C1, the common ones and their
/// usual variants), directionals and secondary unit designators (Appendix C2).
enum USPSTables {
    /// Any written form → the standard suffix abbreviation.
    static let suffixes: [String: String] = {
        let groups: [(String, [String])] = [
            ("ALY", ["ALLEY", "ALLEE", "ALLY", "ALY"]), ("ANX", ["ANNEX", "ANEX", "ANNX", "ANX"]),
            ("ARC", ["ARCADE", "ARC"]), ("AVE", ["AVENUE", "AV", "AVE", "AVEN", "AVENU", "AVN", "AVNUE"]),
            ("BCH", ["BEACH", "BCH"]), ("BLF", ["BLUFF", "BLF", "BLUF"]), ("BLVD", ["BOULEVARD", "BLVD", "BOUL", "BOULV", "BVD"]),
            ("BND", ["BEND", "BND"]), ("BR", ["BRANCH", "BR", "BRNCH"]), ("BRG", ["BRIDGE", "BRDGE", "BRG"]),
            ("BRK", ["BROOK", "BRK"]), ("BYP", ["BYPASS", "BYP", "BYPA", "BYPAS", "BYPS"]),
            ("CIR", ["CIRCLE", "CIR", "CIRC", "CIRCL", "CRCL", "CRCLE"]), ("CLF", ["CLIFF", "CLF"]),
            ("CLB", ["CLUB", "CLB"]), ("COR", ["CORNER", "COR"]), ("CT", ["COURT", "CT", "CRT"]),
            ("CTS", ["COURTS", "CTS"]), ("CV", ["COVE", "CV"]), ("CRK", ["CREEK", "CRK"]),
            ("CRES", ["CRESCENT", "CRES", "CRSENT", "CRSNT"]), ("XING", ["CROSSING", "CRSSNG", "XING"]),
            ("DL", ["DALE", "DL"]), ("DM", ["DAM", "DM"]), ("DR", ["DRIVE", "DR", "DRIV", "DRV"]),
            ("EST", ["ESTATE", "EST"]), ("ESTS", ["ESTATES", "ESTS"]), ("EXPY", ["EXPRESSWAY", "EXP", "EXPR", "EXPRESS", "EXPW", "EXPY", "EXPWY"]),
            ("EXT", ["EXTENSION", "EXT", "EXTN", "EXTNSN"]), ("FLS", ["FALLS", "FLS"]), ("FRY", ["FERRY", "FRY", "FRRY"]),
            ("FLD", ["FIELD", "FLD"]), ("FLDS", ["FIELDS", "FLDS"]), ("FLT", ["FLAT", "FLT"]),
            ("FRD", ["FORD", "FRD"]), ("FRST", ["FOREST", "FORESTS", "FRST"]), ("FRG", ["FORGE", "FORG", "FRG"]),
            ("FRK", ["FORK", "FRK"]), ("FT", ["FORT", "FRT", "FT"]), ("FWY", ["FREEWAY", "FREEWY", "FRWAY", "FRWY", "FWY"]),
            ("GDN", ["GARDEN", "GARDN", "GRDEN", "GRDN", "GDN"]), ("GDNS", ["GARDENS", "GDNS", "GRDNS"]),
            ("GTWY", ["GATEWAY", "GATEWY", "GATWAY", "GTWAY", "GTWY"]), ("GLN", ["GLEN", "GLN"]),
            ("GRN", ["GREEN", "GRN"]), ("GRV", ["GROVE", "GROV", "GRV"]), ("HBR", ["HARBOR", "HARB", "HARBR", "HBR", "HRBOR"]),
            ("HVN", ["HAVEN", "HVN"]), ("HTS", ["HEIGHTS", "HT", "HTS"]), ("HWY", ["HIGHWAY", "HIGHWY", "HIWAY", "HIWY", "HWAY", "HWY", "HGWY"]),
            ("HL", ["HILL", "HL"]), ("HLS", ["HILLS", "HLS"]), ("HOLW", ["HOLLOW", "HLLW", "HOLLOWS", "HOLW", "HOLWS"]),
            ("IS", ["ISLAND", "IS", "ISLND"]), ("JCT", ["JUNCTION", "JCT", "JCTION", "JCTN", "JUNCTN", "JUNCTON"]),
            ("KNL", ["KNOLL", "KNL", "KNOL"]), ("LK", ["LAKE", "LK"]), ("LKS", ["LAKES", "LKS"]),
            ("LNDG", ["LANDING", "LNDG", "LNDNG"]), ("LN", ["LANE", "LN"]), ("LOOP", ["LOOP", "LOOPS"]),
            ("MALL", ["MALL"]), ("MNR", ["MANOR", "MNR"]), ("MDW", ["MEADOW", "MDW"]), ("MDWS", ["MEADOWS", "MDWS", "MEDOWS"]),
            ("ML", ["MILL", "ML"]), ("MT", ["MOUNT", "MNT", "MT"]), ("MTN", ["MOUNTAIN", "MNTAIN", "MNTN", "MOUNTIN", "MTIN", "MTN"]),
            ("ORCH", ["ORCHARD", "ORCH", "ORCHRD"]), ("OVAL", ["OVAL", "OVL"]), ("PARK", ["PARK", "PRK", "PARKS"]),
            ("PKWY", ["PARKWAY", "PARKWY", "PKWAY", "PKWY", "PKY", "PARKWAYS", "PKWYS", "PY"]), ("PASS", ["PASS"]),
            ("PATH", ["PATH", "PATHS"]), ("PIKE", ["PIKE", "PIKES"]), ("PNES", ["PINES", "PNES"]),
            ("PL", ["PLACE", "PL"]), ("PLN", ["PLAIN", "PLN"]), ("PLZ", ["PLAZA", "PLZ", "PLZA"]),
            ("PT", ["POINT", "PT"]), ("PRT", ["PORT", "PRT"]), ("PR", ["PRAIRIE", "PR", "PRR"]),
            ("RDG", ["RIDGE", "RDG", "RDGE"]), ("RIV", ["RIVER", "RIV", "RVR", "RIVR"]), ("RD", ["ROAD", "RD"]),
            ("RDS", ["ROADS", "RDS"]), ("RTE", ["ROUTE", "RTE"]), ("ROW", ["ROW"]), ("RUN", ["RUN"]),
            ("SQ", ["SQUARE", "SQ", "SQR", "SQRE", "SQU"]), ("STA", ["STATION", "STA", "STATN", "STN"]),
            ("ST", ["STREET", "ST", "STRT", "STR"]), ("STRM", ["STREAM", "STREME", "STRM"]),
            ("SMT", ["SUMMIT", "SMT", "SUMIT", "SUMITT"]), ("TER", ["TERRACE", "TER", "TERR"]),
            ("TRCE", ["TRACE", "TRACES", "TRCE"]), ("TRAK", ["TRACK", "TRACKS", "TRAK", "TRK", "TRKS"]),
            ("TRL", ["TRAIL", "TRAILS", "TRL", "TRLS"]), ("TUNL", ["TUNNEL", "TUNEL", "TUNL", "TUNLS", "TUNNELS", "TUNNL"]),
            ("TPKE", ["TURNPIKE", "TRNPK", "TURNPK", "TPKE"]), ("UN", ["UNION", "UN"]), ("VLY", ["VALLEY", "VALLY", "VLLY", "VLY"]),
            ("VIA", ["VIADUCT", "VDCT", "VIA", "VIADCT"]), ("VW", ["VIEW", "VW"]), ("VLG", ["VILLAGE", "VILL", "VILLAG", "VILLG", "VLG"]),
            ("VL", ["VILLE", "VL"]), ("VIS", ["VISTA", "VIS", "VIST", "VST", "VSTA"]), ("WALK", ["WALK", "WALKS"]),
            ("WAY", ["WAY", "WY"]), ("WLS", ["WELLS", "WLS"]), ("CMN", ["COMMON", "CMN"]), ("CPE", ["CAPE", "CPE"]),
            ("CSWY", ["CAUSEWAY", "CAUSWA", "CSWY"]), ("CTR", ["CENTER", "CEN", "CENT", "CENTR", "CENTRE", "CNTER", "CNTR", "CTR"]),
            ("PLNS", ["PLAINS", "PLNS"]), ("SHR", ["SHORE", "SHR"]), ("SHRS", ["SHORES", "SHRS"]), ("SPG", ["SPRING", "SPG", "SPNG", "SPRNG"]),
            ("SPGS", ["SPRINGS", "SPGS"]), ("CRSE", ["COURSE", "CRSE"]), ("BTM", ["BOTTOM", "BOT", "BTM", "BOTTM"]),
            ("CYN", ["CANYON", "CANYN", "CNYN", "CYN"]),
        ]
        var table: [String: String] = [:]
        for (standard, forms) in groups { for form in forms { table[form] = standard } }
        return table
    }()

    static let directionals: [String: String] = [
        "N": "N", "NORTH": "N", "S": "S", "SOUTH": "S", "E": "E", "EAST": "E", "W": "W", "WEST": "W",
        "NE": "NE", "NORTHEAST": "NE", "NW": "NW", "NORTHWEST": "NW", "SE": "SE", "SOUTHEAST": "SE",
        "SW": "SW", "SOUTHWEST": "SW",
    ]

    /// Secondary unit designators; `#` is kept as written.
    static let units: [String: String] = [
        "APARTMENT": "APT", "APT": "APT", "BUILDING": "BLDG", "BLDG": "BLDG", "FLOOR": "FL", "FL": "FL",
        "SUITE": "STE", "STE": "STE", "UNIT": "UNIT", "ROOM": "RM", "RM": "RM", "DEPARTMENT": "DEPT", "DEPT": "DEPT",
        "LOT": "LOT", "TRAILER": "TRLR", "TRLR": "TRLR", "SPACE": "SPC", "SPC": "SPC", "PIER": "PIER", "SLIP": "SLIP",
        "HANGAR": "HNGR", "HNGR": "HNGR", "STOP": "STOP", "KEY": "KEY", "BASEMENT": "BSMT", "BSMT": "BSMT",
        "FRONT": "FRNT", "FRNT": "FRNT", "REAR": "REAR", "LOWER": "LOWR", "LOWR": "LOWR", "UPPER": "UPPR", "UPPR": "UPPR",
        "PENTHOUSE": "PH", "PH": "PH", "OFFICE": "OFC", "OFC": "OFC", "SIDE": "SIDE", "LOBBY": "LBBY", "LBBY": "LBBY", "#": "#",
        "APTS": "APT", "STES": "STE", "FLR": "FL", "BLD": "BLDG", "UNT": "UNIT", "PMB": "PMB",
        // Canada Post's French designators: appartement, bureau (suite), pièce.
        "APP": "APT", "APPARTEMENT": "APT", "BUREAU": "STE",
        // Not Publication 28's, but written in lists as a designator: kept as written.
        "CONDO": "CONDO",
    ]
    /// Designators that take no number (`REAR`, `BSMT`).
    static let unitsWithoutID: Set<String> = ["BSMT", "FRNT", "LBBY", "LOWR", "OFC", "PH", "REAR", "SIDE", "UPPR"]

    /// The street types most streets have: when a one-line address has no comma, the first of
    /// these after the name ends the street (`1 Oak Park Ave Park Ridge`: `AVE`, not `PARK`).
    static let commonSuffixes: Set<String> = [
        "ALY", "AVE", "BLVD", "CIR", "CT", "CV", "DR", "EXPY", "FWY", "HWY", "LN", "LOOP", "PKWY", "PL", "PLZ", "RD",
        "SQ", "ST", "TER", "TRL", "WAY", "XING", "PIKE", "TPKE", "RUN", "PATH", "WALK", "ROW",
    ]

    /// The street types of roads, as opposed to those a complex is named with (`SQ`, `CV`, `PARK`):
    /// a road's type ending the words after a street makes them another street, not a complex.
    static let roadSuffixes: Set<String> = [
        "ALY", "AVE", "BLVD", "CIR", "CT", "DR", "EXPY", "FWY", "HWY", "LN", "PIKE", "PKWY", "PL", "RD", "ST", "TER",
        "TPKE", "TRL", "WAY",
    ]

    /// Mail-stop words (Publication 28 §327): not a secondary unit; kept in `unparsed`.
    static let mailStops: Set<String> = ["MS", "MSC", "MAILSTOP", "M/S", "MAILCODE", "MC"]

    /// Words that name a highway when a number follows (Publication 28 §237), with the word
    /// the USPS form spells out.
    static let highwayWords: [String: String] = [
        "HIGHWAY": "HIGHWAY", "HWY": "HIGHWAY", "HIWAY": "HIGHWAY", "HWAY": "HIGHWAY", "HIGHWY": "HIGHWAY", "HIWY": "HIGHWAY",
        "ROUTE": "ROUTE", "RTE": "ROUTE", "RT": "ROUTE", "INTERSTATE": "INTERSTATE", "FM": "FM", "SR": "STATE ROUTE",
        "CR": "COUNTY ROAD", "SH": "STATE HIGHWAY", "US": "US HIGHWAY", "I": "INTERSTATE", "TOWNSHIP": "TOWNSHIP",
        "LOOP": "LOOP", "SPUR": "SPUR", "BUSINESS": "BUSINESS",
    ]
    /// Words that qualify a highway word before it (`STATE ROUTE 9`, `COUNTY ROAD 12`,
    /// `US HWY 50`), with their USPS spelling. `ROAD` is a highway word only after one of these.
    static let highwayQualifiers: [String: String] = [
        "US": "US", "USA": "US", "STATE": "STATE", "ST": "STATE", "COUNTY": "COUNTY", "CO": "COUNTY", "CNTY": "COUNTY",
        "CTY": "COUNTY", "RANCH": "RANCH", "FARM": "FARM", "OLD": "OLD", "TOWNSHIP": "TOWNSHIP", "TWP": "TOWNSHIP",
        "PROVINCIAL": "PROVINCIAL", "PARISH": "PARISH", "COUNTRY": "COUNTRY",
    ]
}
