import Testing
@testable import LeadEngine

/// The in-file dedupe's memory of keys: the same key twice is a duplicate of its first row,
/// whether it is ASCII (kept by hash) or not (kept by text, where canonically equivalent
/// spellings are one key, as Swift compares strings).
@Suite struct SeenKeysTests {
    @Test func aKeySeenBeforeAnswersItsFirstRow() {
        var seen = ImportRun.SeenKeys()
        #expect(seen.first("email:ann@example.com", row: 2) == nil)
        #expect(seen.first("email:bob@example.com", row: 3) == nil)
        #expect(seen.first("email:ann@example.com", row: 9) == 2)
        #expect(seen.first("email:ann@example.com", row: 10) == 2)
        #expect(seen.first("email:ann@example.co", row: 11) == nil)
    }

    @Test func keysOutsideASCIIAreKeptByTheirTextAndEquivalentSpellingsAreOne() {
        var seen = ImportRun.SeenKeys()
        #expect(seen.first("email:jos\u{E9}@example.com", row: 2) == nil)
        // "é" written as "e" and a combining acute accent: the same key.
        #expect(seen.first("email:jose\u{301}@example.com", row: 5) == 2)
        #expect(seen.first("email:jose@example.com", row: 6) == nil)
        #expect(seen.first("email:jose@example.com", row: 7) == 6)
    }

    /// 200,000 distinct keys: none is taken for another (a 64-bit hash shared by two of them
    /// would be told apart by their text).
    @Test func manyDistinctKeysAreAllNew() {
        var seen = ImportRun.SeenKeys()
        for k in 0..<200_000 { #expect(seen.first("phone:+1617555\(k)", row: k) == nil) }
        #expect(seen.first("phone:+16175551234", row: 0) == 1234)
    }
}
