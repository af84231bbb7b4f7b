// The columns of FLYR's tables for one lead, worked out once and written by every destination
// that holds FLYR rows (the embedded SQLite, PostgreSQL, Supabase).

/// A FLYR contact's columns, worked out before the write (on any thread).
public struct ContactRecord: Sendable, Equatable {
    public var fullName: String
    public var phone: String?
    public var email: String?
    public var address: String?
    public var notes: String?
    /// FLYR's `hot`, `warm`, `cold` or `new`, when the lead's status is one of them (nil: the
    /// table's default, `new`, on a create, and left as it is on an update).
    public var status: String?

    public init(fullName: String, phone: String?, email: String?, address: String?, notes: String?, status: String? = nil) {
        (self.fullName, self.phone, self.email, self.address, self.notes, self.status) = (fullName, phone, email, address, notes, status)
    }

    /// FLYR's statuses (the `contacts.status` CHECK).
    public static let statuses: Set<String> = ["hot", "warm", "cold", "new"]

    /// A lead's status as FLYR keeps it: one of `statuses`, in any case; nil for anything else.
    public static func flyrStatus(_ text: String?) -> String? {
        guard let word = text?.trimmed.lowercased(), statuses.contains(word) else { return nil }
        return word
    }
}

/// A FLYR campaign address's columns, worked out before the write (on any thread).
public struct AddressRecord: Sendable, Equatable {
    /// The delivery line: `12 N MAIN ST APT 4`.
    public var address: String?
    public var formatted: String?
    public var houseNumber: String?
    /// FLYR keeps the street name with its directionals and suffix (`N MAIN ST`), and the unit.
    public var streetName: String?
    public var locality: String?
    public var region: String?
    public var postalCode: String?
    /// `{"lat": …, "lon": …}` (`Coordinate.json`), written as the address is created.
    public var coordinate: String?

    /// The columns as read back from a FLYR table.
    public init(address: String?, formatted: String?, houseNumber: String?, streetName: String?, locality: String?, region: String?, postalCode: String?) {
        (self.address, self.formatted, self.houseNumber, self.streetName) = (address, formatted, houseNumber, streetName)
        (self.locality, self.region, self.postalCode) = (locality, region, postalCode)
    }

    public init(_ a: borrowing PostalAddress, coordinate: Coordinate? = nil) {
        self.init(a, deliveryLine: a.deliveryLine, formatted: a.formatted, coordinate: coordinate)
    }

    /// With the lines already built from `a` (borrowed, not copied).
    public init(_ a: borrowing PostalAddress, deliveryLine: String?, formatted: String?, coordinate: Coordinate? = nil) {
        self.coordinate = coordinate?.json
        address = deliveryLine
        self.formatted = formatted
        houseNumber = a.houseNumber
        if let street = a.boxLine ?? a.streetLine {
            if let unit = a.unit, !unit.isEmpty { streetName = street + " " + unit } else { streetName = street }
        }
        locality = a.city
        region = a.state
        postalCode = a.zip4.map { "\(a.postalCode ?? "")-\($0)" } ?? a.postalCode
    }
}
