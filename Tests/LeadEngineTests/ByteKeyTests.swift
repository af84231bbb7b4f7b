@testable import LeadEngine
import Testing

/// Keys are equal exactly when Swift's strings are (canonical equivalence), by their bytes.
@Suite struct ByteKeyTests {
    @Test func equalKeysAreEqualAndHashAlike() {
        let pairs: [(String, String)] = [
            ("email:jose@example.com", "email:jose@example.com"),
            ("email:josé@example.com", "email:jose\u{301}@example.com"),   // precomposed and decomposed
            ("phone:+16175550101|ñúñez", "phone:+16175550101|n\u{303}u\u{301}n\u{303}ez"),
            ("address:12 MAIN ST|02134", "address:12 MAIN ST|02134"),
            ("", ""),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(ByteKey(a) == ByteKey(b), "\(a)")
            #expect(ByteKey(a).hashValue == ByteKey(b).hashValue, "\(a)")
        }
    }

    @Test func differentKeysDiffer() {
        let keys = ["email:jose@example.com", "email:josé@example.com", "email:jose@example.co", "email:JOSE@example.com", "e", "", "email:jos\u{e9}@example.com "]
        for (i, a) in keys.enumerated() {
            for (j, b) in keys.enumerated() where i != j {
                #expect((a == b) == (ByteKey(a) == ByteKey(b)), "\(a) / \(b)")
            }
        }
        var table: [ByteKey: Int] = [:]
        for (n, key) in keys.enumerated() { table[ByteKey(key)] = n }
        #expect(table.count == Set(keys).count)
        #expect(table[ByteKey("email:jose\u{301}@example.com")] == 1)
    }
}
