import XCTest
@testable import LeadCore

final class SHA1Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// FIPS 180-4's examples (and the empty message).
    func testPublishedExamples() {
        XCTAssertEqual(hex(SHA1.digest(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(SHA1.digest([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    /// Lengths either side of the padding's block boundaries (55/56 and 119/120 bytes need one
    /// more block for the length), against Python's hashlib.
    func testBlockBoundaries() {
        let expected: [Int: String] = [
            1: "86f7e437faa5a7fce15d1ddcb9eaeaea377667b8",
            55: "c1c8bbdc22796e28c0e15163d20899b65621d65a",
            56: "c2db330f6083854c99d4b5bfb6e8f29f201be699",
            63: "03f09f5b158a7a8cdad920bddc29b81c18a551f5",
            64: "0098ba824b5c16427bd7a1122a5a442a25ec644d",
            65: "11655326c708d70319be2610e8a57d9a5b959d3b",
            119: "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56",
            120: "f34c1488385346a55709ba056ddd08280dd4c6d6",
            128: "ad5b3fdbcb526778c2839d2f151ea753995e26a0",
        ]
        for (length, digest) in expected {
            XCTAssertEqual(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: length))), digest, "\(length) bytes")
        }
    }
}
