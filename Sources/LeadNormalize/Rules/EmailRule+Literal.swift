/// RFC 5321 §4.1.3 address literals: `[192.0.2.1]` and `[IPv6:2001:db8::1]`. A general
/// literal (`[tag:text]`) has no standardised tag besides IPv6, so it is not accepted.
extension EmailRule {
    static func addressLiteralProblem(_ b: ArraySlice<UInt8>) -> Problem? {
        guard b.count >= 3, b.last == UInt8(ascii: "]") else { return Problem("an address literal not closed by ]") }
        let inside = b[(b.startIndex + 1)..<(b.endIndex - 1)]
        if isIPv4(inside) { return nil }
        let tag = Array("ipv6:".utf8)
        if inside.count > tag.count, zip(inside, tag).allSatisfy({ $0 | 0x20 == $1 }), isIPv6(inside.dropFirst(tag.count)) {
            return nil
        }
        return Problem("the address literal is not an IPv4 or IPv6 address")
    }

    /// Four numbers of 1 to 3 digits, each at most 255, joined by dots.
    static func isIPv4(_ b: ArraySlice<UInt8>) -> Bool {
        let parts = b.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { p in
            (1...3).contains(p.count) && p.allSatisfy(isDigit) && p.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }

    /// IPv6-full (8 groups), IPv6-comp (at most 6 groups around one `::`), and the forms ending
    /// in an IPv4 address (which counts as two groups).
    static func isIPv6(_ b: ArraySlice<UInt8>) -> Bool {
        let text = Array(b)
        var halves: [ArraySlice<UInt8>] = []
        var k = 0, start = 0, compressed = false
        while k < text.count {
            if text[k] == UInt8(ascii: ":"), k + 1 < text.count, text[k + 1] == UInt8(ascii: ":") {
                if compressed { return false }
                compressed = true
                halves.append(text[start..<k])
                k += 2
                start = k
            } else {
                k += 1
            }
        }
        halves.append(text[start...])
        var units = 0
        for (h, half) in halves.enumerated() where !half.isEmpty {
            let groups = half.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            for (g, group) in groups.enumerated() {
                if h == halves.count - 1, g == groups.count - 1, group.contains(UInt8(ascii: ".")) {
                    guard isIPv4(group) else { return false }
                    units += 2
                } else {
                    guard (1...4).contains(group.count), group.allSatisfy(isHexDigit) else { return false }
                    units += 1
                }
            }
        }
        return compressed ? units <= 6 : units == 8
    }

    private static func isHexDigit(_ c: UInt8) -> Bool { isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) }
}
