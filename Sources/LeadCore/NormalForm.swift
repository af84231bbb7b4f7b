import Foundation

/// Unicode Normalization Form C, taken only where it can change something.
public enum NormalForm {
    /// `text` in NFC (a decomposed `é`, `e` + U+0301, becomes one character).
    public static func composed(_ text: String) -> String {
        // Text of characters below U+0300 (ASCII, Latin-1, Latin Extended, as most names and
        // addresses are) is in NFC already: the combining marks and every character NFC changes
        // come after. In UTF-8 those characters are the bytes below 0xCC (lead bytes of U+0300
        // and up are 0xCC and higher; continuation bytes are below 0xC0). Foundation's mapping
        // took a fifth of the email rule's time on lists with accented names.
        // Scanned on the contiguous bytes: through the `utf8` view the scan cost more than the
        // hashing it saves.
        var bytes = text
        let composed = bytes.withUTF8 { !$0.contains { $0 >= 0xCC } }
        return composed ? text : text.precomposedStringWithCanonicalMapping
    }
}
