import Foundation

/// An email or phone of a person: `{value, type?, isPrimary?}` (crm-apis.md §2.2).
public struct FollowUpBossContactPoint: Sendable, Equatable {
    public var value: String
    /// `mobile`, `home`, `work`, `other`… Left out when nil.
    public var type: String?
    public var isPrimary: Bool?

    public init(value: String, type: String? = nil, isPrimary: Bool? = nil) {
        (self.value, self.type, self.isPrimary) = (value, type, isPrimary)
    }

    var json: FollowUpBossJSON {
        var o: [String: FollowUpBossJSON] = ["value": .string(value)]
        if let type { o["type"] = .string(type) }
        if let isPrimary { o["isPrimary"] = .bool(isPrimary) }
        return .object(o)
    }

    init?(_ any: Any) {
        guard let o = any as? [String: Any], let value = FollowUpBossReading.text(o["value"]) else { return nil }
        self.init(value: value, type: o["type"] as? String, isPrimary: o["isPrimary"] as? Bool)
    }
}

/// A postal address: `{type?, street, city, state, code, country?}`. Parts that are nil are
/// left out of what is sent.
public struct FollowUpBossAddress: Sendable, Equatable {
    public var type: String?
    public var street: String?
    public var city: String?
    public var state: String?
    /// The postal code.
    public var code: String?
    public var country: String?

    public init(type: String? = nil, street: String? = nil, city: String? = nil, state: String? = nil, code: String? = nil, country: String? = nil) {
        (self.type, self.street, self.city, self.state, self.code, self.country) = (type, street, city, state, code, country)
    }

    var isEmpty: Bool { street == nil && city == nil && state == nil && code == nil }

    var json: FollowUpBossJSON {
        var o: [String: FollowUpBossJSON] = [:]
        for (key, value) in [("type", type), ("street", street), ("city", city), ("state", state), ("code", code), ("country", country)] {
            if let value { o[key] = .string(value) }
        }
        return .object(o)
    }

    init?(_ any: Any) {
        guard let o = any as? [String: Any] else { return nil }
        self.init(type: o["type"] as? String, street: o["street"] as? String, city: o["city"] as? String, state: o["state"] as? String,
                  code: FollowUpBossReading.text(o["code"]), country: o["country"] as? String)
    }
}

/// The person part of an event, or the body of `PUT /v1/people/{id}`. Only what is set is
/// sent: an empty list or a nil name is left out, so that nothing blank overwrites what
/// Follow Up Boss holds.
public struct FollowUpBossPersonPayload: Sendable, Equatable {
    /// Forces the match to this person on an event (a rerun that knows the id); never in a PUT body.
    public var id: Int?
    public var firstName: String?
    public var lastName: String?
    public var emails: [FollowUpBossContactPoint] = []
    public var phones: [FollowUpBossContactPoint] = []
    public var addresses: [FollowUpBossAddress] = []
    public var tags: [String] = []
    /// Custom fields by their API names (`customCloseDate`).
    public var customFields: [String: String] = [:]

    public init() {}

    public var json: FollowUpBossJSON {
        var o: [String: FollowUpBossJSON] = [:]
        if let id { o["id"] = .int(id) }
        if let firstName { o["firstName"] = .string(firstName) }
        if let lastName { o["lastName"] = .string(lastName) }
        if !emails.isEmpty { o["emails"] = .array(emails.map(\.json)) }
        if !phones.isEmpty { o["phones"] = .array(phones.map(\.json)) }
        if !addresses.isEmpty { o["addresses"] = .array(addresses.map(\.json)) }
        if !tags.isEmpty { o["tags"] = .array(tags.map(FollowUpBossJSON.string)) }
        for (name, value) in customFields { o[name] = .string(value) }
        return .object(o)
    }

    /// The bytes a PUT of this person sends (the id travels in the path).
    public var canonicalData: Data {
        var body = self
        body.id = nil
        return body.json.canonicalData
    }

    /// Whether Follow Up Boss can tell this person from others by itself (an id, an email, or
    /// a phone with first and last name: its dedupe rule, crm-apis.md §2.3), so that an event
    /// sent twice still makes one person.
    public var isIdentifiable: Bool {
        id != nil || !emails.isEmpty || (!phones.isEmpty && firstName != nil && lastName != nil)
    }
}

/// `POST /v1/events`: how a lead enters Follow Up Boss (crm-apis.md §2.2), so that lead
/// routing, action plans and automations run as for any lead, unless `occurredAt` makes the
/// event historical.
public struct FollowUpBossEvent: Sendable, Equatable {
    public static let defaultType = "Registration"
    public static let defaultSource = "LeadPort"

    /// `Registration`, `Seller Inquiry`, `General Inquiry`…
    public var type: String
    /// The lead source; it drives Lead Flow routing.
    public var source: String
    /// The sending system, as in `X-System`.
    public var system: String
    /// ISO 8601; more than a day in the past makes the event historical (no action plans).
    public var occurredAt: String?
    public var message: String?
    public var description: String?
    public var person: FollowUpBossPersonPayload

    public init(type: String = Self.defaultType, source: String = Self.defaultSource, system: String, occurredAt: String? = nil,
                message: String? = nil, description: String? = nil, person: FollowUpBossPersonPayload) {
        (self.type, self.source, self.system, self.occurredAt) = (type, source, system, occurredAt)
        (self.message, self.description, self.person) = (message, description, person)
    }

    public var json: FollowUpBossJSON {
        var o: [String: FollowUpBossJSON] = ["type": .string(type), "source": .string(source), "system": .string(system), "person": person.json]
        if let occurredAt { o["occurredAt"] = .string(occurredAt) }
        if let message { o["message"] = .string(message) }
        if let description { o["description"] = .string(description) }
        return .object(o)
    }

    /// The exact body of the request.
    public var canonicalData: Data { json.canonicalData }
}

/// A person as Follow Up Boss answers with one (`GET /v1/people/{id}`, and the body of an
/// event's 200 or 201): the fields LeadPort writes or compares.
public struct FollowUpBossPerson: Sendable, Equatable {
    public var id: Int
    public var firstName: String?
    public var lastName: String?
    public var emails: [FollowUpBossContactPoint]
    public var phones: [FollowUpBossContactPoint]
    public var addresses: [FollowUpBossAddress]
    public var tags: [String]
    public var source: String?
    public var stage: String?
    /// Custom fields (`custom…`) holding text or a number, as text.
    public var customFields: [String: String]
    public var updated: String?

    public init(id: Int, firstName: String? = nil, lastName: String? = nil, emails: [FollowUpBossContactPoint] = [], phones: [FollowUpBossContactPoint] = [],
                addresses: [FollowUpBossAddress] = [], tags: [String] = [], source: String? = nil, stage: String? = nil,
                customFields: [String: String] = [:], updated: String? = nil) {
        (self.id, self.firstName, self.lastName, self.emails, self.phones) = (id, firstName, lastName, emails, phones)
        (self.addresses, self.tags, self.source, self.stage, self.customFields, self.updated) = (addresses, tags, source, stage, customFields, updated)
    }

    init?(_ any: Any?) {
        guard let o = any as? [String: Any], let id = FollowUpBossReading.int(o["id"]) else { return nil }
        func list<T>(_ key: String, _ make: (Any) -> T?) -> [T] { (o[key] as? [Any] ?? []).compactMap(make) }
        var custom: [String: String] = [:]
        for (key, value) in o where key.hasPrefix("custom") {
            if let text = FollowUpBossReading.text(value) { custom[key] = text }
        }
        self.init(id: id, firstName: o["firstName"] as? String, lastName: o["lastName"] as? String,
                  emails: list("emails", FollowUpBossContactPoint.init), phones: list("phones", FollowUpBossContactPoint.init),
                  addresses: list("addresses", FollowUpBossAddress.init), tags: list("tags") { $0 as? String },
                  source: o["source"] as? String, stage: o["stage"] as? String, customFields: custom, updated: o["updated"] as? String)
    }
}

/// The user an API key belongs to (`GET /v1/me`).
public struct FollowUpBossUser: Sendable, Equatable {
    public var id: Int
    public var name: String?
    public var email: String?
    public var role: String?

    public init(id: Int, name: String? = nil, email: String? = nil, role: String? = nil) {
        (self.id, self.name, self.email, self.role) = (id, name, email, role)
    }
}
