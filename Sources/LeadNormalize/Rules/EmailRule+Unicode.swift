import Foundation
import LeadCore

/// RFC 6532's Unicode addresses: compared and sent in Normalization Form C, and an IDN domain
/// given in its Unicode form (`xn--mnchen-3ya.de` → `münchen.de`), decoded by RFC 3492's
/// Punycode; a label that does not decode stays as written.
extension EmailRule {
    /// `text` in NFC (a decomposed `é`, `e` + U+0301, becomes one character).
    static func composed(_ text: String) -> String { NormalForm.composed(text) }

    /// The domain with each `xn--` label decoded.
    static func unicodeDomain(_ domain: String) -> String {
        guard hasPunycodeLabel(domain) else { return domain }
        return domain.split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
            guard label.hasPrefix("xn--"), let decoded = punycodeDecoded(label.dropFirst(4)) else { return String(label) }
            return decoded
        }.joined(separator: ".")
    }

    /// Whether `xn--` is in the domain, looked for by byte: Foundation's `contains` on
    /// strings went through CFString for every address.
    private static func hasPunycodeLabel(_ domain: String) -> Bool {
        let b = Array(domain.utf8)
        guard b.count >= 4 else { return false }
        for k in 0...(b.count - 4) where b[k] == UInt8(ascii: "x") && b[k + 1] == UInt8(ascii: "n") && b[k + 2] == UInt8(ascii: "-") && b[k + 3] == UInt8(ascii: "-") {
            return true
        }
        return false
    }

    /// RFC 3492 §6.2, with its parameters for IDNA (§5); nil for text that is not Punycode.
    static func punycodeDecoded(_ text: Substring) -> String? {
        let base = 36, tMin = 1, tMax = 26
        var output: [Unicode.Scalar] = []
        let input = Array(text.unicodeScalars)
        guard input.allSatisfy(\.isASCII) else { return nil }
        var position = 0
        if let delimiter = input.lastIndex(of: "-") {
            output = Array(input[..<delimiter])
            position = delimiter + 1
        }
        var n = 128, i = 0, bias = 72
        while position < input.count {
            let oldI = i
            var w = 1, k = base
            while true {
                guard position < input.count, let digit = punycodeDigit(input[position]) else { return nil }
                position += 1
                let (product, overflow) = digit.multipliedReportingOverflow(by: w)
                guard !overflow, i <= Int(Int32.max) - product else { return nil }
                i += product
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                w *= base - t
                k += base
            }
            bias = punycodeAdapt(i - oldI, points: output.count + 1, first: oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard let scalar = Unicode.Scalar(n), n >= 128 else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        var decoded = String.UnicodeScalarView()
        decoded.append(contentsOf: output)
        return String(decoded)
    }

    private static func punycodeDigit(_ s: Unicode.Scalar) -> Int? {
        switch s.value {
        case 0x61...0x7A: return Int(s.value) - 0x61
        case 0x41...0x5A: return Int(s.value) - 0x41
        case 0x30...0x39: return Int(s.value) - 0x30 + 26
        default: return nil
        }
    }

    private static func punycodeAdapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / 700 : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((36 - 1) * 26) / 2 {
            delta /= 36 - 1
            k += 36
        }
        return k + (36 * delta) / (delta + 38)
    }
}
