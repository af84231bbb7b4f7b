import Foundation
import HTTPKit
import LeadCore

/// `--to hubspot`: each lead as a HubSpot contact (CRM v3), through `HubSpotAPI`.
///
/// | lead | how it is written |
/// | --- | --- |
/// | sent before (the ledger knows its contact) | batch update by id; a contact deleted in HubSpot since is written as new |
/// | with an email | batch upsert by email: HubSpot creates or updates, and sending it twice makes nothing twice |
/// | no email, a value for `HUBSPOT_ID_PROPERTY` | batch upsert by that unique property |
/// | no email, found by phone and name (`prepare`) | batch update of the contact found (or nothing, when it holds the same values already) |
/// | no email, not found | batch create; a unique value another contact holds (409 CONFLICT) updates that contact instead; a lost answer is settled by searching for what it made (`settleLostCreate`) |
///
/// Batches of at most 100, paced by HubSpot's own rate-limit headers. A refused row is
/// rejected with HubSpot's reason, naming the property; what stops the destination (a refused
/// token, the daily limit, an unreachable host, an upsert's or a read's answer lost after every
/// retry) is a `DestinationError` whose message says what to do, and the unsent rows wait for
/// the next run.
public final class HubSpotDestination: Destination {
    public let name = "hubspot"
    public let ledgerName: String
    public internal(set) var capabilities: DestinationCapabilities
    public let reconciliation = Reconciliation.lookUp(how: "an upsert (by email or the id property) is sent again; a create's contacts are searched for by phone and names through search's lag, and only those not found are created")
    let api: HubSpotAPI
    /// Set by `configure` (before the rows, and not changed after), with the mapping's options.
    var mapping: HubSpotMapping
    var policy = DestinationPolicy()
    let lock = NSLock()
    /// Contacts' values read by `prepare` for the field policies, by id, until `send` takes them.
    var read: [String: [String: String]] = [:]
    /// Set when a batch was stopped after some of its writes were confirmed: those are handed
    /// back to be recorded, and the next batch stops at once with this.
    private var stopped: DestinationError?

    public init(config: HubSpotConfig, mapping: HubSpotMapping = HubSpotMapping(), timeout: Double = 30,
                onRetry: @escaping @Sendable (Retry.Event) -> Void = { _ in }) {
        // The same contacts answer to the same address, whatever token reaches them.
        ledgerName = "hubspot:" + config.baseURL.absoluteString
        // Handed one search's worth of leads at a time: their two batch writes go while the
        // next 200 are searched (searches have a limit of their own, 5 a second).
        capabilities = DestinationCapabilities(largestBatch: HubSpotAPI.largestBatch, remoteDedupeKeys: ["email"] + [mapping.idProperty].compactMap { $0 },
                                               requests: 100, per: 10, upserts: true, handOffRows: HubSpotAPI.phonesPerSearch)
        self.mapping = mapping
        api = HubSpotAPI(config: config, policy: HubSpotClientPolicy(timeout: timeout), onRetry: onRetry)
    }

    /// The hash of the properties sent, in the canonical bytes every write carries: the
    /// campaign, where the row was, and fields HubSpot is not sent change nothing.
    public var encoder: @Sendable (Lead) -> Encoded {
        { [mapping] lead in Encoded(hash: HubSpotContactPayload(lead: lead, mapping: mapping).hash) }
    }

    /// Finds, for each new lead without an email (and without a value for the id property), a
    /// contact with its phone and name: that contact is updated instead of a second one made,
    /// or left alone when it holds every value already. The leads with a phone are looked up
    /// together (one search for 200 phones), those with only names one by one. HubSpot's search
    /// sees writes some seconds late; the ledger covers this run's own.
    public func prepare(_ leads: inout [OutboundLead]) throws {
        try search(&leads)
        guard looksUp else { return }
        do throws(HubSpotError) { try lookUp(&leads) } catch { throw stop(error) }
    }

    private func search(_ leads: inout [OutboundLead]) throws {
        var sought: [(k: Int, payload: HubSpotContactPayload, match: HubSpotMatch)] = []
        var withEmail: [(k: Int, payload: HubSpotContactPayload, match: HubSpotMatch)] = []
        for k in leads.indices where leads[k].action == .create {
            let payload = HubSpotContactPayload(lead: leads[k].lead, mapping: mapping)
            let match = HubSpotMatch(payload)
            if payload.email != nil {
                if match.phone != nil, match.firstName != nil, match.lastName != nil { withEmail.append((k, payload, match)) }
                continue
            }
            guard mapping.idProperty.flatMap({ payload[$0] }) == nil, match.isSearchable else { continue }
            sought.append((k, payload, match))
        }
        if !withEmail.isEmpty { try rematch(&leads, withEmail) }
        guard !sought.isEmpty else { return }
        let wanted = Array(Set(sought.flatMap { $0.payload.properties.keys }))
        do throws(HubSpotError) {
            let phones = sought.flatMap(\.match.phoneValues)
            let byPhone = phones.isEmpty ? [] : try api.search(phones: phones, properties: wanted).sorted { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
            for (k, payload, match) in sought {
                // The oldest contact that has the phone and the names given.
                let found = match.phone == nil ? try api.search(match, properties: wanted).first : byPhone.first { Self.fits($0, match) }
                guard let contact = found else { continue }
                (leads[k].remoteID, leads[k].found) = (contact.id, true)
                if Self.holds(contact, payload) {
                    leads[k].alreadyThere = true
                } else {
                    // Written as an update of that contact (and shown as one in a dry run).
                    leads[k].action = .update
                }
            }
        } catch {
            throw stop(error)
        }
    }

    /// New leads with an email, a phone and both names, whose email no contact holds but whose
    /// phone and names one does: the same person, whose email changed in the list since it was
    /// sent (an upsert by the new email would make them a second contact). That contact is
    /// updated instead, and the row says so. The phones are searched 200 a request; the emails
    /// of those found are read once, so a lead whose email a contact holds goes by upsert.
    private func rematch(_ leads: inout [OutboundLead], _ sought: [(k: Int, payload: HubSpotContactPayload, match: HubSpotMatch)]) throws {
        let wanted = Array(Set(sought.flatMap { $0.payload.properties.keys } + ["email"]))
        do throws(HubSpotError) {
            let byPhone = try api.search(phones: sought.flatMap(\.match.phoneValues), properties: wanted).sorted { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
            guard !byPhone.isEmpty else { return }
            var candidates: [(k: Int, payload: HubSpotContactPayload, contact: HubSpotContact)] = []
            var taken: Set<String> = []
            for (k, payload, match) in sought {
                let email = payload.email!.lowercased()
                // The oldest contact with the phone and names; one with the lead's email is the
                // lead's already, and the upsert finds it.
                guard let contact = byPhone.first(where: { Self.fits($0, match) }),
                      contact.properties["email"]?.lowercased() != email, taken.insert(contact.id).inserted else { continue }
                candidates.append((k, payload, contact))
            }
            guard !candidates.isEmpty else { return }
            let holders = try api.read(candidates.map { $0.payload.email! }, by: "email", properties: ["email"])
            for ((k, payload, contact), holder) in zip(candidates, holders) where holder == nil {
                (leads[k].remoteID, leads[k].found, leads[k].action) = (contact.id, true, .update)
                let before = contact.properties["email"].map { "email was \($0)" } ?? "no email"
                leads[k].matched = "matched by phone and name to HubSpot contact \(contact.id) (\(before)): its dedupe key changed"
                if Self.holds(contact, payload) { leads[k].alreadyThere = true }
            }
        } catch {
            throw stop(error)
        }
    }

    /// Whether `contact` has the match's phone (as either number) and the names it gives, in
    /// any case (as HubSpot's search compares them).
    static func fits(_ contact: HubSpotContact, _ match: HubSpotMatch) -> Bool {
        func same(_ name: String, _ value: String?) -> Bool {
            value.map { contact.properties[name]?.caseInsensitiveCompare($0) == .orderedSame } ?? true
        }
        guard let phone = match.phone, contact.properties["phone"].map(PhoneText.number) == phone || contact.properties["mobilephone"] == phone else { return false }
        return same("firstname", match.firstName) && same("lastname", match.lastName)
    }

    /// Whether `contact` has every value of `payload` (an email in any case).
    static func holds(_ contact: HubSpotContact, _ payload: HubSpotContactPayload) -> Bool {
        payload.properties.allSatisfy { name, value in
            guard let held = contact.properties[name] else { return false }
            return name == "email" ? held.caseInsensitiveCompare(value) == .orderedSame : held == value
        }
    }

    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        if let stopped = lock.withLock({ stopped }) { throw stopped }
        let leads = Array(leads)
        var results = [DeliveryResult?](repeating: nil, count: leads.count)
        do throws(HubSpotError) {
            try write(leads, into: &results)
        } catch {
            let stop = self.stop(error)
            guard results.contains(where: { $0 != nil }) else { throw stop }
            // Some writes of this batch were confirmed (creates among them, which must not be
            // sent twice): they are answered, to be recorded, and the next batch stops.
            lock.withLock { stopped = stop }
            return .rows(results.map { $0 ?? .failed(reason: "not sent: " + stop.message) })
        }
        return .rows(results.map { $0 ?? .failed(reason: "HubSpot did not answer for this row") })
    }

    /// A client error as the run sees it: settings are a configuration problem (exit 2),
    /// everything else stops this destination (exit 1) with the client's message.
    func stop(_ error: HubSpotError) -> DestinationError {
        DestinationError(destination: name, message: error.message, disposition: error.disposition)
    }
}
