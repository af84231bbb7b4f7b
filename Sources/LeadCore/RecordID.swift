#if canImport(Glibc)
import Glibc
#endif

/// Ids for new rows: UUID version 7 (RFC 9562) in lower-case text. The first 48 bits are the
/// Unix time in milliseconds, so rows created together sort together and a B-tree index on
/// the id grows at its end instead of at random pages; the rest is a counter within the
/// millisecond and 62 random bits from the system generator (getrandom(2); Foundation's
/// UUID() opens and reads /dev/urandom for every id on Linux).
public final class RecordIDGenerator {
    private var generator = SystemRandomNumberGenerator()
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
        let random = generator.next()
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
