import Foundation
import LeadCore

/// What a mapping says about Follow Up Boss: the event's type and source, tags, custom fields,
/// and whether the list is historical. Defaults: `Registration` from `LeadPort`, live.
public struct FollowUpBossMapping: Sendable, Equatable {
    /// When the leads' events happened, as Follow Up Boss is told.
    public enum Timing: Sendable, Equatable {
        /// No `occurredAt`: now. New leads fire their action plans and automations.
        case live
        /// `occurredAt` is the lead's date (its `date` field, midnight UTC), else `fallback`
        /// (ISO 8601). More than a day old, the event is historical: it fires nothing, so an
        /// old list can be imported without spamming agents. The time is never the clock's, so
        /// the same lead always sends the same bytes.
        case historical(fallback: String)
    }

    public var eventType: String
    public var source: String
    /// Tags every lead gets; the campaign, when there is one, is added as one more.
    public var tags: [String]
    /// Custom field API name (`customCloseDate`) → the header of the column (a lead extra)
    /// that fills it.
    public var customFields: [String: String]
    public var timing: Timing

    /// The event types Follow Up Boss takes (crm-apis.md §2.2); any other is refused with 400,
    /// which would reject every row.
    public static let eventTypes: Set<String> = [
        "Registration", "Inquiry", "Seller Inquiry", "Property Inquiry", "General Inquiry", "Viewed Property", "Saved Property", "Visited Website",
        "Incoming Call", "Unsubscribed", "Property Search", "Saved Property Search", "Visited Open House", "Viewed Page",
    ]

    /// - Throws: `FollowUpBossError` (`.configuration`) for an event type Follow Up Boss does
    ///   not take, or a custom field name that is not an
    ///   API name (`custom` then letters, digits or `_`, as Follow Up Boss names them).
    public init(eventType: String = FollowUpBossEvent.defaultType, source: String = FollowUpBossEvent.defaultSource, tags: [String] = [],
                customFields: [String: String] = [:], timing: Timing = .live) throws {
        guard Self.eventTypes.contains(eventType) else {
            throw FollowUpBossError(.configuration, "the mapping's Follow Up Boss event type \"\(eventType)\" is none of \(Self.eventTypes.sorted().joined(separator: ", "))")
        }
        for name in customFields.keys.sorted() {
            let rest = name.dropFirst("custom".count)
            guard name.hasPrefix("custom"), !rest.isEmpty, rest.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else {
                throw FollowUpBossError(.configuration, "the mapping names the Follow Up Boss field \"\(name)\": custom fields go by their API names, \"custom\" and the field's name without spaces (customCloseDate); GET /v1/customFields lists them")
            }
        }
        (self.eventType, self.source, self.tags, self.customFields, self.timing) = (eventType, source, tags, customFields, timing)
    }

    /// The person `lead` becomes: names, email, phones (E.164 as the lead holds them, the phone's
    /// extension after ` ext. `: `PhoneText`), the
    /// property and mailing addresses, tags, and the custom fields the mapping names. Pure:
    /// the same lead and mapping give the same payload. Blank values are left out.
    public func person(_ lead: Lead, campaign: String? = nil) -> FollowUpBossPersonPayload {
        var p = FollowUpBossPersonPayload()
        p.firstName = Self.kept(lead.givenName)
        p.lastName = Self.kept(lead.familyName)
        if let email = Self.kept(lead.email) { p.emails = [FollowUpBossContactPoint(value: email)] }
        if let phone = Self.kept(lead.phoneWithExtension) { p.phones.append(FollowUpBossContactPoint(value: phone)) }
        if let mobile = Self.kept(lead.mobile), mobile != p.phones.first.map({ PhoneText.number($0.value) }) { p.phones.append(FollowUpBossContactPoint(value: mobile, type: "mobile")) }
        if let home = Self.address(lead.address, type: "home") { p.addresses.append(home) }
        if let mailing = lead.mailingAddress.flatMap({ Self.address($0, type: "mailing") }), mailing.street != p.addresses.first?.street || mailing.code != p.addresses.first?.code {
            p.addresses.append(mailing)
        }
        for tag in (tags + [campaign].compactMap { $0 }).compactMap(Self.kept) where !p.tags.contains(tag) { p.tags.append(tag) }
        for (name, header) in customFields {
            if let value = Self.kept(Self.extra(header, in: lead)) { p.customFields[name] = value }
        }
        return p
    }

    /// The event that brings `lead` in: the person, the lead's notes as the message and its
    /// company (else the organisation an owner is) in the description (people have no company
    /// field), and `occurredAt` as
    /// `timing` says. `personID` forces the match to a person already known.
    public func event(_ lead: Lead, system: String, campaign: String? = nil, personID: Int? = nil) -> FollowUpBossEvent {
        var person = person(lead, campaign: campaign)
        person.id = personID
        var occurredAt: String?
        if case .historical(let fallback) = timing {
            occurredAt = Self.kept(lead.date).map { $0.count == 10 ? $0 + "T00:00:00Z" : $0 } ?? fallback
        }
        return FollowUpBossEvent(type: eventType, source: source, system: system, occurredAt: occurredAt,
                                 message: Self.kept(lead.notes), description: (Self.kept(lead.company) ?? Self.kept(lead.organization)).map { "Company: " + $0 }, person: person)
    }

    /// The value trimmed, or nil when nothing is left.
    static func kept(_ value: String?) -> String? {
        guard let value else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A lead extra by header: the exact header first, else one that differs only in case.
    static func extra(_ header: String, in lead: Lead) -> String? {
        lead.extras.first { $0.header == header }?.value ?? lead.extras.first { $0.header.caseInsensitiveCompare(header) == .orderedSame }?.value
    }

    static func address(_ a: PostalAddress, type: String) -> FollowUpBossAddress? {
        let code = kept(a.postalCode).map { code in kept(a.zip4).map { code + "-" + $0 } ?? code }
        let address = FollowUpBossAddress(type: type, street: kept(a.deliveryLine), city: kept(a.city), state: kept(a.state), code: code, country: kept(a.country))
        return address.isEmpty ? nil : address
    }
}
