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
        var line = Self.emptyLine()
        Self.append(streetPredirectional, to: &line, separator: " ")
        Self.append(streetName, to: &line, separator: " ")
        Self.append(streetSuffix, to: &line, separator: " ")
        Self.append(streetPostdirectional, to: &line, separator: " ")
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
        var line = Self.emptyLine()
        // Canada Post writes a unit without a designator before the civic number: `10-123 MAIN ST`.
        if country == "CA", unitType == nil, let unitID, let houseNumber {
            line += unitID + "-" + houseNumber
            Self.append(streetPredirectional, to: &line, separator: " ")
            Self.append(streetName, to: &line, separator: " ")
            Self.append(streetSuffix, to: &line, separator: " ")
            Self.append(streetPostdirectional, to: &line, separator: " ")
            return line
        }
        // The street's parts straight into the line, not through a `streetLine` string first.
        Self.append(houseNumber, to: &line, separator: " ")
        Self.append(streetPredirectional, to: &line, separator: " ")
        Self.append(streetName, to: &line, separator: " ")
        Self.append(streetSuffix, to: &line, separator: " ")
        Self.append(streetPostdirectional, to: &line, separator: " ")
        Self.append(unitType, to: &line, separator: " ")
        Self.append(unitID, to: &line, separator: " ")
        return line.isEmpty ? nil : line
    }

    /// `123 N MAIN ST APT 4, SPRINGFIELD, MA 01101-1234`.
    public var formatted: String? { formatted(deliveryLine: deliveryLine) }

    /// The formatted address around a delivery line already built.
    public func formatted(deliveryLine: String?) -> String? {
        var last = state ?? ""
        if let postalCode { Self.append(zip4.map { postalCode + "-" + $0 } ?? postalCode, to: &last, separator: " ") }
        var line = Self.emptyLine()
        if let deliveryLine { line += deliveryLine }
        Self.append(city, to: &line, separator: ", ")
        Self.append(last.isEmpty ? nil : last, to: &line, separator: ", ")
        return line.isEmpty ? nil : line
    }

    /// A line with room for a whole address, so that appending its parts does not
    /// reallocate it three or four times on the way.
    @inline(__always)
    static func emptyLine() -> String {
        var line = ""
        line.reserveCapacity(80)
        return line
    }

    /// Appends `part` to `line`, after `separator` when `line` already has text.
    @inline(__always)
    static func append(_ part: String?, to line: inout String, separator: String) {
        guard let part else { return }
        if !line.isEmpty { line += separator }
        line += part
    }
}
