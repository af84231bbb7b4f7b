import Foundation
import LeadCore

/// A contact as the People API takes and returns it (crm-apis.md §3.2): every field a list,
/// absent when empty. Only the fields LeadPort writes, plus what identifies a contact on reads
/// (`resourceName`, `etag`, `metadata`); Google's read-only decorations (`displayName`,
/// `formattedType`, per-item `metadata`) are dropped when read.
public struct GooglePerson: Codable, Sendable, Equatable {
    public var resourceName: String?
    public var etag: String?
    public var names: [Name]?
    public var nicknames: [Value]?
    public var emailAddresses: [Typed]?
    public var phoneNumbers: [Phone]?
    public var addresses: [Address]?
    public var organizations: [Organization]?
    public var biographies: [Biography]?
    public var userDefined: [KeyValue]?
    public var clientData: [KeyValue]?
    public var memberships: [Membership]?
    /// Reads only: `deleted` tombstones in a sync listing.
    public var metadata: Metadata?

    public init() {}

    public struct Name: Codable, Sendable, Equatable {
        public var honorificPrefix, givenName, middleName, familyName, honorificSuffix, unstructuredName: String?
        public init() {}
    }

    public struct Value: Codable, Sendable, Equatable {
        public var value: String
        public init(_ value: String) { self.value = value }
    }

    /// An email address (`type`: home, work, other or a label of the user's).
    public struct Typed: Codable, Sendable, Equatable {
        public var value: String
        public var type: String?
        public init(_ value: String, type: String? = nil) { (self.value, self.type) = (value, type) }
    }

    public struct Phone: Codable, Sendable, Equatable {
        public var value: String
        public var type: String?
        /// E.164, as Google reads the number (reads only).
        public var canonicalForm: String?
        public init(_ value: String, type: String? = nil) { (self.value, self.type) = (value, type) }
    }

    public struct Address: Codable, Sendable, Equatable {
        public var streetAddress, extendedAddress, city, region, postalCode, countryCode, type: String?
        public init() {}
    }

    public struct Organization: Codable, Sendable, Equatable {
        public var name: String
        public var title: String?
        public init(name: String, title: String? = nil) { (self.name, self.title) = (name, title) }
    }

    public struct Biography: Codable, Sendable, Equatable {
        public var value: String
        public var contentType: String?
        public init(_ value: String) { (self.value, contentType) = (value, "TEXT_PLAIN") }
    }

    public struct KeyValue: Codable, Sendable, Equatable {
        public var key: String
        public var value: String
        public init(key: String, value: String) { (self.key, self.value) = (key, value) }
    }

    public struct Membership: Codable, Sendable, Equatable {
        public var contactGroupMembership: GroupMembership
        public init(group resourceName: String) { contactGroupMembership = GroupMembership(contactGroupResourceName: resourceName) }
        public struct GroupMembership: Codable, Sendable, Equatable {
            public var contactGroupResourceName: String?
        }
    }

    public struct Metadata: Codable, Sendable, Equatable {
        public var deleted: Bool?
    }

    /// The `clientData` key under which LeadPort keeps its import key: app-private, so the user
    /// never sees it, and it finds a contact again after a lost answer (crm-apis.md §3.8).
    public static let importKeyName = "leadport.key"

    /// The import key this contact carries, if any.
    public var importKey: String? { clientData?.first { $0.key == Self.importKeyName }?.value }

    /// The fields this value holds, by their mask names (for `updatePersonFields`): a field left
    /// out of the mask is left alone remotely, so a blank never wipes what is there.
    public var fieldMask: [String] {
        let present: [(String, Bool)] = [
            ("addresses", addresses != nil), ("biographies", biographies != nil), ("clientData", clientData != nil),
            ("emailAddresses", emailAddresses != nil), ("memberships", memberships != nil), ("names", names != nil),
            ("nicknames", nicknames != nil), ("organizations", organizations != nil), ("phoneNumbers", phoneNumbers != nil),
            ("userDefined", userDefined != nil),
        ]
        return present.filter(\.1).map(\.0)
    }

    /// Every field LeadPort writes, for read masks.
    public static let writtenFields = "addresses,biographies,clientData,emailAddresses,memberships,names,nicknames,organizations,phoneNumbers,userDefined"

    /// The exact bytes sent for this contact: JSON with sorted keys, no whitespace, slashes
    /// unescaped. The same value always gives the same bytes, so the engine can hash them; and
    /// request bodies embed the person encoded this same way.
    public var canonicalJSON: Data {
        // Encoding these value types cannot fail: strings, lists and optionals only.
        (try? Self.encoder.encode(self)) ?? Data()
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension GooglePerson {
    /// The contact a lead becomes. Pure: the same lead and arguments give
    /// the same value, and so the same `canonicalJSON`.
    ///
    /// | lead | Google field |
    /// | --- | --- |
    /// | prefix, given, middle, family, suffix | `names[0]` (a household: `Ann & Bob`, or `Ann, Bob & Cy` for three owners, as given name, or the whole as `unstructuredName` when their family names differ) |
    /// | nickname | `nicknames` |
    /// | email | `emailAddresses` |
    /// | phone (E.164, ` ext. N` after it) / mobile | `phoneNumbers` (mobile typed `mobile`) |
    /// | address / mailing address | `addresses` (`home`; with a mailing address, that one is `home` and the property `other`) |
    /// | company, else the organisation an owner is | `organizations[0].name` |
    /// | notes | `biographies` (plain text) |
    /// | extras named by `customFields` | `userDefined` (key → value), sorted by key |
    /// | `importKey` | `clientData` (`leadport.key`) |
    /// | `contactGroups` (resource names: the campaign's label) | `memberships` |
    ///
    /// Blank values (empty or white space) are never sent, so that they cannot overwrite a value
    /// in Google Contacts; a field with nothing to send is absent.
    ///
    /// - Parameters:
    ///   - customFields: userDefined key → the header of the lead's extra column holding its value
    ///     (matched exactly, then regardless of case).
    public init(lead: Lead, customFields: [String: String] = [:], importKey: String? = nil, contactGroups: [String] = []) {
        self.init()
        names = Self.name(lead).map { [$0] }
        nicknames = Self.list([Self.text(lead.nickname).map(Value.init)])
        emailAddresses = Self.list([Self.text(lead.email).map { Typed($0) }])
        let phone = Self.text(lead.phone).map { number in Phone(Self.text(lead.phoneExtension).map { number + " ext. " + $0 } ?? number) }
        phoneNumbers = Self.list([phone, Self.text(lead.mobile).map { Phone($0, type: "mobile") }])
        let mailing = lead.mailingAddress.flatMap { Self.address($0, type: "home") }
        addresses = Self.list([Self.address(lead.address, type: mailing == nil ? "home" : "other"), mailing])
        organizations = Self.list([(Self.text(lead.company) ?? Self.text(lead.organization)).map { Organization(name: $0) }])
        biographies = Self.list([Self.text(lead.notes).map(Biography.init)])
        userDefined = Self.list(customFields.sorted { $0.key < $1.key }.map { field, header in
            Self.text(field).flatMap { key in Self.extra(lead, header).map { KeyValue(key: key, value: $0) } }
        })
        clientData = Self.list([Self.text(importKey).map { KeyValue(key: Self.importKeyName, value: $0) }])
        memberships = Self.list(contactGroups.map { group in Self.text(group).map { Membership(group: $0) } })
    }

    /// The non-blank text, trimmed; nil for nil, empty or white space.
    static func text(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    static func list<T>(_ items: [T?]) -> [T]? {
        let present = items.compactMap { $0 }
        return present.isEmpty ? nil : present
    }

    static func name(_ lead: Lead) -> Name? {
        var name = Name()
        name.honorificPrefix = text(lead.prefix)
        name.givenName = text(lead.givenName)
        name.middleName = text(lead.middleName)
        name.familyName = text(lead.familyName)
        name.honorificSuffix = text(lead.suffix)
        if lead.household, let second = text(lead.secondGivenName) {
            let families = [text(lead.secondFamilyName)] + lead.otherOwners.map { text($0.family) }
            if families.allSatisfy({ $0 == nil || $0 == name.familyName }) {
                name.givenName = Salutation.list([name.givenName, second] + lead.otherOwners.map(\.given))
            } else {
                // Google keeps one name per contact: two families are one unstructured name.
                name = Name()
                name.unstructuredName = text(lead.fullName)
            }
        }
        return name == Name() ? nil : name
    }

    static func address(_ a: PostalAddress, type: String) -> Address? {
        var address = Address()
        address.streetAddress = text(a.deliveryLine)
        address.extendedAddress = text(a.unparsed)
        address.city = text(a.city)
        address.region = text(a.state)
        address.postalCode = text(a.postalCode).map { code in text(a.zip4).map { code + "-" + $0 } ?? code }
        address.countryCode = text(a.country)
        guard address != Address() else { return nil }
        address.type = type
        return address
    }

    static func extra(_ lead: Lead, _ header: String) -> String? {
        let cell = lead.extras.first { $0.header == header } ?? lead.extras.first { $0.header.caseInsensitiveCompare(header) == .orderedSame }
        return text(cell?.value)
    }
}

/// A contact group (a label in Google Contacts): LeadPort files a campaign's contacts under one.
public struct GoogleContactGroup: Codable, Sendable, Equatable {
    public var resourceName: String
    public var name: String?
    /// `USER_CONTACT_GROUP` or `SYSTEM_CONTACT_GROUP`.
    public var groupType: String?
    public var memberCount: Int?
}

/// What became of one contact of a batch create, in the batch's order.
public enum GoogleContactsCreateResult: Sendable, Equatable {
    /// Created: its resource name (`people/c…`) and etag. After a lost answer, the contact found
    /// to have been created by the lost request.
    case created(resourceName: String, etag: String?)
    /// Google refused this contact; the reason names the field (`emailAddresses[0].value: …`).
    case rejected(reason: String)
}
