/// A postal address in USPS components (US and Canada). Every field is optional: a lead list
/// may hold only a street line, only a ZIP code, or nothing at all.
public struct PostalAddress: Sendable, Equatable, Codable {
    public var houseNumber: String?
    public var streetPredirectional: String?
    public var streetName: String?
    public var streetSuffix: String?
    public var streetPostdirectional: String?
    public var unitType: String?
    public var unitID: String?
    public var poBoxID: String?
    public var city: String?
    public var state: String?
    /// Five digits (US) or `A1A 1A1` (Canada).
    public var postalCode: String?
    public var zip4: String?
    /// `US` or `CA`.
    public var country: String?

    public init() {}

    public var isEmpty: Bool { deliveryLine == nil && city == nil && state == nil && postalCode == nil }

    /// The street: directionals, name and suffix (`N MAIN ST`), without the house number or unit.
    public var streetLine: String? {
        let parts = [streetPredirectional, streetName, streetSuffix, streetPostdirectional].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `123 N MAIN ST APT 4`, or `PO BOX 12`.
    public var deliveryLine: String? {
        if let poBoxID { return "PO BOX \(poBoxID)" }
        let parts = [houseNumber, streetLine, unitType, unitID].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `123 N MAIN ST APT 4, SPRINGFIELD, MA 01101-1234`.
    public var formatted: String? {
        var last: [String] = []
        if let state { last.append(state) }
        if let postalCode { last.append(zip4.map { "\(postalCode)-\($0)" } ?? postalCode) }
        let parts = [deliveryLine, city, last.isEmpty ? nil : last.joined(separator: " ")].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
