import LeadCore

/// FLYR row ids.
public enum FlyrID {
    /// `contact|a:address`, or either alone (`a:address`), or "" for neither. Made once for
    /// every created lead, in one string allocated at its final size.
    public static func join(contact: String?, address: String?) -> String {
        guard let address else { return contact ?? "" }
        guard let contact, !contact.isEmpty else { return "a:" + address }
        return Joining.joined(contact, "|a:", address)
    }

    public static func split(_ remoteID: String) -> (contact: String?, address: String?) {
        var contact: String?, address: String?
        for part in remoteID.split(separator: "|") {
            if part.hasPrefix("a:") { address = String(part.dropFirst(2)) } else if !part.isEmpty { contact = String(part) }
        }
        return (contact, address)
    }

    /// A name-based UUID (RFC 9562 version 5, SHA-1) for `parts`: the same lead sent to the same
    /// place always gets the same id, so a batch sent again after a crash finds its rows there
    /// instead of adding them twice.
    public static func stable(_ parts: String...) -> String {
        var message = namespace
        for (k, part) in parts.enumerated() {
            if k > 0 { message.append(0x1F) }
            message.append(contentsOf: part.utf8)
        }
        var bytes = SHA1.digest(message)
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (k, byte) in bytes.prefix(16).enumerated() {
            if k == 4 || k == 6 || k == 8 || k == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// LeadPort's own namespace for its ids (a random UUID, fixed once).
    private static let namespace: [UInt8] = [0x6c, 0x70, 0x0e, 0x1d, 0x2b, 0x4a, 0x4f, 0x10, 0x9a, 0x61, 0x3e, 0x57, 0xd2, 0x08, 0xc4, 0x1f]
}
