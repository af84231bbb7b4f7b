import Foundation
import LeadCore

/// The mapping's section for HubSpot (`destinations: {hubspot: {…}}`) and its field policies.
///
/// | option | the variable it stands for |
/// | --- | --- |
/// | `properties: {property: "Column header"}` | `HUBSPOT_PROPERTIES` (the two are merged; the mapping wins a property both name) |
/// | `id_property` | `HUBSPOT_ID_PROPERTY` |
/// | `notes_property` | `HUBSPOT_NOTES_PROPERTY` |
/// | `lifecycle_stage` | `HUBSPOT_LIFECYCLE_STAGE` |
///
/// On an update, `never` leaves a property out, and `fill_blank` sends it only where the contact
/// read before (batch read by id, or by email) has no value. HubSpot's standard contact
/// properties hold one value each, so `append` is `fill_blank` here.
extension HubSpotDestination {
    static let options: Set<String> = ["properties", "id_property", "notes_property", "lifecycle_stage"]

    /// The lead field each standard property is filled from (custom properties and
    /// `lifecyclestage` follow no field's policy: they are overwritten).
    static let fieldOfProperty: [String: String] = [
        "firstname": "first_name", "lastname": "last_name", "email": "email", "phone": "phone", "mobilephone": "mobile", "company": "company",
        "address": "address", "city": "city", "state": "state", "zip": "zip", "country": "country", "hs_lead_status": "status",
    ]

    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: name, fieldPolicies: Set(FieldPolicy.allCases), options: Self.options)
        var merged = mapping
        func text(_ key: String) throws -> String? {
            switch policy.options[key] {
            case nil: return nil
            case .text(let value)?: return value.trimmingCharacters(in: .whitespaces).isEmpty ? nil : value.trimmingCharacters(in: .whitespaces)
            case .table?: throw usage("destinations.hubspot.\(key) is a table; give one property name")
            }
        }
        switch policy.options["properties"] {
        case .table(let table)?:
            for (property, header) in table {
                guard HubSpotMapping.isPropertyName(property) else { throw usage("destinations.hubspot.properties names \"\(property)\", which is not a property's internal name (letters, digits and underscores)") }
                merged.customProperties[property] = header
            }
        case .text?: throw usage("destinations.hubspot.properties is a table of property: \"Column header\", as in {lead_import_key: \"Row ID\"}")
        case nil: break
        }
        if let id = try text("id_property") { merged.idProperty = id }
        if let notes = try text("notes_property") {
            guard HubSpotMapping.isPropertyName(notes) else { throw usage("destinations.hubspot.notes_property is not a property's internal name (letters, digits and underscores, as in lead_notes)") }
            merged.notesProperty = notes
        }
        if let stage = try text("lifecycle_stage") { merged.lifecycleStage = stage }
        if let id = merged.idProperty, merged.customProperties[id] == nil {
            throw usage("the id property \"\(id)\" is filled by no column: add it to destinations.hubspot.properties (or HUBSPOT_PROPERTIES)")
        }
        lock.withLock {
            mapping = merged
            self.policy = policy
        }
        capabilities.remoteDedupeKeys = ["email"] + [merged.idProperty].compactMap { $0 }
    }

    private func usage(_ message: String) -> DestinationError { DestinationError(destination: name, message: message, disposition: .usage) }

    /// Whether a lead's contact must be looked for before it is written: the modes must know
    /// whether it is there, and the field policies what it holds.
    var looksUp: Bool { policy.mode != .upsert || !policy.overwritesAll }

    /// What an update sends of `payload`, given the contact's values as read (nil: not read):
    /// without the `never` properties, and without the `fill_blank` and `append` ones the
    /// contact has a value for (all of them when it was not read: what an agent typed is kept
    /// when in doubt).
    func updating(_ payload: HubSpotContactPayload, over current: [String: String]?) -> HubSpotContactPayload {
        guard !policy.overwritesAll else { return payload }
        var sent = payload
        for name in payload.properties.keys {
            let fieldPolicy: FieldPolicy = name == mapping.notesProperty ? policy[.notes] : Self.fieldOfProperty[name].map { policy[$0] } ?? .overwrite
            switch fieldPolicy {
            case .overwrite: continue
            case .never: sent[name] = nil
            case .fillBlank, .append:
                let held = current?[name]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? (current == nil ? "unknown" : "")
                if !held.isEmpty { sent[name] = nil }
            }
        }
        return sent
    }

    /// For the modes and policies: the new leads with an email (or a value for the id property)
    /// are looked for by it, and those found become updates of their contact; every update's
    /// contact is read, for `fill_blank`. A lead whose update would send nothing the contact
    /// does not hold already is left alone (`alreadyThere`). Returns the values read, by id
    /// (for a plan, `everything` reads every update's contact, whatever the policies).
    @discardableResult
    func lookUp(_ leads: inout [OutboundLead], everything: Bool = false) throws(HubSpotError) -> [String: [String: String]] {
        let payloads = leads.map { HubSpotContactPayload(lead: $0.lead, mapping: mapping) }
        let wanted = Array(Set(payloads.flatMap { $0.properties.keys } + ["email"])).sorted()
        var byKey: [(k: Int, key: String, property: String)] = []
        for k in leads.indices where leads[k].action == .create && leads[k].remoteID == nil {
            if let email = payloads[k].email {
                byKey.append((k, email, "email"))
            } else if let id = mapping.idProperty, let value = payloads[k][id] {
                byKey.append((k, value, id))
            }
        }
        var current: [String: [String: String]] = [:]
        for property in Set(byKey.map(\.property)) {
            let sought = byKey.filter { $0.property == property }
            for (entry, contact) in zip(sought, try api.read(sought.map(\.key), by: property, properties: wanted)) {
                guard let contact else { continue }
                (leads[entry.k].remoteID, leads[entry.k].action, leads[entry.k].found) = (contact.id, .update, true)
                current[contact.id] = contact.properties
            }
        }
        let unread = leads.indices.filter { leads[$0].action == .update && leads[$0].remoteID.map { current[$0] == nil } ?? false }
        if !unread.isEmpty, everything || !policy.overwritesAll {
            let ids = unread.map { leads[$0].remoteID! }
            for (id, contact) in zip(ids, try api.read(ids, properties: wanted)) where contact != nil { current[id] = contact!.properties }
        }
        for k in leads.indices where leads[k].action == .update {
            guard let id = leads[k].remoteID, let held = current[id] else { continue }
            let sent = updating(payloads[k], over: held)
            if HubSpotDestination.holds(HubSpotContact(id: id, properties: held), sent) { leads[k].alreadyThere = true }
        }
        // Kept for send only when a field policy will use them (a mode alone needs none).
        if !policy.overwritesAll { lock.withLock { for (id, properties) in current { read[id] = properties } } }
        return current
    }

    /// For a plan: each lead's contact as read (by id, or found by email or the id property)
    /// and what the write would send it, after the field policies.
    public func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? {
        let current: [String: [String: String]]
        do throws(HubSpotError) { current = try lookUp(&leads, everything: true) } catch { throw stop(error) }
        return leads.map { lead in
            let payload = HubSpotContactPayload(lead: lead.lead, mapping: mapping)
            guard let id = lead.remoteID, let held = current[id] else { return FieldSnapshot(before: nil, after: payload.properties) }
            return FieldSnapshot(before: held.filter { payload[$0.key] != nil }, after: updating(payload, over: held).properties)
        }
    }

    /// The values `lookUp` read of these contacts, forgotten as they are taken.
    func takeRead(_ ids: [String]) -> [String: [String: String]] {
        lock.withLock {
            var taken: [String: [String: String]] = [:]
            for id in ids { taken[id] = read.removeValue(forKey: id) }
            return taken
        }
    }
}
