import Foundation
import LeadCore
/// Undoes what Excel does to identifiers it takes for numbers: ZIP codes that lost their
/// leading zero, ZIP+4 run together, phones shown as `2015550123.0` or in scientific notation.
public enum ExcelRepair {
    public enum PhoneRepair: Equatable {
        case unchanged
        case repaired(String)
        /// Scientific notation with too few digits left to be the number (`2.01555E+09`).
        case digitsLost
    }

    /// A phone typed as a number: `2015550123.0` → `2015550123`; `2.015550123E+09` →
    /// `2015550123` (every digit survived); `2.01555E+09` → `.digitsLost`.
    public static func phoneDigits(_ text: String) -> PhoneRepair {
        // Both repairs need a `.` or an exponent: most phones have neither.
        // (A plain loop: `contains(where:)` on the UTF-8 view was not inlined, a call a byte.)
        var marked = false
        for b in text.utf8 where b == UInt8(ascii: ".") || b == UInt8(ascii: "E") || b == UInt8(ascii: "e") {
            marked = true
            break
        }
        if !marked { return .unchanged }
        let t = text.trimmed
        let bytes = Array(t.utf8)
        // A plain number with a zero fraction.
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot >= 7, dot + 1 < bytes.count,
           bytes[..<dot].allSatisfy(isDigit), bytes[(dot + 1)...].allSatisfy({ $0 == UInt8(ascii: "0") }) {
            return .repaired(String(decoding: bytes[..<dot], as: UTF8.self))
        }
        // Scientific notation: mantissa d.ddd, exponent E+n.
        guard let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "e") }), e > 0 else { return .unchanged }
        var mantissa = Array(bytes[..<e])
        var exponentBytes = Array(bytes[(e + 1)...])
        if exponentBytes.first == UInt8(ascii: "+") { exponentBytes.removeFirst() }
        guard !exponentBytes.isEmpty, exponentBytes.allSatisfy(isDigit),
              let exponent = Int(String(decoding: exponentBytes, as: UTF8.self)), exponent >= 6, exponent <= 15 else { return .unchanged }
        var fraction: [UInt8] = []
        if let dot = mantissa.firstIndex(of: UInt8(ascii: ".")) {
            fraction = Array(mantissa[(dot + 1)...])
            mantissa = Array(mantissa[..<dot])
        }
        guard mantissa.count == 1, mantissa.allSatisfy(isDigit), fraction.allSatisfy(isDigit) else { return .unchanged }
        // Excel's General format shows at most 6 significant digits; a phone needs every digit.
        if fraction.count < exponent { return .digitsLost }
        let digits = mantissa + fraction
        let integerDigits = digits[0...exponent]
        let rest = digits[(exponent + 1)...]
        guard rest.allSatisfy({ $0 == UInt8(ascii: "0") }) else { return .unchanged }
        return .repaired(String(decoding: integerDigits, as: UTF8.self))
    }

    public enum ZipRepair: Equatable {
        case unchanged(String)
        /// Leading zeros put back, or ZIP+4 split: the repaired text and what was done.
        case repaired(String, String)
        case invalid(String)
    }

    /// ZIP codes as Excel leaves them. `2134` in MA → `02134`; `021341234` → `02134-1234`;
    /// `21341234` (ZIP+4 that lost its zero) in MA → `02134-1234`; `601` in PR → `00601`.
    /// Zeros are put back only where the state's ZIP prefixes say so.
    public static func usZip(_ text: String, state: String?) -> ZipRepair {
        var t = text.trimmed
        // Most ZIPs are already five digits.
        if t.utf8.count == 5, t.utf8.allSatisfy(isDigit) { return unassigned(t) ? .invalid(noSuchZip(text)) : .unchanged(t) }
        // And ZIP+4 already written as USPS writes it.
        if t.utf8.count == 10, t.utf8.enumerated().allSatisfy({ $0.offset == 5 ? $0.element == UInt8(ascii: "-") : isDigit($0.element) }) {
            return unassigned(t) ? .invalid(noSuchZip(text)) : .unchanged(t)
        }
        // On the bytes: a ZIP is ASCII digits, hyphens and spaces, so any other byte ends it.
        var bytes = Array(t.utf8)
        if bytes.count >= 2, bytes[bytes.count - 2] == UInt8(ascii: "."), bytes[bytes.count - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
            t = String(decoding: bytes, as: UTF8.self)
        }
        let shapeOK = bytes.allSatisfy { isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: " ") }
        let digits = String(decoding: bytes.filter(isDigit), as: UTF8.self)
        guard shapeOK, !digits.isEmpty else { return .invalid("not a ZIP code") }
        func checked(_ zip5: String, _ plus4: String?, _ note: String?) -> ZipRepair {
            if unassigned(zip5) { return .invalid(noSuchZip(text)) }
            let formatted = plus4.map { "\(zip5)-\($0)" } ?? zip5
            if let note {
                // The state is looked up only for a repair it must confirm.
                guard let state = state.map({ StateTable.code(for: $0) ?? $0.uppercased() }), StateTable.zipFits(zip5, state: state) else {
                    return .invalid("\(text) looks like a ZIP code that lost its leading zero, but the state does not confirm it")
                }
                return .repaired(formatted, note)
            }
            return formatted == t ? .unchanged(formatted) : .repaired(formatted, "formatted as ZIP+4")
        }
        switch digits.utf8.count {
        case 5: return checked(digits, nil, nil)
        case 9: return checked(String(digits.prefix(5)), String(digits.suffix(4)), nil)
        case 4: return checked("0" + digits, nil, "leading zero restored")
        case 3: return checked("00" + digits, nil, "leading zeros restored")
        case 8: return checked("0" + digits.prefix(4), String(digits.suffix(4)), "leading zero restored")
        default: return .invalid("\(text) has \(digits.utf8.count) digits; a ZIP code has 5 (or 9 with ZIP+4)")
        }
    }

    /// Repairs `text` as a US ZIP and stores it in `address` (ZIP and ZIP+4). Returns what was
    /// repaired, or the problem when it is not a ZIP code (the address is then left alone).
    public static func applyUSZip(_ text: String, state: String?, to address: inout PostalAddress) -> (repair: String?, problem: String?) {
        let zip: String
        var repair: String?
        switch usZip(text, state: state) {
        case .unchanged(let z): zip = z
        case .repaired(let z, let note):
            zip = z
            repair = "ZIP \(text) → \(z): \(note)"
        case .invalid(let why): return (nil, why)
        }
        // `zip` is ASCII: five digits, or ZIP+4 in ten characters.
        address.postalCode = zip.utf8.count == 5 ? zip : String(zip.utf8.prefix(5))!
        address.zip4 = zip.utf8.count == 10 ? String(zip.utf8.suffix(4))! : nil
        return (repair, nil)
    }

    /// Whether five digits are below 00501, where USPS's numbering starts (Holtsville, NY): no
    /// ZIP code is. `00000` is what a form or an export writes for "no ZIP".
    static func unassigned(_ zip5: String) -> Bool {
        zip5.utf8.prefix(5).reduce(0) { $0 * 10 + Int($1) - 48 } < 501
    }

    private static func noSuchZip(_ text: String) -> String {
        "\(text) is not a ZIP code: they are numbered from 00501"
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
