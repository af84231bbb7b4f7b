/// SHA-1 (FIPS 180-4 §6.1) of a short byte string, for name-based UUIDs (RFC 9562 version 5)
/// only: not for anything that needs a secure hash. LeadPort makes two such ids for every lead
/// it sends to PostgreSQL or Supabase; through swift-crypto's general hasher each took some
/// 13,000 instructions (a `Data` per part, a boxed hasher), here about 2,500.
public enum SHA1 {
    /// The 20-byte digest of `message`.
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian), to a
        // multiple of 64 bytes.
        let blocks = (message.count + 8) / 64 + 1
        var padded = [UInt8](repeating: 0, count: blocks * 64)
        padded.withUnsafeMutableBufferPointer { buffer in
            for k in message.indices { buffer[k] = message[k] }
            buffer[message.count] = 0x80
            let bits = UInt64(message.count) &* 8
            for k in 0..<8 { buffer[buffer.count - 1 - k] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k))) }
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            padded.withUnsafeBufferPointer { bytes in
                for block in 0..<blocks {
                    let base = block * 64
                    for t in 0..<16 {
                        let i = base + 4 * t
                        w[t] = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
                    }
                    for t in 16..<80 { w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
                    var (a, b, c, d, e) = state
                    for t in 0..<80 {
                        let f: UInt32, k: UInt32
                        switch t {
                        case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                        case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                        case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                        default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                        }
                        let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[t]
                        (e, d, c, b, a) = (d, c, rotl(b, 30), a, temp)
                    }
                    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
                }
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest.append(contentsOf: [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)])
        }
        return digest
    }

    @inline(__always)
    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
}
