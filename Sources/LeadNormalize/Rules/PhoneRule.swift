import LeadCore
import Foundation
import CLeadPhoneAPI

/// A phone number as libphonenumber reads it, after repairing what Excel does to long numbers.
public struct PhoneResult: Sendable, Equatable {
    public var input: String
    /// `+15085550123`; nil when the text is not a phone number at all.
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
        if text.utf8.count >= 4, zip(text.utf8.prefix(4), "tel:".utf8).allSatisfy({ $0 | 0x20 == $1 }), text.lowercased().hasPrefix("tel:") {
            text = String(text.dropFirst(4))
        }
        guard let parse = PhoneLibrary.parse else {
            result.problem = PhoneLibrary.loadError
            return result
        }
        var out = cleadphone_result()
        // Region codes are ASCII; most arrive in capitals already.
        let upperRegion = region.utf8.contains(where: { ($0 >= 0x61 && $0 <= 0x7A) || $0 >= 0x80 }) ? region.uppercased() : region
        let status = text.withCString { number in
            upperRegion.withCString { region in parse(number, region, wantType ? 1 : 0, &out) }
        }
        if status != 0 {
            result.problem = "not a phone number"
            return result
        }
        result.e164 = string(out.e164)
        result.valid = out.is_valid != 0
        result.possible = out.is_possible != 0
        if wantType {
            let type = Int(out.type.rawValue)
            result.numberType = type < typeNames.count ? typeNames[type] : "UNKNOWN"
        }
        let regionCode = string(out.region)
        result.region = regionCode.isEmpty || regionCode == "ZZ" ? nil : regionCode
        let ext = string(out.extension)
        result.extension = ext.isEmpty ? nil : ext
        if !result.valid {
            result.problem = result.possible ? "not a valid number for its region" : "the wrong number of digits for a phone number"
        }
        return result
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
    }
}

/// libLeadPhone.so (the CLeadPhone target: libphonenumber behind one C function), loaded the
/// first time a phone is parsed. It is looked for beside the running program (the build folder
/// holds both), then in `../lib` from it, then where `LEADPORT_PHONE_LIBRARY` points.
enum PhoneLibrary {
    typealias Parse = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<cleadphone_result>?) -> Int32

    typealias CheckValidOrder = @convention(c) (Int32, UInt64) -> Int32

    private static let loaded: Result<(Parse, CheckValidOrder?), LoadError> = load()

    struct LoadError: Error { var message: String }

    static var parse: Parse? { try? loaded.get().0 }

    /// The shim's own check of its validity short cut against libphonenumber (for the tests).
    static var checkValidOrder: CheckValidOrder? { try? loaded.get().1 }

    static var loadError: String? {
        if case .failure(let error) = loaded { return error.message }
        return nil
    }

    private static func load() -> Result<(Parse, CheckValidOrder?), LoadError> {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["LEADPORT_PHONE_LIBRARY"] { candidates.append(path) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let dir = (exe as NSString).deletingLastPathComponent
            candidates += [dir + "/libLeadPhone.so", (dir as NSString).deletingLastPathComponent + "/lib/libLeadPhone.so"]
        }
        var errors: [String] = []
        for path in candidates {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                errors.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            guard let symbol = dlsym(handle, "cleadphone_parse") else {
                errors.append("\(path): no cleadphone_parse")
                continue
            }
            let check = dlsym(handle, "cleadphone_check_valid_order").map { unsafeBitCast($0, to: CheckValidOrder.self) }
            return .success((unsafeBitCast(symbol, to: Parse.self), check))
        }
        return .failure(LoadError(message: "cannot load the phone library libLeadPhone.so (keep it beside the leadport binary, "
                                      + "or set LEADPORT_PHONE_LIBRARY): " + errors.joined(separator: "; ")))
    }
}
