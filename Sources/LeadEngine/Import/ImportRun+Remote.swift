import Foundation
import LeadConnectors
import LeadCore
import LeadNormalize
import LeadPortKit
import LeadStore

/// Delivery to a destination, in three stages: staged on the delivery thread, sent on its
/// sending thread (or, written with the ledger, on the recording thread), recorded on the
/// recording thread.
extension ImportRun {
    /// Each lead's answer (nil: already at the destination, not sent), and, when the
    /// destination stopped part way, why and which leads it never got.
    struct Transmitted: Sendable {
        var answers: [DeliveryResult?] = []
        var unsent: Set<Int> = []
        var stopped: (any Error)?

        /// None of `count` leads was sent.
        static func notSent(_ count: Int) -> Transmitted {
            Transmitted(answers: Array(repeating: .failed(reason: "not sent"), count: count), unsent: Set(0..<count))
        }
    }

    /// The destination failed in `prepare`: it stops, and the other destinations go on.
    /// The signal came before these rows were sent.
    struct InterruptedBeforeSending: Error, CustomStringConvertible {
        var destination: String
        var description: String { "\(destination): interrupted before every row read was sent; the rows not sent are pending, and the next run sends them" }
    }

    struct DestinationStopped: Error {
        var error: any Error
    }

    /// A batch's leads for a remote destination, and the batch rows they came from.
    struct Outgoing: Sendable {
        var leads: [OutboundLead]
        var rows: [Int]
        /// Each lead's fields before and as written, where they were read (FLYR's tables, for
        /// `leadport undo`: what an update replaced).
        var snapshots: [FieldSnapshot]? = nil
        /// The hash the ledger had for each lead before (updates).
        var previous: [String?] = []
    }

    /// Delivery to a destination other than the embedded database: what the ledger knows is
    /// left alone or updated, the rest is prepared (ids, rows already there) and sent in the
    /// destination's batches, and only what the destination confirmed is recorded. A run
    /// killed between the two leaves leads sent but unrecorded; the destination's idempotent
    /// writes make sending them again harmless.
    ///
    /// The first half of a remote delivery: the leads the ledger knows unchanged are marked so,
    /// and the rest prepared by the destination. In a dry run that is all (and nil is returned);
    /// otherwise what is to be sent.
    func stage(_ batch: inout [Pending], for lane: Lane, store: LeadStore) throws -> Outgoing? {
        let remote = lane.destination
        let known = try knownLeads(batch, lane: lane, store: store)
        try noteExcludedHeld(&batch, lane: lane, store: store)
        var outbound: [OutboundLead] = []
        var rows: [Int] = []
        var previous: [String?] = []
        for k in batch.indices where batch[k].outcome == nil {
            let key = lane.ledgerKey(batch[k].key, batch[k].lead.source)
            let entry = known[key]
            if let entry, entry.contentHash == batch[k].hash {
                batch[k].outcome = .unchanged
                batch[k].remoteID = entry.remoteID
                continue
            }
            // A lead the ledger knows is at the destination: create_only leaves it alone.
            if let entry, let reason = Self.modeSkip(lane.policy.mode, atDestination: true) {
                (batch[k].outcome, batch[k].reason, batch[k].remoteID) = (.skipped, reason, entry.remoteID)
                continue
            }
            outbound.append(OutboundLead(key: key, encoded: batch[k].encoded, box: batch[k].box,
                                         action: entry == nil ? .create : .update, remoteID: entry?.remoteID))
            rows.append(k)
            previous.append(entry?.contentHash)
        }
        guard !outbound.isEmpty else { return nil }
        var snapshots: [FieldSnapshot]?
        do {
            try remote.prepare(&outbound)
            // For a plan, each lead's fields as the destination holds them now.
            if plans {
                snapshots = try remote.snapshots(&outbound)
            } else if remote.undoesUpdates, outbound.contains(where: { $0.action == .update }) {
                // What the updates replace, for `leadport undo` (a read of the changed rows). On a
                // copy: what a plan's reading may conclude (a contact holding every value) must
                // not change what this run sends.
                // Only the updates are read (a create replaces nothing).
                let updates = outbound.indices.filter { outbound[$0].action == .update }
                var copy = updates.map { outbound[$0] }
                if let read = try remote.snapshots(&copy) {
                    var all = outbound.map { _ in FieldSnapshot(before: nil, after: [:]) }
                    for (n, k) in updates.enumerated() where n < read.count { all[k] = read[n] }
                    snapshots = all
                }
            }
        } catch {
            throw DestinationStopped(error: error)
        }
        if lane.policy.mode != .upsert {
            // What prepare found (or did not find) at the destination, for the mode: those it
            // keeps from being written are skipped, sent nothing and not recorded.
            var kept: [Int] = []
            for (n, k) in rows.enumerated() {
                let lead = outbound[n]
                let there = lead.action == .update || lead.alreadyThere || lead.found
                if let reason = Self.modeSkip(lane.policy.mode, atDestination: there) {
                    (batch[k].outcome, batch[k].reason) = (.skipped, reason)
                    if there, let id = lead.remoteID, !id.isEmpty { batch[k].remoteID = id }
                } else {
                    kept.append(n)
                }
            }
            if kept.count < outbound.count {
                (outbound, rows, snapshots, previous) = (kept.map { outbound[$0] }, kept.map { rows[$0] }, snapshots.map { s in kept.map { s[$0] } }, kept.map { previous[$0] })
                if outbound.isEmpty { return nil }
            }
        }
        if options.dryRun {
            for (n, (lead, k)) in zip(outbound, rows).enumerated() {
                batch[k].outcome = lead.alreadyThere ? .unchanged : lead.action == .update ? .updated : .created
                if lead.alreadyThere { batch[k].reason = "already at the destination" } else if let matched = lead.matched { batch[k].reason = matched }
                if lead.action == .update || lead.alreadyThere { batch[k].remoteID = lead.remoteID ?? "" }
                if !lead.alreadyThere { batch[k].planned = PlannedRow(hash: lead.hash, fields: snapshots?[n]) }
            }
            return nil
        }
        if options.apply != nil {
            let allowed = checkPlan(&batch, outbound: outbound, rows: rows, snapshots: snapshots, lane: lane)
            if allowed.count < outbound.count {
                (outbound, rows, snapshots, previous) = (allowed.map { outbound[$0] }, allowed.map { rows[$0] }, snapshots.map { s in allowed.map { s[$0] } }, allowed.map { previous[$0] })
                if outbound.isEmpty { return nil }
            }
        }
        return Outgoing(leads: outbound, rows: rows, snapshots: snapshots, previous: previous)
    }

    /// The second half, on the sending thread: sends the leads in the destination's batches.
    /// Returns each lead's answer (nil: already at the destination, not sent).
    ///
    /// A hand-off is sent in the destination's (smaller) batches. When the destination stops
    /// part way (lost, credentials refused), what it confirmed before is still returned, to be
    /// recorded: only the leads it never got are left for the next run.
    func transmit(_ outgoing: Outgoing, to lane: Lane) -> Transmitted {
        let remote = lane.destination
        let outbound = outgoing.leads
        let sending = outbound.indices.filter { !outbound[$0].alreadyThere }
        let splitter = BatchSplitter(largestBatch: remote.capabilities.largestBatch)
        var sent = Transmitted()
        var unsent: Set<Int> = []
        // Usually every lead goes: then the array itself, not a copy of each lead.
        let results = splitter.deliver(sending.count == outbound.count ? outbound : sending.map { outbound[$0] }) { slice in
            // After SIGINT or SIGTERM nothing more is sent: what was confirmed is recorded, the
            // rest stays pending (a slow destination would otherwise take minutes to finish).
            if sent.stopped == nil, Interruption.requested != 0 { sent.stopped = InterruptedBeforeSending(destination: lane.name) }
            if sent.stopped == nil {
                do {
                    let answer = try remote.send(slice)
                    emit(.batch(BatchResult(destination: lane.name, size: slice.count, status: Self.status(answer), attempt: 1, retryAfter: nil)))
                    return answer
                } catch {
                    sent.stopped = error
                }
            }
            unsent.formUnion(slice.indices)
            return .rows(slice.map { _ in .failed(reason: "not sent") })
        }
        sent.answers = [DeliveryResult?](repeating: nil, count: outbound.count)
        for (n, k) in sending.enumerated() {
            sent.answers[k] = results[n]
            if unsent.contains(n) { sent.unsent.insert(k) }
        }
        return sent
    }

    /// What the ledger already holds for the batch's keys. When it held nothing for this
    /// destination as the run began there is nothing to look up: the in-file dedupe already
    /// keeps a key from coming twice within the run.
    func knownLeads(_ batch: [Pending], lane: Lane, store: LeadStore) throws -> [String: LeadStore.LedgerEntry] {
        if lane.ledgerWasEmpty { return [:] }
        var known = try store.ledger(destination: lane.ledgerName, keys: batch.compactMap { $0.outcome == nil ? lane.ledgerKey($0.key, $0.lead.source) : nil })
        // Ledgers written before keys had their scope know a lead by its own key alone: such an
        // entry stands for this scope's lead when the records it names are this scope's, as a
        // destination written with the ledger says (`Destination.inScope`; a remote one's
        // `prepare` finds them there itself).
        guard lane.writesWithLedger, lane.scoped else { return known }
        var legacy: [String: String] = [:]
        for pending in batch where pending.outcome == nil {
            let scoped = lane.ledgerKey(pending.key, pending.lead.source)
            if known[scoped] == nil { legacy[Pending.ledgerKey(pending.key, pending.lead.source)] = scoped }
        }
        guard !legacy.isEmpty else { return known }
        let old = try store.ledger(destination: lane.ledgerName, keys: Array(legacy.keys))
        guard let ours = try lane.destination.inScope(old.values.map(\.remoteID)) else { return known }
        for (key, entry) in old where ours.contains(entry.remoteID) { known[legacy[key]!] = entry }
        return known
    }

    /// The second half for a destination written with the ledger (`writesWithLedger`), on the
    /// recording thread: its writes go into the store's open transaction. A batch it refuses
    /// for a row is split until the row stands alone (`BatchSplitter`), as for any destination;
    /// any other failure fails the run (the transaction, ledger and all, is rolled back).
    func writeWithLedger(_ outgoing: Outgoing, to lane: Lane) throws -> Transmitted {
        let sending = outgoing.leads.indices.filter { !outgoing.leads[$0].alreadyThere }
        var sent = Transmitted(answers: [DeliveryResult?](repeating: nil, count: outgoing.leads.count))
        let leads = sending.count == outgoing.leads.count ? outgoing.leads : sending.map { outgoing.leads[$0] }
        let results: [DeliveryResult]
        do {
            results = try BatchSplitter(largestBatch: lane.destination.capabilities.largestBatch).deliver(leads) { slice in
                try lane.destination.send(slice)
            }
        } catch {
            emit(.batch(BatchResult(destination: lane.name, size: leads.count, status: "failed", attempt: 1, retryAfter: nil)))
            throw error
        }
        for (k, result) in zip(sending, results) { sent.answers[k] = result }
        return sent
    }

    /// The third half, on the recording thread: gives each row its outcome from the answers and
    /// records what the destination confirmed in the ledger (the store's open transaction,
    /// committed with the rows of later batches).
    func record(_ outgoing: Outgoing, _ sent: Transmitted, batch: inout [Pending], lane: Lane, store: LeadStore, runID: String) throws {
        let (outbound, rows, answers) = (outgoing.leads, outgoing.rows, sent.answers)
        // Leads new to the ledger are plain inserts; only changed ones replace an entry (an
        // upsert of many rows makes SQLite keep a statement journal: LeadStore.record).
        var records: [LedgerRecord] = []
        var replacing: [LedgerRecord] = []
        var history: [HistoryRecord] = []
        // Each lead's fields are read where it is: a copy of it (`let lead = outbound[n]`) cost a
        // retain and a release of each of its strings, on the thread that writes the store.
        for (n, k) in rows.enumerated() {
            let source = batch[k].lead.source
            var version: String?
            switch answers[n] {
            case nil:
                batch[k].outcome = .unchanged
                batch[k].reason = "already at the destination"
                batch[k].remoteID = outbound[n].remoteID ?? ""
            case .created(let id, let v, let unwritten)?:
                (batch[k].outcome, batch[k].remoteID, version, batch[k].reason) = (.created, id, v, unwritten)
            case .updated(let id, let v, let unwritten)?:
                let said = [outbound[n].matched, unwritten].compactMap { $0 }
                (batch[k].outcome, batch[k].remoteID, version, batch[k].reason) = (.updated, id, v, said.isEmpty ? nil : said.joined(separator: "; "))
            case .rejected(let reason)?:
                (batch[k].outcome, batch[k].reason, batch[k].stage) = (.rejected, reason, .destination)
                continue
            case .failed(let reason)?:
                (batch[k].outcome, batch[k].reason) = (.failed, reason)
                continue
            }
            let created = batch[k].outcome == .created
            // A destination without versions of its own says what stands for one.
            if created, version == nil { version = lane.destination.writtenVersion(outbound[n]) }
            if batch[k].outcome == .updated, let snapshot = outgoing.snapshots?[n], let before = snapshot.before {
                history.append(HistoryRecord(run: runID, destination: lane.ledgerName, key: outbound[n].key, remoteID: batch[k].remoteID ?? "",
                                             before: JSONText.object(before), after: JSONText.object(snapshot.after), previousHash: n < outgoing.previous.count ? outgoing.previous[n] : nil))
            }
            let record = LedgerRecord(destination: lane.ledgerName, key: outbound[n].key, remoteID: batch[k].remoteID ?? "", hash: outbound[n].hash, run: runID,
                                      source: source, rowHash: batch[k].rowHash, remoteVersion: version, created: created)
            if outbound[n].action == .update { replacing.append(record) } else { records.append(record) }
        }
        try store.write { tx in
            try tx.record(records)
            try tx.record(replacing, replacing: true)
            try tx.recordHistory(history)
        }
    }

    /// A batch event's status: ok when every row went, partial when some were refused or not
    /// delivered, failed when the destination refused the batch as a whole (it is then split).
    static func status(_ answer: BatchAnswer) -> String {
        switch answer {
        case .failed: return "failed"
        case .rows(let results):
            return results.allSatisfy { if case .created = $0 { return true }; if case .updated = $0 { return true }; return false } ? "ok" : "partial"
        }
    }
}
