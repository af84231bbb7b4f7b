/// The lead fields a column can be mapped to. Raw values are the names used in mapping files.
public enum LeadField: String, CaseIterable, Sendable, Codable {
    case fullName = "full_name", firstName = "first_name", lastName = "last_name"
    case email, phone, mobile, company, notes, status, source
    case address, unit, city, state, zip, country
    case mailingAddress = "mailing_address", mailingCity = "mailing_city", mailingState = "mailing_state", mailingZip = "mailing_zip"
    case date

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
    /// Unmapped columns, by header, in file order.
    public var extras: [(header: String, value: String)] = []
    /// Where each field came from.
    public var origins = FieldOrigins()
    public var issues: [LeadIssue] = []

    public init(source: SourceLocation) {
        self.source = source
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
            return a + " " + b
        }
        var first = join(givenName, middleName) ?? ""
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
