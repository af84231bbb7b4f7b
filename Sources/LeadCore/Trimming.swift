extension String {
    /// The text without leading and trailing white space (Unicode White_Space: spaces, tabs,
    /// line breaks, no-break spaces). Foundation's `trimmingCharacters(in:)` does the same
    /// through NSString, at several times the cost per cell.
    public var trimmed: String {
        // Most cells start and end with an ASCII letter or digit: nothing to trim, and no need
        // to walk the scalars (an ASCII byte is always a whole scalar).
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80,
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

    @inline(__always)
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x80 ? (s.value == 0x20 || (0x09...0x0D).contains(s.value)) : s.properties.isWhitespace
    }
}

extension Substring {
    public var trimmed: String { String(self).trimmed }
}
