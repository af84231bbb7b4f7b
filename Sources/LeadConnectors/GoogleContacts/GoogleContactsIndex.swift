import Foundation

/// The contacts of an account, looked up the way LeadPort matches a lead to a contact: Google
/// dedupes nothing (crm-apis.md §3.8), so before creating, the client looks for the contact by
/// LeadPort's import key, then by email (regardless of case), then by phone (E.164).
public struct GoogleContactsIndex: Sendable {
    private var byKey: [String: GooglePerson] = [:]
    private var byEmail: [String: GooglePerson] = [:]
    private var byPhone: [String: GooglePerson] = [:]
    public private(set) var count = 0

    public init(_ people: [GooglePerson] = []) {
        for person in people { add(person) }
    }

    /// Adds a contact (a tombstone of a sync listing removes nothing: build the index anew).
    /// The first contact seen keeps a key that two contacts share.
    public mutating func add(_ person: GooglePerson) {
        guard person.metadata?.deleted != true, person.resourceName != nil else { return }
        count += 1
        if let key = person.importKey, byKey[key] == nil { byKey[key] = person }
        for email in person.emailAddresses ?? [] {
            let key = Self.email(email.value)
            if !key.isEmpty, byEmail[key] == nil { byEmail[key] = person }
        }
        for phone in person.phoneNumbers ?? [] {
            // By the canonical form and by the text (one without the other's mistakes).
            for key in Set([phone.canonicalForm, phone.value].compactMap { $0.flatMap(Self.phone) }) where byPhone[key] == nil { byPhone[key] = person }
        }
    }

    /// The contact `person` would duplicate: same import key, else an email in common, else a phone.
    public func match(_ person: GooglePerson) -> GooglePerson? { find(person)?.contact }

    /// What a match was made by, strongest first: callers may trust a phone less than a key.
    public enum MatchedBy: Sendable, Equatable { case importKey, email, phone }

    /// The contact `person` would duplicate, and what matched it (as `match`).
    public func find(_ person: GooglePerson) -> (contact: GooglePerson, by: MatchedBy)? {
        if let key = person.importKey, let found = byKey[key] { return (found, .importKey) }
        for email in person.emailAddresses ?? [] {
            if let found = byEmail[Self.email(email.value)] { return (found, .email) }
        }
        for phone in person.phoneNumbers ?? [] {
            if let key = Self.phone(phone.value), let found = byPhone[key] { return (found, .phone) }
        }
        return nil
    }

    static func email(_ value: String) -> String { value.trimmingCharacters(in: .whitespaces).lowercased() }

    /// A number as E.164 digits: `+` and the digits before any extension; ten digits are taken
    /// as a North American number. Nil when too short to tell one contact from another.
    static func phone(_ value: String) -> String? {
        var number = Substring(value.lowercased())
        for marker in ["ext", "x", ";", ","] {
            if let at = number.range(of: marker) { number = number[..<at.lowerBound] }
        }
        let digits = number.filter(\.isNumber)
        if number.trimmingCharacters(in: .whitespaces).hasPrefix("+") { return digits.count >= 8 ? "+" + digits : nil }
        if digits.count == 10 { return "+1" + digits }
        if digits.count == 11, digits.hasPrefix("1") { return "+" + digits }
        return digits.count >= 8 ? "+" + digits : nil
    }
}
