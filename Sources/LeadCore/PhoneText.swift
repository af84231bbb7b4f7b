/// A phone with its extension as a free-text phone field holds it: the E.164 number, then
/// ` ext. ` and the extension (`+15551234567 ext. 22`), the form HubSpot and Google Contacts
/// display. Destinations whose phone value is free text (HubSpot's `phone`, Follow Up Boss's
/// `phones[].value`, Google's `phoneNumbers[].value`) are sent this; keys, look-ups by phone and
/// comparisons use the number alone (`number(_:)`), so a contact is found by its number
/// whether or not an extension was written beside it.
public enum PhoneText {
    static let mark = " ext. "

    /// `number ext. extension`, or `number` when there is no extension; nil without a number.
    public static func withExtension(_ number: String?, _ extensionNumber: String?) -> String? {
        guard let number else { return nil }
        guard let extensionNumber, !extensionNumber.isEmpty else { return number }
        return number + mark + extensionNumber
    }

    /// The number of a value written by `withExtension` (the whole text when it has no extension).
    public static func number(_ text: String) -> String {
        guard let at = text.firstRange(of: mark) else { return text }
        return String(text[..<at.lowerBound])
    }
}

extension Lead {
    /// The phone with its extension (`PhoneText`), for destinations whose phone is free text.
    public var phoneWithExtension: String? { PhoneText.withExtension(phone, phoneExtension) }
}
