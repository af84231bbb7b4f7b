/// The shared-string table, packed into one byte array with offsets: about the size of the
/// text itself, and no Swift string is built until a cell asks for one.
final class SharedStrings: XMLHandler {
    private(set) var bytes: [UInt8] = []
    /// `offsets[k]..<offsets[k + 1]` is string k.
    private(set) var offsets: [Int] = [0]

    private let limit: Int
    private let file: String
    private var inItem = false
    private var inText = false
    private var phoneticDepth = 0
    private var itemStart = 0
    private var itemDepth = 0

    init(limit: Int, file: String) {
        self.limit = limit
        self.file = file
    }

    var count: Int { offsets.count - 1 }

    @inline(__always)
    func length(_ index: Int) -> Int? {
        guard index >= 0 && index < count else { return nil }
        return offsets[index + 1] - offsets[index]
    }

    /// Calls `body` with a fast length look-up (nil when the index is out of range).
    @inline(__always)
    func withLengths<R>(_ body: ((Int) -> Int?) -> R) -> R {
        offsets.withUnsafeBufferPointer { offsets in
            let count = offsets.count - 1
            return body { index in
                index >= 0 && index < count ? offsets[index + 1] - offsets[index] : nil
            }
        }
    }

    func string(_ index: Int) -> String? {
        guard index >= 0 && index < count else { return nil }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[offsets[index]..<offsets[index + 1]]), as: UTF8.self)
        }
    }

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        if name.is("si") {
            // An `<si>` inside another (never written, but well-formed XML) is part of it: the
            // item starts and ends with the outermost, so offsets only grow.
            if itemDepth == 0 {
                inItem = true
                itemStart = bytes.count
            }
            itemDepth += 1
        } else if name.is("t") {
            inText = inItem && phoneticDepth == 0
        } else if name.is("rPh") {
            phoneticDepth += 1
        }
    }

    override func endElement(_ name: XMLName) {
        if name.is("t") {
            inText = false
        } else if name.is("rPh") {
            phoneticDepth -= 1
        } else if name.is("si") {
            itemDepth -= 1
            guard itemDepth == 0 else { return }
            inItem = false
            if OOXMLEscapes.mayContainEscape(bytes, from: itemStart) {
                let decoded = OOXMLEscapes.decode(bytes[itemStart...])
                bytes.removeSubrange(itemStart...)
                bytes.append(contentsOf: decoded)
            }
            offsets.append(bytes.count)
        }
    }

    override func characters(_ text: UnsafePointer<UInt8>, _ count: Int) {
        guard inText else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: count))
        if bytes.count > limit {
            failure = ReaderError(file: file, .zipBomb(part: "the shared-string table", detail: "it holds more than \(limit >> 20) MiB of text"))
        }
    }
}

/// OOXML's `_xHHHH_` escapes for characters XML cannot carry (ST_Xstring).
enum OOXMLEscapes {
    static func mayContainEscape(_ bytes: [UInt8], from start: Int) -> Bool {
        var i = start
        while i + 6 < bytes.count {
            if bytes[i] == UInt8(ascii: "_") && bytes[i + 1] == UInt8(ascii: "x") { return true }
            i += 1
        }
        return false
    }

    /// Decodes `_xHHHH_` sequences (surrogate pairs joined; `_x005F_` is a literal `_`).
    static func decode<C: Collection>(_ input: C) -> [UInt8] where C.Element == UInt8, C.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var pendingHigh: UInt32?
        var i = input.startIndex
        func flushHigh() {
            if pendingHigh != nil {
                out.append(contentsOf: Array("\u{FFFD}".utf8))
                pendingHigh = nil
            }
        }
        while i < input.endIndex {
            if let unit = hexEscape(input, at: i) {
                i += 7
                if (0xD800..<0xDC00).contains(unit) {
                    flushHigh()
                    pendingHigh = unit
                    continue
                }
                var scalarValue = unit
                if (0xDC00..<0xE000).contains(unit) {
                    guard let high = pendingHigh else {
                        out.append(contentsOf: Array("\u{FFFD}".utf8))
                        continue
                    }
                    scalarValue = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                    pendingHigh = nil
                } else {
                    flushHigh()
                }
                let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                continue
            }
            flushHigh()
            out.append(input[i])
            i += 1
        }
        flushHigh()
        return out
    }

    private static func hexEscape<C: Collection>(_ b: C, at i: Int) -> UInt32? where C.Element == UInt8, C.Index == Int {
        guard i + 6 < b.endIndex, b[i] == UInt8(ascii: "_"), b[i + 1] == UInt8(ascii: "x"), b[i + 6] == UInt8(ascii: "_") else {
            return nil
        }
        var value: UInt32 = 0
        for k in 2..<6 {
            let c = b[i + k]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
