import Foundation
import LeadConnectors
import LeadCore
import LeadEngine

/// A destination held in memory, for the engine's own tests: what the engine asks of any
/// destination (prepare, send in batches, answers per row) with nothing behind it but a
/// dictionary, and faults a test can arm: a row to refuse, a batch after which it fails.
final class MemoryDestination: Destination, @unchecked Sendable {
    let name: String
    var ledgerName: String { name }
    let capabilities: DestinationCapabilities
    let reconciliation = Reconciliation.resend(how: "held in memory")
    private let lock = NSLock()
    /// Every record held, by remote id: the lead's key and the hash of what was sent.
    private(set) var records: [String: (key: String, hash: String)] = [:]
    private(set) var batches: [Int] = []
    /// Leads whose email is in here are refused with this reason.
    var refuse: [String: String] = [:]
    /// After this many batches, `send` throws (a destination lost mid-run).
    var failAfterBatches: Int?

    /// `sendsPhone`: whether the phone is part of what it is sent (and so of its hash).
    init(name: String = "memory", largestBatch: Int = 50, sendsPhone: Bool = true) {
        self.name = name
        encoder = { lead in
            var h = FNV64()
            for part in [lead.fullName, lead.email] + (sendsPhone ? [lead.phone] : []) { h.mix(part) }
            return Encoded(hash: String(h.value, radix: 16))
        }
        capabilities = DestinationCapabilities(largestBatch: largestBatch, requests: 1_000_000, per: 1, upserts: true)
    }

    /// Whether it takes field policies (it applies none: the engine's part is what is tested).
    var takesFieldPolicies = false
    /// Each policy `configure` was given.
    private(set) var configured: [DestinationPolicy] = []

    func configure(_ policy: DestinationPolicy) throws {
        configured.append(policy)
        if !takesFieldPolicies { try Self.refuseUnsupported(policy, destination: kind, fieldPolicies: [.overwrite], options: []) }
    }

    /// Emails of records the destination holds that the engine never sent it: `prepare` finds
    /// them, as a CRM's look-up by email would.
    var present: Set<String> = []

    func prepare(_ leads: inout [OutboundLead]) throws {
        for k in leads.indices where leads[k].action == .create {
            if let email = leads[k].lead.email, present.contains(email) {
                (leads[k].remoteID, leads[k].action, leads[k].found) = ("m-found-" + email, .update, true)
            } else {
                leads[k].remoteID = "m-" + leads[k].key
            }
        }
    }

    func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        try lock.withLock {
            if let limit = failAfterBatches, batches.count >= limit {
                throw DestinationError(destination: name, message: "lost after \(limit) batches")
            }
            batches.append(leads.count)
            return .rows(leads.map { lead in
                if let email = lead.lead.email, let reason = refuse[email] { return .rejected(reason: reason) }
                let id = lead.remoteID ?? "m-" + lead.key
                let existed = records[id] != nil || lead.action == .update
                records[id] = (lead.key, lead.hash)
                return existed ? .updated(remoteID: id) : .created(remoteID: id)
            })
        }
    }

    let encoder: @Sendable (Lead) -> Encoded

    var count: Int { lock.withLock { records.count } }
}
