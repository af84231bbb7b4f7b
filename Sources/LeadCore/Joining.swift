/// Lines made of a few parts (a delivery line, a formatted address, a full name), built at once
/// on the parts' bytes. Appended one by one, every part cost a `String.append` (some 380
/// instructions, for a few bytes), and these lines are made several times for every row.
public enum Joining {
    /// The parts that are there, each after `separator` when text came before it: what
    /// appending them one by one gives (`if !line.isEmpty { line += separator }; line += part`),
    /// an empty part included.
    public static func joined(_ parts: [String?], separator: String) -> String {
        let gap = separator.utf8.count
        var count = 0
        for case let part? in parts {
            if count > 0 { count += gap }
            count += part.utf8.count
        }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var k = 0
            for case let part? in parts {
                if k > 0 { k = copy(separator, into: buffer, at: k) }
                k = copy(part, into: buffer, at: k)
            }
            return k
        }
    }

    /// `joined([a, b, …], separator:)` for up to seven parts, without the array: the lines of
    /// every row's addresses are made this way, and an array of optionals costs an allocation
    /// and a generic release of each element.
    public static func joined(_ a: String?, _ b: String?, _ c: String? = nil, _ d: String? = nil, _ e: String? = nil,
                              _ f: String? = nil, _ g: String? = nil, separator: String) -> String {
        let gap = separator.utf8.count
        var count = 0
        @inline(__always) func measure(_ part: String?) {
            guard let part else { return }
            if count > 0 { count += gap }
            count += part.utf8.count
        }
        measure(a); measure(b); measure(c); measure(d); measure(e); measure(f); measure(g)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var k = 0
            @inline(__always) func put(_ part: String?) {
                guard let part else { return }
                if k > 0 { k = copy(separator, into: buffer, at: k) }
                k = copy(part, into: buffer, at: k)
            }
            put(a); put(b); put(c); put(d); put(e); put(f); put(g)
            return k
        }
    }

    /// `a + separator + b`.
    public static func joined(_ a: String, _ separator: String, _ b: String) -> String {
        String(unsafeUninitializedCapacity: a.utf8.count + separator.utf8.count + b.utf8.count) { buffer in
            copy(b, into: buffer, at: copy(separator, into: buffer, at: copy(a, into: buffer, at: 0)))
        }
    }

    /// Copies the text's bytes into `buffer` at `k`; returns the index after them.
    @inline(__always)
    private static func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at k: Int) -> Int {
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return 0 }
            (buffer.baseAddress! + k).initialize(from: source, count: bytes.count)
            return bytes.count
        }
        if let copied { return k + copied }
        var n = k
        for b in text.utf8 {
            buffer[n] = b
            n += 1
        }
        return n
    }
}
