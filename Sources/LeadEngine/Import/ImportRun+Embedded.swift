import Foundation
import LeadCore
import LeadNormalize
import LeadStore

/// Delivery into the embedded database: rows and their ledger entries in one transaction.
extension ImportRun {
    /// Delivers the batch into the embedded database (in a dry run, only works out each row's
    /// outcome) and returns how many rows it wrote, into the store's open transaction.
    /// `lane` is the embedded database's.
    func deliver(_ batch: inout [Pending], lane: Lane, store: LeadStore, target: Mapping.Target, runID: String) throws -> Int {
        if options.dryRun {
            let known = try knownLeads(batch, lane: lane, store: store)
            for k in batch.indices where batch[k].outcome == nil {
                let entry = known[Pending.ledgerKey(batch[k].key, batch[k].lead.source)]
                if let entry, entry.contentHash == batch[k].hash {
                    (batch[k].outcome, batch[k].remoteID) = (.unchanged, entry.remoteID)
                } else if let reason = Self.modeSkip(lane.policy.mode, atDestination: entry != nil) {
                    (batch[k].outcome, batch[k].reason, batch[k].remoteID) = (.skipped, reason, entry?.remoteID)
                } else {
                    (batch[k].outcome, batch[k].remoteID) = (entry == nil ? .created : .updated, entry?.remoteID)
                }
            }
            let planned = batch.indices.filter { batch[$0].outcome == .created || batch[$0].outcome == .updated }
            if !planned.isEmpty {
                let (leads, snapshots) = try embeddedSnapshots(batch, rows: planned, known: known, lane: lane, store: store, target: target)
                for (n, k) in planned.enumerated() { batch[k].planned = PlannedRow(hash: leads[n].hash, fields: snapshots[n]) }
            }
            return 0
        }
        if options.apply != nil {
            // Only what the plan has, as it was then, is written.
            let known = try knownLeads(batch, lane: lane, store: store)
            let writing = batch.indices.filter { k in
                batch[k].outcome == nil && known[Pending.ledgerKey(batch[k].key, batch[k].lead.source)]?.contentHash != batch[k].hash
            }
            if !writing.isEmpty {
                let (leads, snapshots) = try embeddedSnapshots(batch, rows: writing, known: known, lane: lane, store: store, target: target)
                _ = checkPlan(&batch, outbound: leads, rows: writing, snapshots: snapshots, lane: lane)
            }
        }
        var size = 0
        for k in batch.indices where batch[k].outcome == nil { size += 1 }
        guard size > 0 else { return 0 }
        do {
            try write(&batch, lane: lane, store: store, target: target, runID: runID)
        } catch {
            emit(.batch(BatchResult(destination: lane.name, size: size, status: "failed", attempt: 1, retryAfter: nil)))
            throw error
        }
        return size
    }

    /// What the ledger already holds for the batch's keys. When it held nothing for this
    /// destination as the run began there is nothing to look up: the in-file dedupe already
    /// keeps a key from coming twice within the run.
    func knownLeads(_ batch: [Pending], lane: Lane, store: LeadStore) throws -> [String: LeadStore.LedgerEntry] {
        if lane.ledgerWasEmpty { return [:] }
        return try store.ledger(destination: lane.ledgerName, keys: batch.compactMap { $0.outcome == nil ? Pending.ledgerKey($0.key, $0.lead.source) : nil })
    }

    /// Creates or updates each lead that has no outcome yet, and records it in the ledger, in
    /// the store's open transaction (committed by the delivery every `transactionRows` rows).
    private func write(_ batch: inout [Pending], lane: Lane, store: LeadStore, target: Mapping.Target, runID: String) throws {
        let campaign = lane.campaign
        let known = try knownLeads(batch, lane: lane, store: store)
        try store.write { tx in
            // The campaign's next sequence number, read once a batch and counted on from there.
            var seq = try campaign.map { try tx.nextSeq(campaign: $0) } ?? 1
            // New rows are inserted together at the end, a few dozen per statement; addresses
            // first, since contacts refer to them.
            var newAddresses: [NewAddress] = []
            var newContacts: [NewContact] = []
            var added: [LedgerRecord] = []
            var changed: [LedgerRecord] = []
            for k in batch.indices where batch[k].outcome == nil {
                let source = batch[k].lead.source
                let key = Pending.ledgerKey(batch[k].key, batch[k].lead.source)
                if known[key] == nil || known[key]?.contentHash != batch[k].hash, let reason = Self.modeSkip(lane.policy.mode, atDestination: known[key] != nil) {
                    (batch[k].outcome, batch[k].reason, batch[k].remoteID) = (.skipped, reason, known[key]?.remoteID)
                    continue
                }
                if let entry = known[key] {
                    batch[k].remoteID = entry.remoteID
                    if entry.contentHash == batch[k].hash {
                        batch[k].outcome = .unchanged
                        continue
                    }
                    let ids = entry.remoteID.split(separator: "|").map(String.init)
                    if target != .campaignAddresses, let contact = ids.first(where: { !$0.hasPrefix("a:") }) {
                        try tx.updateContact(id: contact, batch[k].contact, policy: lane.policy)
                    }
                    if let address = ids.first(where: { $0.hasPrefix("a:") }), let record = batch[k].address {
                        try tx.updateAddress(id: String(address.dropFirst(2)), record, policy: lane.policy)
                    }
                    batch[k].outcome = .updated
                    changed.append(LedgerRecord(destination: lane.ledgerName, key: key, remoteID: entry.remoteID, hash: batch[k].hash, run: runID, source: source))
                    continue
                } else {
                    var remoteID = ""
                    var addressID: String?
                    if target != .contacts, let campaign, let record = batch[k].address {
                        let id = recordIDs.next()
                        newAddresses.append(NewAddress(id: id, campaign: campaign, address: record, seq: seq))
                        seq += 1
                        addressID = id
                    }
                    if target != .campaignAddresses {
                        let id = recordIDs.next()
                        newContacts.append(NewContact(id: id, user: lane.user, contact: batch[k].contact, campaign: campaign, addressID: addressID))
                        remoteID = id
                    }
                    // `contact|a:address`, either alone.
                    if let addressID { remoteID += (remoteID.isEmpty ? "a:" : "|a:") + addressID }
                    batch[k].remoteID = remoteID
                    batch[k].outcome = .created
                }
                added.append(LedgerRecord(destination: lane.ledgerName, key: key, remoteID: batch[k].remoteID ?? "", hash: batch[k].hash, run: runID, source: source))
            }
            try tx.insertAddresses(newAddresses)
            try tx.insertContacts(newContacts)
            try tx.record(added)
            try tx.record(changed, replacing: true)
        }
    }
}
