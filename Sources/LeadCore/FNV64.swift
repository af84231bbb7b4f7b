/// FNV-1a over a sequence of strings, each followed by a separator (so `["ab", "c"]` and
/// `["a", "bc"]` differ); nil counts as one zero byte. The ledger keeps these values from run
/// to run: the mixing must not change.
public struct FNV64: Sendable {
    public private(set) var value: UInt64

    public init(seed: UInt64 = 0xcbf2_9ce4_8422_2325) { value = seed }

    public mutating func mix(_ part: String?) {
        if var part {
            part.withUTF8 { mix(bytes: $0) }
        } else {
            value = value &* 0x100_0000_01b3
            value ^= 0x1f
            value = value &* 0x100_0000_01b3
        }
    }

    /// `mix` of a part given as its UTF-8 bytes.
    public mutating func mix(bytes: UnsafeBufferPointer<UInt8>) {
        // In a local: the bytes could be `value`'s own memory as far as the compiler knows, so
        // the property was stored and loaded again for every byte.
        var h = value
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        value = (h ^ 0x1f) &* 0x100_0000_01b3
    }
}

