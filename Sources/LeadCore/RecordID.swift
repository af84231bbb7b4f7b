#if canImport(Glibc)
import Glibc
#endif

/// Ids for new rows: UUID version 7 (RFC 9562) in lower-case text. The first 48 bits are the
/// Unix time in milliseconds, so rows created together sort together and a B-tree index on
/// the id grows at its end instead of at random pages; the rest is a counter within the
/// millisecond and 62 pseudo-random bits (Foundation's UUID() opens and reads /dev/urandom for
/// every id on Linux).
public final class RecordIDGenerator {
    /// SplitMix64, seeded once from the system generator: ids need to be unique, which the
    /// time and counter already see to within a process, not secret; one getrandom(2) call
    /// per process instead of one per id.
    private var state: UInt64 = {
        var system = SystemRandomNumberGenerator()
        return system.next()
    }()

    private func nextRandom() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    private var lastMillis: UInt64 = 0
    private var counter: UInt16 = 0

    public init() {}

    public func next() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var millis = UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
        if millis <= lastMillis {
            // Same millisecond (or the clock stepped back): keep the order with the counter.
            millis = lastMillis
            counter &+= 1
            if counter > 0x0FFF {
                millis += 1
                counter = 0
            }
        } else {
            counter = 0
        }
        lastMillis = millis
        var bytes = [UInt8](repeating: 0, count: 16)
        for k in 0..<6 { bytes[k] = UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64(k))) }
        bytes[6] = 0x70 | UInt8(counter >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        let random = nextRandom()
        for k in 0..<8 { bytes[8 + k] = UInt8(truncatingIfNeeded: random >> (8 * UInt64(k))) }
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return Self.text(bytes)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func text(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (k, b) in bytes.enumerated() {
            if k == 4 || k == 6 || k == 8 || k == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
