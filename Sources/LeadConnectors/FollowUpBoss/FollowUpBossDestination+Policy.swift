import Foundation
import LeadCore

/// The mapping's section for Follow Up Boss (`destinations: {followupboss: {…}}`) and its field
/// policies.
///
/// | option | the variable it stands for |
/// | --- | --- |
/// | `event_type`, `source` | `FUB_EVENT_TYPE`, `FUB_SOURCE` |
/// | `tags` (a list, or words separated by commas) | `FUB_TAGS` |
/// | `custom_fields: {customCloseDate: "Close Date"}` | `FUB_CUSTOM_FIELDS` (merged; the mapping wins a field both name) |
/// | `historical` | `FUB_HISTORICAL` |
///
/// A `PUT /v1/people/{id}` replaces every list it names, so on an update: `never` leaves a
/// field out, `fill_blank` sends it only where the person (read with `GET /v1/people/{id}`)
/// has none, and `append` sends the person's emails, phones or tags with the lead's new ones
/// after them.
extension FollowUpBossDestination {
    static let options: Set<String> = ["event_type", "source", "tags", "custom_fields", "historical"]

    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: name, fieldPolicies: Set(FieldPolicy.allCases), options: Self.options)
        if !policy.options.isEmpty {
            // The variables the options stand for, the mapping's over the settings'.
            var settings = self.settings
            for (option, variable) in [("event_type", "FUB_EVENT_TYPE"), ("source", "FUB_SOURCE"), ("tags", "FUB_TAGS"), ("historical", "FUB_HISTORICAL")] {
                if let value = policy.options[option] { settings[variable] = value.settingText }
            }
            if let fields = policy.options["custom_fields"] {
                guard case .table(let table) = fields else {
                    throw DestinationError(destination: name, message: "destinations.followupboss.custom_fields is a table of API name: \"Column header\", as in {customCloseDate: \"Close Date\"}",
                                           disposition: .usage)
                }
                let given = (settings["FUB_CUSTOM_FIELDS"] ?? "").split(separator: ",").compactMap { pair -> (String, String)? in
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    return parts.count == 2 ? (parts[0], parts[1]) : nil
                }
                settings["FUB_CUSTOM_FIELDS"] = PolicyOption.table(Dictionary(given) { $1 }.merging(table) { $1 }).settingText
            }
            do {
                mapping = try FollowUpBossMapping(settings: settings)
            } catch let error as FollowUpBossError {
                // The variables' names in the message are the mapping's options here.
                throw DestinationError(destination: name, message: "the mapping's destinations.followupboss: " + error.message, disposition: .usage)
            }
        }
        self.policy = policy
    }

    /// Whether leads must be looked for before they are written: the modes must know whether a
    /// person is there, and the field policies what the person holds.
    var looksUp: Bool { policy.mode != .upsert || !policy.overwritesAll }

    /// Whether a new lead must be looked for: a mode must know whether the person is there, and
    /// `fill_blank` or `never` must not let an event change what the person holds. (An event
    /// adds to a person's lists already, so `append`, the lists' default, needs no look.)
    var findsNewLeads: Bool { policy.mode != .upsert || policy.update.values.contains { $0 == .fillBlank || $0 == .never } }

    /// For the modes and policies: each new lead looked for by email, else phone (Follow Up
    /// Boss's own dedupe keys), when `findsNewLeads`, and each update's person read. One
    /// request a lead, so only when the mapping asks for a mode or a policy.
    func lookUp(_ leads: inout [OutboundLead]) throws {
        for k in leads.indices {
            if leads[k].action == .create {
                guard findsNewLeads, let person = try existing(leads[k].lead) else { continue }
                (leads[k].remoteID, leads[k].action, leads[k].found) = (String(person.id), .update, true)
                remember(person)
            } else if !policy.overwritesAll, let id = leads[k].remoteID.flatMap(Int.init), let person = try api.person(id: id) {
                remember(person)
            }
        }
    }

    /// The person Follow Up Boss has of `lead`, looked for by its email, else its phone.
    func existing(_ lead: Lead) throws -> FollowUpBossPerson? {
        let payload = mapping.person(lead)
        let email = payload.emails.first?.value
        let phone = email == nil ? payload.phones.first.map { PhoneText.number($0.value) } : nil
        guard email != nil || phone != nil else { return nil }
        return try api.people(email: email, phone: phone, atMost: 1).first
    }

    /// What a PUT sends of `payload` over `current` (the person as read; nil: not read, and
    /// then no field the policies protect is sent).
    func updating(_ payload: FollowUpBossPersonPayload, over current: FollowUpBossPerson?) -> FollowUpBossPersonPayload {
        guard !policy.overwritesAll else { return payload }
        var sent = payload
        func keeps(_ field: String, held: Bool) -> Bool {
            switch policy[field] {
            case .overwrite: return true
            case .never: return false
            case .fillBlank, .append: return current != nil && !held
            }
        }
        if !keeps("first_name", held: Self.filled(current?.firstName)) { sent.firstName = nil }
        if !keeps("last_name", held: Self.filled(current?.lastName)) { sent.lastName = nil }
        if !keeps("address", held: !(current?.addresses.isEmpty ?? true)) { sent.addresses = [] }
        sent.emails = Self.list(payload.emails, held: current?.emails, policy: policy["email"])
        sent.phones = Self.list(payload.phones, held: current?.phones, policy: policy.update["phone"] ?? policy["mobile"])
        switch policy["tags"] {
        case .overwrite, .append: break  // tags are merged (mergeTags=true): appended either way
        case .never: sent.tags = []
        case .fillBlank: if current.map({ !$0.tags.isEmpty }) ?? true { sent.tags = [] }
        }
        return sent
    }

    /// A list field of a PUT under `policy`: empty means "not sent" (the person's list stays).
    static func list(_ new: [FollowUpBossContactPoint], held: [FollowUpBossContactPoint]?, policy: FieldPolicy) -> [FollowUpBossContactPoint] {
        switch policy {
        case .overwrite: return new
        case .never: return []
        case .fillBlank: return held?.isEmpty == true ? new : []
        case .append:
            guard let held else { return [] }
            let have = Set(held.map { Self.comparable($0.value) })
            let added = new.filter { !have.contains(Self.comparable($0.value)) }
            return added.isEmpty ? [] : held + added
        }
    }

    /// A contact point as compared for `append`: an email in lower case; a phone by its digits,
    /// the last ten of a North American number (`(617) 555-0100` is `+16175550100`), so a number
    /// the person has in another format (or without the extension) is not added twice.
    static func comparable(_ value: String) -> String {
        guard !value.contains("@") else { return value.lowercased() }
        let digits = PhoneText.number(value).filter(\.isNumber)
        guard digits.count >= 7 else { return value.lowercased() }
        return digits.count == 11 && digits.hasPrefix("1") ? String(digits.dropFirst()) : digits
    }

    static func filled(_ text: String?) -> Bool { !(text?.trimmingCharacters(in: .whitespaces).isEmpty ?? true) }

    func remember(_ person: FollowUpBossPerson) { lock.withLock { read[person.id] = person } }

    /// The person `lookUp` read, forgotten as it is taken.
    func takeRead(_ id: Int) -> FollowUpBossPerson? { lock.withLock { read.removeValue(forKey: id) } }
}
