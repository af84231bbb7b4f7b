import LeadCore
import Foundation
import CLeadPhoneAPI
import CLeadPhone

/// A phone number as libphonenumber reads it, after repairing what Excel does to long numbers.
public struct PhoneResult: Sendable, Equatable {
    public var input: String
    /// `+15085550123`; nil unless the number is valid.
    public var e164: String?
    public var valid: Bool
    public var possible: Bool
    /// libphonenumber's type name: `MOBILE`, `FIXED_LINE`, `FIXED_LINE_OR_MOBILE`, `TOLL_FREE`, …
    public var numberType: String?
    public var region: String?
    public var `extension`: String?
    /// Why the number is unusable, for reports; nil when valid.
    public var problem: String?
}

/// Phones to E.164 through Google's libphonenumber, from a default region.
public enum PhoneRule {
    private static let typeNames = [
        "FIXED_LINE", "MOBILE", "FIXED_LINE_OR_MOBILE", "TOLL_FREE", "PREMIUM_RATE", "SHARED_COST",
        "VOIP", "PERSONAL_NUMBER", "PAGER", "UAN", "VOICEMAIL", "UNKNOWN",
    ]

    /// `numberType` is looked up only when `wantType` (it costs as much as the rest together).
    public static func normalize(_ input: String, region: String = "US", wantType: Bool = true) -> PhoneResult {
        var result = PhoneResult(input: input, e164: nil, valid: false, possible: false)
        var text = input.trimmed
        if text.isEmpty { return result }
        switch ExcelRepair.phoneDigits(text) {
        case .unchanged: break
        case .repaired(let digits): text = digits
        case .digitsLost:
            result.problem = "Excel stored this phone in scientific notation and its last digits are lost"
            return result
        }
        // (The bytes first: most numbers do not start with the letters at all.)
        if text.utf8.first.map({ $0 | 0x20 == UInt8(ascii: "t") }) == true, text.lowercased().hasPrefix("tel:") {
            text = String(text.dropFirst(4))
        }
        var out = cleadphone_result()
        // Region codes are ASCII; most arrive in capitals already.
        let upperRegion = region.utf8.contains(where: { ($0 >= 0x61 && $0 <= 0x7A) || $0 >= 0x80 }) ? region.uppercased() : region
        let status = text.withCString { number in
            upperRegion.withCString { region in PhoneLibrary.parse(number, region, wantType ? 1 : 0, &out) }
        }
        if status != 0 {
            result.problem = "not a phone number"
            return result
        }
        result.valid = out.is_valid != 0
        result.possible = out.is_possible != 0
        if wantType {
            let type = Int(out.type.rawValue)
            result.numberType = type < typeNames.count ? typeNames[type] : "UNKNOWN"
        }
        // A number in E.164 and its region only for a valid number (design.md §4.3): digits of
        // the right length that no region assigns are no one's phone.
        if result.valid {
            result.e164 = string(out.e164)
            let regionCode = string(out.region)
            result.region = regionCode.isEmpty || regionCode == "ZZ" ? nil : regionCode
        }
        let ext = string(out.extension)
        result.extension = ext.isEmpty ? nil : ext
        if !result.valid {
            result.problem = result.possible ? "not a valid number for its region" : "the wrong number of digits for a phone number"
        }
        return result
    }

    /// Whether `region` is a region libphonenumber has numbering metadata for (an ISO 3166
    /// alpha-2 code, in either case), and so a default region for numbers written without `+`.
    /// With one it lacks (`XX`, `USA`, a typo), every such number fails as an invalid country
    /// code: a list would import with no phone at all.
    public static func knowsRegion(_ region: String) -> Bool {
        let code = region.uppercased()
        guard code.utf8.count == 2, code.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }), code != "ZZ" else { return false }
        var out = cleadphone_result()
        // A national number: parsed against the region's own metadata, or refused (invalid
        // country code) when there is none. Its first digit is no region's international call
        // prefix, so nothing else can make that error.
        let status = "2025550123".withCString { number in code.withCString { PhoneLibrary.parse(number, $0, 0, &out) } }
        return status != Int32(CLEADPHONE_INVALID_COUNTRY_CODE)
    }

    /// The error for a region `knowsRegion` refuses.
    public static func unknownRegion(_ region: String) -> String {
        // The usual slips: the United Kingdom's own abbreviation, and three-letter codes.
        let meant = ["UK": "GB", "USA": "US", "CAN": "CA", "MEX": "MX", "AUS": "AU", "GBR": "GB"][region.uppercased()]
        return "\"\(region)\" is not a phone region: " + (meant.map { "did you mean \($0)? " } ?? "")
            + "give a two-letter ISO 3166 country code libphonenumber knows (US, CA, GB, MX, …)"
    }

    /// Why phones cannot be trusted in this binary, or nil: a number every metadata version knows
    /// must read as valid. An import checks this before its first row (a build whose
    /// phone library was missing imported every contact without its phone and exited 0).
    public static func selfCheck() -> String? {
        let known = normalize("+1 617-253-1000")
        guard known.valid, known.e164 == "+16172531000" else {
            return "the phone library (libphonenumber) does not read +1 617-253-1000 as a valid number: "
                + (known.problem ?? "no answer") + "; rebuild LeadPort with Debian's libphonenumber-dev installed (make deps)"
        }
        return nil
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
    }
}

/// libphonenumber behind the C functions of `cleadphone.h` (the CLeadPhone target), linked into
/// the binary: every way of building LeadPort gives a binary that parses phones.
enum PhoneLibrary {
    static func parse(_ number: UnsafePointer<CChar>, _ region: UnsafePointer<CChar>, _ wantType: Int32,
                      _ out: UnsafeMutablePointer<cleadphone_result>) -> Int32 {
        cleadphone_parse(number, region, wantType, out)
    }

    /// The shim's own check of its validity short cut against libphonenumber (for the tests).
    static func checkValidOrder(_ count: Int32, _ seed: UInt64) -> Int32 {
        cleadphone_check_valid_order(count, seed)
    }
}
