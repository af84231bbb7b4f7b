/// The lead fields a column can be mapped to. Raw values are the names used in mapping files.
public enum LeadField: String, CaseIterable, Sendable, Codable {
    case fullName = "full_name", firstName = "first_name", lastName = "last_name"
    case email, phone, mobile, company, notes, status, source
    case address, unit, city, state, zip, country
    case mailingAddress = "mailing_address", mailingCity = "mailing_city", mailingState = "mailing_state", mailingZip = "mailing_zip"
    case date

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
    public var origins: [LeadField: FieldOrigin] = [:]
    public var issues: [LeadIssue] = []

    public init(source: SourceLocation) {
        self.source = source
    }

    /// `Given Middle Family`, or the couple's names for a household.
    public var fullName: String? {
        var first = [givenName, middleName].compactMap { $0 }.joined(separator: " ")
        if household, let second = secondGivenName {
            if secondFamilyName == familyName || secondFamilyName == nil {
                first += " & " + second
            } else {
                return [first, familyName].compactMap { $0 }.joined(separator: " ") + " & " + second + " " + (secondFamilyName ?? "")
            }
        }
        let parts = [first.isEmpty ? nil : first, familyName].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// What happened to one input row at one destination.
public enum Outcome: String, Sendable, Codable, CaseIterable {
    case created, updated, unchanged, skipped, rejected, failed
}
