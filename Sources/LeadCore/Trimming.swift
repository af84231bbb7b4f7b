extension String {
    /// The text without leading and trailing white space (Unicode White_Space: spaces, tabs,
    /// line breaks, no-break spaces). Foundation's `trimmingCharacters(in:)` does the same
    /// through NSString, at several times the cost per cell.
    public var trimmed: String {
        // Most cells start and end with an ASCII letter or digit: nothing to trim, and no need
        // to walk the scalars (an ASCII byte is always a whole scalar).
        if let (first, last) = utf8Ends, first < 0x80, last < 0x80,
           !Self.isSpace(Unicode.Scalar(first)), !Self.isSpace(Unicode.Scalar(last)) {
            return self
        }
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let before = scalars.index(before: end)
            guard Self.isSpace(scalars[before]) else { break }
            end = before
        }
        if start == startIndex && end == endIndex { return self }
        return String(self[start..<end])
    }

    /// The first and last bytes of the text's UTF-8, or nil when it is empty. Read from the
    /// string's own storage: the generic `utf8.last` steps back through `index(before:)` at
    /// some 180 instructions a call.
    public var utf8Ends: (first: UInt8, last: UInt8)? {
        if let ends = utf8.withContiguousStorageIfAvailable({ b in b.isEmpty ? nil : (b[0], b[b.count - 1]) }) { return ends }
        guard let first = utf8.first, let last = utf8.last else { return nil }
        return (first, last)
    }

    @inline(__always)
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x80 ? (s.value == 0x20 || (0x09...0x0D).contains(s.value)) : s.properties.isWhitespace
    }
}

extension Substring {
    public var trimmed: String { String(self).trimmed }
}
