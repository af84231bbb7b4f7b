/// A postal address in USPS components (US and Canada). Every field is optional: a lead list
/// may hold only a street line, only a ZIP code, or nothing at all.
public struct PostalAddress: Sendable, Equatable, Codable {
    /// The person, company or department written before the delivery line (`Acme Inc, Attn
    /// Billing`); not part of `deliveryLine`, `formatted` or any key.
    public var recipient: String?
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
    /// What was written but fits no component, as written (a second unit, a mail stop, a number
    /// that is not a ZIP code): kept, never dropped.
    public var unparsed: String?

    public init() {}

    public var isEmpty: Bool {
        poBoxID == nil && houseNumber == nil && streetPredirectional == nil && streetName == nil && streetSuffix == nil
            && streetPostdirectional == nil && unitType == nil && unitID == nil && city == nil && state == nil && postalCode == nil
    }

    /// Whether there is a delivery line, without building it.
    public var hasDeliveryLine: Bool {
        poBoxID != nil || houseNumber != nil || streetPredirectional != nil || streetName != nil || streetSuffix != nil
            || streetPostdirectional != nil || unitType != nil || unitID != nil
    }

    /// The street: directionals, name and suffix (`N MAIN ST`), without the house number or unit.
    public var streetLine: String? {
        let line = Joining.joined(streetPredirectional, streetName, streetSuffix, streetPostdirectional, separator: " ")
        return line.isEmpty ? nil : line
    }

    /// The unit's designator and id (`APT 4`, `#4`), or either alone.
    public var unit: String? {
        switch (unitType, unitID) {
        case let (type?, id?): return type + " " + id
        case let (type?, nil): return type
        case let (nil, id?): return id
        case (nil, nil): return nil
        }
    }

    /// The box line: `PO BOX 12`, or a route's box (`RR 2 BOX 152`, `HC 68 BOX 23A`, `PSC 802
    /// BOX 74`, where the route is in `streetName` and there is no house number).
    public var boxLine: String? {
        guard let poBoxID else { return nil }
        if houseNumber == nil, let route = streetName { return route + " BOX " + poBoxID }
        return "PO BOX " + poBoxID
    }

    /// `123 N MAIN ST APT 4`, `PO BOX 12` or `RR 2 BOX 152`.
    public var deliveryLine: String? {
        if let boxLine {
            // A lockbox or file number written beside the box stays with it: nothing written is
            // dropped from the line a mailing prints.
            if let unit, !unit.isEmpty { return boxLine + " " + unit }
            return boxLine
        }
        // Canada Post writes a unit without a designator before the civic number: `10-123 MAIN ST`.
        if country == "CA", unitType == nil, let unitID, let houseNumber {
            return Joining.joined(Joining.joined(unitID, "-", houseNumber), streetPredirectional, streetName, streetSuffix, streetPostdirectional, separator: " ")
        }
        // The street's parts straight into the line, not through a `streetLine` string first.
        let line = Joining.joined(houseNumber, streetPredirectional, streetName, streetSuffix, streetPostdirectional, unitType, unitID, separator: " ")
        return line.isEmpty ? nil : line
    }

    /// `123 N MAIN ST APT 4, SPRINGFIELD, MA 01101-1234`.
    public var formatted: String? { formatted(deliveryLine: deliveryLine) }

    /// The formatted address around a delivery line already built.
    public func formatted(deliveryLine: String?) -> String? {
        let last = Joining.joined(state, postalCode.map { postalCode in zip4.map { Joining.joined(postalCode, "-", $0) } ?? postalCode }, separator: " ")
        let line = Joining.joined(deliveryLine, city, last.isEmpty ? nil : last, separator: ", ")
        return line.isEmpty ? nil : line
    }
}
