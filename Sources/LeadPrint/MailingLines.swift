import LeadCore

/// A campaign address in USPS mailing style (Publication 28): upper case, no punctuation but
/// the hyphen of a ZIP+4 and a unit's `#` or fraction's `/`, single spaces; the delivery line
/// (`12 N MAIN ST APT 4`) and the last line (`BOSTON MA 02134-1234`).
public struct MailingLines: Sendable, Equatable {
    public var delivery: String
    public var last: String

    /// The lines of `a`, or why it cannot be mailed: no delivery line (no house number and
    /// street, nor a stored delivery line), or neither a ZIP nor a city and state.
    public static func of(_ address: PrintAddress) -> Result<MailingLines, Undeliverable> {
        let a = address.parts
        let street = [a.houseNumber, a.streetName].compactMap(clean).joined(separator: " ")
        let delivery = street.isEmpty ? clean(a.address) ?? "" : street
        guard !delivery.isEmpty else { return .failure(Undeliverable(reason: "no delivery line: the address has no house number and street")) }
        let city = clean(a.locality), state = clean(a.region), zip = clean(a.postalCode)
        guard zip != nil || (city != nil && state != nil) else {
            return .failure(Undeliverable(reason: "no ZIP code, nor a city and state, for \(delivery)"))
        }
        return .success(MailingLines(delivery: delivery, last: [city, state, zip].compactMap { $0 }.joined(separator: " ")))
    }

    public struct Undeliverable: Error, Equatable, Sendable {
        public var reason: String
    }

    /// Upper case, punctuation other than `-`, `#` and `/` turned to spaces, spaces squeezed;
    /// nil when nothing is left.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let kept = text.uppercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "#" || $0 == "/" ? $0 : " " }
        let words = String(kept).split(separator: " ")
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}

extension PrintAddress {
    /// The name the mail is addressed to: the contact's, unless the contact has none (an import
    /// names such a contact by its email, phone or address, or `(no name)`); nil then.
    public var salutation: String? {
        guard let contact else { return nil }
        let name = contact.fullName.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let standIns = [contact.email, contact.phone, contact.address, parts.address, "(no name)"].compactMap { $0?.lowercased() }
        guard name.contains(where: \.isLetter), !standIns.contains(name.lowercased()) else { return nil }
        return name
    }
}
