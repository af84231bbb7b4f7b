/// Writes rows as JSON lines or CSV.
enum RowPrinter {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func jsonl(_ cells: ArraySlice<String>, to out: StandardOutput) throws {
        out.write(byte: UInt8(ascii: "["))
        var first = true
        for cell in cells {
            if !first { out.write(byte: UInt8(ascii: ",")) }
            first = false
            jsonString(cell, to: out)
        }
        out.write(byte: UInt8(ascii: "]"))
        out.write(byte: 10)
        try out.write("")
    }

    static func jsonString(_ text: String, to out: StandardOutput) {
        out.write(byte: UInt8(ascii: "\""))
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.write(byte: 92); out.write(byte: b)
            case UInt8(ascii: "\\"): out.write(byte: 92); out.write(byte: b)
            case 10: out.write(byte: 92); out.write(byte: UInt8(ascii: "n"))
            case 13: out.write(byte: 92); out.write(byte: UInt8(ascii: "r"))
            case 9: out.write(byte: 92); out.write(byte: UInt8(ascii: "t"))
            case 0..<0x20:
                for c in Array("\\u00".utf8) { out.write(byte: c) }
                out.write(byte: hex[Int(b >> 4)])
                out.write(byte: hex[Int(b & 15)])
            default: out.write(byte: b)
            }
        }
        out.write(byte: UInt8(ascii: "\""))
    }

    static func csv(_ cells: ArraySlice<String>, to out: StandardOutput) throws {
        var first = true
        for cell in cells {
            if !first { out.write(byte: UInt8(ascii: ",")) }
            first = false
            let needsQuotes = cell.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            if needsQuotes { out.write(byte: UInt8(ascii: "\"")) }
            for b in cell.utf8 {
                if b == UInt8(ascii: "\"") { out.write(byte: b) }
                out.write(byte: b)
            }
            if needsQuotes { out.write(byte: UInt8(ascii: "\"")) }
        }
        out.write(byte: 10)
        try out.write("")
    }
}
