import LeadCore
import Foundation
/// US states and territories (USPS codes) and Canadian provinces, with the ZIP prefixes of
/// the states whose ZIP codes start with 0 (the ones Excel damages).
public enum StateTable {
    public static let usStates: [String: String] = [
        "ALABAMA": "AL", "ALASKA": "AK", "ARIZONA": "AZ", "ARKANSAS": "AR", "CALIFORNIA": "CA",
        "COLORADO": "CO", "CONNECTICUT": "CT", "DELAWARE": "DE", "DISTRICT OF COLUMBIA": "DC",
        "FLORIDA": "FL", "GEORGIA": "GA", "HAWAII": "HI", "IDAHO": "ID", "ILLINOIS": "IL",
        "INDIANA": "IN", "IOWA": "IA", "KANSAS": "KS", "KENTUCKY": "KY", "LOUISIANA": "LA",
        "MAINE": "ME", "MARYLAND": "MD", "MASSACHUSETTS": "MA", "MICHIGAN": "MI", "MINNESOTA": "MN",
        "MISSISSIPPI": "MS", "MISSOURI": "MO", "MONTANA": "MT", "NEBRASKA": "NE", "NEVADA": "NV",
        "NEW HAMPSHIRE": "NH", "NEW JERSEY": "NJ", "NEW MEXICO": "NM", "NEW YORK": "NY",
        "NORTH CAROLINA": "NC", "NORTH DAKOTA": "ND", "OHIO": "OH", "OKLAHOMA": "OK", "OREGON": "OR",
        "PENNSYLVANIA": "PA", "RHODE ISLAND": "RI", "SOUTH CAROLINA": "SC", "SOUTH DAKOTA": "SD",
        "TENNESSEE": "TN", "TEXAS": "TX", "UTAH": "UT", "VERMONT": "VT", "VIRGINIA": "VA",
        "WASHINGTON": "WA", "WEST VIRGINIA": "WV", "WISCONSIN": "WI", "WYOMING": "WY",
        "PUERTO RICO": "PR", "GUAM": "GU", "VIRGIN ISLANDS": "VI", "AMERICAN SAMOA": "AS",
        "NORTHERN MARIANA ISLANDS": "MP",
    ]
    public static let provinces: [String: String] = [
        "ALBERTA": "AB", "BRITISH COLUMBIA": "BC", "MANITOBA": "MB", "NEW BRUNSWICK": "NB",
        "NEWFOUNDLAND AND LABRADOR": "NL", "NEWFOUNDLAND": "NL", "NOVA SCOTIA": "NS", "ONTARIO": "ON",
        "PRINCE EDWARD ISLAND": "PE", "QUEBEC": "QC", "QUÉBEC": "QC", "SASKATCHEWAN": "SK",
        "NORTHWEST TERRITORIES": "NT", "NUNAVUT": "NU", "YUKON": "YT",
    ]
    /// Older abbreviations still common in lists (AP style for states, and the provinces' own):
    /// `Calif.`, `Mass.`, `W.Va.`, `Ont.`, `P.E.I.`, `Qué.`.
    static let abbreviations: [String: String] = [
        "ALA": "AL", "ARIZ": "AZ", "ARK": "AR", "CALIF": "CA", "COLO": "CO", "CONN": "CT", "DEL": "DE",
        "FLA": "FL", "ILL": "IL", "IND": "IN", "KAN": "KS", "KANS": "KS", "MASS": "MA", "MICH": "MI", "MINN": "MN",
        "MISS": "MS", "MONT": "MT", "NEB": "NE", "NEBR": "NE", "NEV": "NV", "OKLA": "OK", "ORE": "OR", "OREG": "OR",
        "PENN": "PA", "PENNA": "PA", "TENN": "TN", "TEX": "TX", "WASH": "WA", "WVA": "WV", "WIS": "WI", "WISC": "WI",
        "WYO": "WY",
        "ONT": "ON", "QUE": "QC", "QUÉ": "QC", "PQ": "QC", "ALTA": "AB", "SASK": "SK", "NFLD": "NL", "PEI": "PE",
        "YUK": "YT", "NWT": "NT",
        "NOUVEAU-BRUNSWICK": "NB", "NOUVELLE-ÉCOSSE": "NS", "COLOMBIE-BRITANNIQUE": "BC", "ÎLE-DU-PRINCE-ÉDOUARD": "PE",
        "TERRE-NEUVE-ET-LABRADOR": "NL", "TERRITOIRES DU NORD-OUEST": "NT",
    ]
    static let usCodes = Set(usStates.values).union(["AA", "AE", "AP"])
    static let provinceCodes = Set(provinces.values)

    /// The USPS code for a state or province written as a code or a full name (any case).
    public static func code(for text: String) -> String? {
        // Most cells are a two-letter code already.
        let u = text.utf8
        if u.count == 2, let a = u.first, let b = u.last, (a | 0x20) >= 0x61, (a | 0x20) <= 0x7A, (b | 0x20) >= 0x61, (b | 0x20) <= 0x7A {
            let code = String(decoding: [a & 0xDF, b & 0xDF], as: UTF8.self)
            if usCodes.contains(code) || provinceCodes.contains(code) { return code }
        }
        var t = text.trimmed.uppercased()
        if t.utf8.contains(UInt8(ascii: ".")) { t.removeAll { $0 == "." } }
        if usCodes.contains(t) || provinceCodes.contains(t) { return t }
        return usStates[t] ?? provinces[t] ?? abbreviations[t]
    }

    /// The code for a key already in upper case without dots (`MA`, `MASSACHUSETTS`, `CALIF`),
    /// as the address rule's tokens are.
    static func code(forKey key: String) -> String? {
        if key.utf8.count == 2 { return usCodes.contains(key) || provinceCodes.contains(key) ? key : nil }
        return usStates[key] ?? provinces[key] ?? abbreviations[key]
    }

    public static func isCanadian(_ code: String) -> Bool { provinceCodes.contains(code) }

    /// Three-digit ZIP prefixes (inclusive ranges) of the places whose ZIPs start with 0.
    private static let zeroPrefixes: [String: [ClosedRange<Int>]] = [
        "CT": [60...69], "MA": [10...27, 55...55], "ME": [39...49], "NH": [30...38],
        "NJ": [70...89], "RI": [28...29], "VT": [50...59], "PR": [6...9], "VI": [8...8],
        "NY": [5...5], "AE": [90...98],
    ]

    /// Whether a 5-digit ZIP starting with 0 belongs to `state`.
    static func zipFits(_ zip5: String, state: String) -> Bool {
        guard let ranges = zeroPrefixes[state], let prefix = Int(zip5.prefix(3)) else { return false }
        return ranges.contains { $0.contains(prefix) }
    }
}
