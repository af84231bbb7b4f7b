/// The text encodings a CSV file can be read in, and their detection.
public enum TextEncoding: String, Sendable, Equatable {
    case utf8 = "utf-8"
    case utf8BOM = "utf-8-bom"
    case utf16LE = "utf-16le"
    case utf16BE = "utf-16be"
    case windows1252 = "windows-1252"

    /// Decides the encoding from the first bytes of a file.
    ///
    /// A BOM wins; then UTF-16 without a BOM when every other byte of a sample is NUL; then
    /// UTF-8 when the sample is valid UTF-8 (a sequence cut by the end of the sample does not
    /// count against it); otherwise Windows-1252.
    /// - Returns: the encoding and the length of the BOM to skip.
    public static func detect(_ head: UnsafeRawBufferPointer) -> (TextEncoding, bomLength: Int) {
        let b = head.bindMemory(to: UInt8.self)
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return (.utf8BOM, 3) }
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xFE { return (.utf16LE, 2) }
        if b.count >= 2, b[0] == 0xFE, b[1] == 0xFF { return (.utf16BE, 2) }
        if let utf16 = utf16WithoutBOM(b) { return (utf16, 0) }
        return (isValidUTF8Prefix(b) ? .utf8 : .windows1252, 0)
    }

    /// UTF-16 text of mostly ASCII characters has a NUL in every other byte.
    static func utf16WithoutBOM(_ b: UnsafeBufferPointer<UInt8>) -> TextEncoding? {
        let n = min(b.count, 4096) & ~1
        guard n >= 8 else { return nil }
        var evenNUL = 0
        var oddNUL = 0
        for i in stride(from: 0, to: n, by: 2) {
            if b[i] == 0 { evenNUL += 1 }
            if b[i + 1] == 0 { oddNUL += 1 }
        }
        let pairs = n / 2
        if oddNUL * 10 >= pairs * 9 && evenNUL * 10 < pairs { return .utf16LE }
        if evenNUL * 10 >= pairs * 9 && oddNUL * 10 < pairs { return .utf16BE }
        return nil
    }

    /// True when `b` is valid UTF-8, except perhaps for a sequence cut off at the very end.
    static func isValidUTF8Prefix(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = b.count
        // Drop an incomplete sequence at the end: at most 3 bytes back to its lead byte.
        var back = 0
        while back < 3, end - back - 1 >= 0, b[end - back - 1] & 0xC0 == 0x80 { back += 1 }
        if end - back - 1 >= 0 {
            let lead = b[end - back - 1]
            let need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
            if need > back { end = end - back - 1 }
        }
        return isValidUTF8(UnsafeBufferPointer(rebasing: b[0..<end]))
    }

    /// True when `b` is well-formed UTF-8 (The Unicode Standard, table 3-7): no stray
    /// continuation bytes, no overlong forms, no surrogates, nothing above U+10FFFF.
    ///
    /// The standard library's `String(validating:as:)` does the same through generic code
    /// that looks up type metadata on every call; this loop is some ten times cheaper on a cell.
    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        var i = 0
        // Eight bytes at a time while they are ASCII (no high bit set in any of them).
        if let base = b.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        }
        while i < n {
            let lead = b[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The second byte's range depends on the lead; later bytes are 80–BF.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard i + length <= n, b[i + 1] >= low, b[i + 1] <= high else { return false }
            var k = 2
            while k < length {
                guard b[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += length
        }
        return true
    }

    /// Windows-1252 code points for bytes 0x80–0x9F (WHATWG's table: unassigned bytes map to
    /// the C1 control of the same value).
    static let cp1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// Decodes Windows-1252 bytes.
    public static func decodeWindows1252(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = byte >= 0x80 && byte < 0xA0 ? cp1252High[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }
}

/// Turns UTF-16 bytes into UTF-8 bytes piece by piece, carrying a split code unit or
/// surrogate pair over to the next piece. Unpaired surrogates become U+FFFD.
struct UTF16Transcoder {
    let bigEndian: Bool
    private var oddByte: UInt8?
    private var highSurrogate: UInt16?

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    mutating func transcode(_ input: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        let bytes = input.bindMemory(to: UInt8.self)
        var i = 0
        if let odd = oddByte, bytes.count > 0 {
            push(unit(odd, bytes[0]), &out)
            oddByte = nil
            i = 1
        }
        while i + 1 < bytes.count {
            push(unit(bytes[i], bytes[i + 1]), &out)
            i += 2
        }
        if i < bytes.count { oddByte = bytes[i] }
    }

    /// Flushes what is left at the end of input.
    mutating func finish(into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        if highSurrogate != nil || oddByte != nil { append(0xFFFD, &out) }
        highSurrogate = nil
        oddByte = nil
    }

    private func unit(_ a: UInt8, _ b: UInt8) -> UInt16 {
        bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a)
    }

    private mutating func push(_ u: UInt16, _ out: inout [UInt8]) {
        if let high = highSurrogate {
            highSurrogate = nil
            if u >= 0xDC00 && u < 0xE000 {
                append(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(u - 0xDC00), &out)
                return
            }
            append(0xFFFD, &out)
        }
        if u >= 0xD800 && u < 0xDC00 {
            highSurrogate = u
        } else if u >= 0xDC00 && u < 0xE000 {
            append(0xFFFD, &out)
        } else {
            append(UInt32(u), &out)
        }
    }

    private func append(_ scalar: UInt32, _ out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
