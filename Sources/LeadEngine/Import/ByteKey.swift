import Foundation
import LeadCore

/// A string key hashed and compared on the UTF-8 bytes of its NFC form, which is what Swift's
/// `String` equality (canonical equivalence) comes to. `String` itself normalises text that
/// is not ASCII on every hash and every comparison, so on every probe of a table: a quarter of
/// a real list's emails have an accent, and the run's dedupe spent a sixth of its time there.
/// Here the text is put in NFC once, when the key is made (`NormalForm`: most text needs no
/// change, and is only scanned).
struct ByteKey: Hashable {
    let text: String

    init(_ text: String) { self.text = NormalForm.composed(text) }

    static func == (a: ByteKey, b: ByteKey) -> Bool {
        var (x, y) = (a.text, b.text)
        return x.withUTF8 { p in
            y.withUTF8 { q in p.count == q.count && (p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0) }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = self.text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
