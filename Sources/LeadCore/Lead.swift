/// The lead fields a column can be mapped to. Raw values are the names used in mapping files.
public enum LeadField: String, CaseIterable, Sendable, Codable {
    case fullName = "full_name", firstName = "first_name", lastName = "last_name"
    case email, phone, mobile, company, notes, status, source
    case address, unit, city, state, zip, country
    case mailingAddress = "mailing_address", mailingCity = "mailing_city", mailingState = "mailing_state", mailingZip = "mailing_zip"
    case date
    case latitude, longitude

    /// The case's position, 0 ..< allCases.count, for tables indexed by field.
    public var ordinal: Int {
        switch self {
        case .fullName: return 0
        case .firstName: return 1
        case .lastName: return 2
        case .email: return 3
        case .phone: return 4
        case .mobile: return 5
        case .company: return 6
        case .notes: return 7
        case .status: return 8
        case .source: return 9
        case .address: return 10
        case .unit: return 11
        case .city: return 12
        case .state: return 13
        case .zip: return 14
        case .country: return 15
        case .mailingAddress: return 16
        case .mailingCity: return 17
        case .mailingState: return 18
        case .mailingZip: return 19
        case .date: return 20
        case .latitude: return 21
        case .longitude: return 22
        }
    }

    /// Fields that say who or where a lead is; a row with none of them is not a lead.
    public var isIdentifying: Bool {
        switch self {
        case .fullName, .firstName, .lastName, .email, .phone, .mobile, .address: return true
        default: return false
        }
    }
}

/// Where a lead's field value came from.
public enum FieldOrigin: Sendable, Equatable {
    case column(Column)
    case rule(String)
    case defaultValue
}

/// Where each of a lead's fields came from: a few entries, kept in a small list (a
/// dictionary hashed every field of every row for what a scan of six entries does).
public struct FieldOrigins: Sendable {
    public private(set) var entries: [(field: LeadField, origin: FieldOrigin)] = []

    public init() {}

    public subscript(_ field: LeadField) -> FieldOrigin? {
        get { entries.first { $0.field == field }?.origin }
        set {
            let at = entries.firstIndex { $0.field == field }
            switch (at, newValue) {
            case let (at?, origin?): entries[at].origin = origin
            case let (at?, nil): entries.remove(at: at)
            case let (nil, origin?): entries.append((field, origin))
            case (nil, nil): break
            }
        }
    }
}

/// A normalised record. `source` is copied from the row it came from and never changes.
public struct Lead: Sendable {
    public var source: SourceLocation
    public var prefix: String?
    public var givenName: String?
    public var middleName: String?
    public var familyName: String?
    public var suffix: String?
    public var nickname: String?
    public var household = false
    public var secondGivenName: String?
    public var secondFamilyName: String?
    public var secondPrefix: String?
    /// The third owner and any after it (`SMITH JOHN & MARY & ROBERT`), in the order written.
    public var otherOwners: [CoOwner] = []
    /// The owner when it is not a person (`Acme Properties LLC`, `Estate of Mary Jones`):
    /// its name, and no given or family name.
    public var organization: String?
    /// Record designations that followed the names (`TR`, `ETAL`, `JTWROS`).
    public var designation: String?
    public var email: String?
    public var emailSuggestion: String?
    /// E.164.
    public var phone: String?
    public var phoneExtension: String?
    public var mobile: String?
    public var company: String?
    public var notes: String?
    public var status: String?
    public var leadSource: String?
    public var date: String?
    public var address = PostalAddress()
    /// An owner's mailing address, when it differs from the property address.
    public var mailingAddress: PostalAddress?
    /// The property's position, in decimal degrees (WGS 84), when the list gives both parts
    /// within their ranges.
    public var coordinate: Coordinate?
    /// Unmapped columns, by header, in file order.
    public var extras: [(header: String, value: String)] = []
    /// Where each field came from.
    public var origins = FieldOrigins()
    public var issues: [LeadIssue] = []

    public init(source: SourceLocation) {
        self.source = source
    }

    /// Whether there is a `fullName`, told without making it where the parts tell (a row's
    /// gaps are counted for every row).
    public var hasFullName: Bool {
        if !household {
            if givenName == nil, middleName == nil, familyName == nil { return organization != nil }
            if familyName != nil { return true }
        }
        return fullName != nil
    }

    /// `Given Middle Family`, or the couple's names for a household; an organisation's name
    /// when the lead is one.
    public var fullName: String? {
        if givenName == nil, middleName == nil, familyName == nil, let organization { return organization }
        // Joined by hand: arrays of optionals and `joined` cost ten times as much, and this
        // is read several times for every row.
        func join(_ a: String?, _ b: String?) -> String? {
            guard let a else { return b }
            guard let b else { return a }
            return Joining.joined(a, " ", b)
        }
        var first = join(givenName, middleName) ?? ""
        if household, !otherOwners.isEmpty {
            let others = otherOwners.map { (given: join($0.given, $0.middle), family: $0.family) }
            return Salutation.names([(first, familyName), (secondGivenName, secondFamilyName ?? familyName)] + others)
        }
        if household, let second = secondGivenName {
            if secondFamilyName == familyName || secondFamilyName == nil {
                first += " & " + second
            } else {
                return first + (familyName.map { " " + $0 } ?? "") + " & " + second + " " + (secondFamilyName ?? "")
            }
        }
        return join(first.isEmpty ? nil : first, familyName)
    }
}

/// What happened to one input row at one destination.
public enum Outcome: String, Sendable, Codable, CaseIterable {
    case created, updated, unchanged, skipped, rejected, failed
    /// Not sent: the destination stopped (unreachable, credentials refused, a limit reached)
    /// before this row's turn; the next run sends it.
    case pending
}

/// A position in decimal degrees: latitude −90…90, longitude −180…180.
public struct Coordinate: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        (self.latitude, self.longitude) = (latitude, longitude)
    }

    /// FLYR's `campaign_addresses.coordinate`: `{"lat": …, "lon": …}` (the technical
    /// reference's `Coordinate`).
    public var json: String { "{\"lat\":\(Self.text(latitude)),\"lon\":\(Self.text(longitude))}" }

    /// A degree value as written: `-121.434879`, never an exponent.
    public static func text(_ degrees: Double) -> String {
        // Seven decimals are about a centimetre: more than any list holds.
        let scaled = (abs(degrees) * 10_000_000).rounded()
        let whole = Int64(scaled) / 10_000_000, fraction = Int64(scaled) % 10_000_000
        var digits = String(fraction)
        digits = String(repeating: "0", count: 7 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return (degrees < 0 && scaled > 0 ? "-" : "") + String(whole) + (digits.isEmpty ? "" : "." + digits)
    }

    /// A latitude or longitude as lists write them: a decimal, with an optional sign or
    /// hemisphere letter (`38.5816 N`, `121.4349W`); nil for anything else.
    public static func degrees(_ text: String) -> Double? {
        var t = String(text.trimmed.filter { $0 != "°" })
        var sign = 1.0
        if let last = t.last, "NSEWnsew".contains(last) {
            if "SWsw".contains(last) { sign = -1 }
            t = String(t.dropLast()).trimmed
        }
        guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }), let value = Double(t) else { return nil }
        return sign * value
    }
}
