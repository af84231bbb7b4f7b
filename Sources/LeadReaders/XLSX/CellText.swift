#if canImport(Glibc)
import Glibc
#endif

/// Helpers that turn the text stored in a cell into canonical text.
enum CellText {
    /// The stored text itself when it is already canonical: an integer of at most 15 digits,
    /// no sign but `-`, no leading zero. (Up to 15 digits a decimal round-trips through a
    /// double unchanged, so nothing shorter could print the same value.)
    @inline(__always)
    static func plainInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var digits = bytes[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        if digits.first == UInt8(ascii: "0") && (digits.count > 1 || bytes.count > 1) { return nil }
        for b in digits where b < UInt8(ascii: "0") || b > UInt8(ascii: "9") { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses a stored number (`1.5`, `1E-3`, ` 42 `) with the C library; nil if it is not one.
    static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count > 0, bytes.count < 128 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            for (k, b) in bytes.enumerated() { buffer[k] = CChar(bitPattern: b) }
            buffer[bytes.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard let end else { return nil }
            var rest = end
            while rest.pointee == 32 || rest.pointee == 9 || rest.pointee == 10 || rest.pointee == 13 { rest += 1 }
            guard rest.pointee == 0, end != buffer.baseAddress! else { return nil }
            // strtod also takes hex, inf and nan; a stored cell value is never one of those.
            if bytes.contains(where: { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") || $0 == UInt8(ascii: "n") || $0 == UInt8(ascii: "N") }) {
                return nil
            }
            return value
        }
    }

    /// An ISO 8601 cell (`t="d"`): `2024-03-01T00:00:00Z` → `2024-03-01`,
    /// `2024-03-01T13:45:00.000` → `2024-03-01T13:45:00`.
    static func isoDate(_ raw: String) -> String {
        var text = raw.trimmingCharacters()
        if text.hasSuffix("Z") { text.removeLast() }
        if let dot = text.firstIndex(of: "."), text.contains("T") || text.contains(":") { text = String(text[..<dot]) }
        if text.hasSuffix("T00:00:00") { text.removeLast(9) }
        return text
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace.
    public func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
