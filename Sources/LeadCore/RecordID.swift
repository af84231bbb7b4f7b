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
        // 48 bits of time, the version (7) and 12 bits of counter; then the variant (10) and
        // 62 random bits.
        let high = millis << 16 | 0x7000 | UInt64(counter & 0x0FFF)
        let low = 0x8000_0000_0000_0000 | (nextRandom() >> 2)
        return Self.text(high, low)
    }

    /// `xxxxxxxx-xxxx-7xxx-yxxx-xxxxxxxxxxxx`, written straight into the string's storage.
    static func text(_ high: UInt64, _ low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            let digits: StaticString = "0123456789abcdef"
            let hex = digits.utf8Start
            var at = 0
            for k in 0..<32 {
                if k == 8 || k == 12 || k == 16 || k == 20 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                let word = k < 16 ? high : low
                let shift = UInt64(60 - 4 * (k % 16))
                out[at] = hex[Int((word >> shift) & 0xF)]
                at += 1
            }
            return at
        }
    }
}
