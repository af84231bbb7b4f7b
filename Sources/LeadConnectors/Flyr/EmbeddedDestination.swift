import Foundation
import LeadCore
import LeadStore

/// `--to sqlite:PATH`, the default: FLYR's tables in the SQLite file that also keeps the
/// ledger, delivered on the same path as every other destination (staged, prepared, sent,
/// recorded). Its one difference is declared in its capabilities (`writesWithLedger`): each
/// batch's rows are written in the store's open transaction just before their ledger entries,
/// on the recording thread, and committed with them, so a crash keeps both or neither. Its ids
/// are new (UUID version 7) rather than fixed by the lead: nothing is ever sent twice to it.
/// Made by `DestinationRegistry.embedded(path:)`, and handed the run's store (`attach`).
final class EmbeddedDestination: Destination {
    let name: String
    let ledgerName = LeadStore.ownLedger
    let reconciliation = Reconciliation.withLedger
    /// A batch of the engine's (a thousand rows at most) is one write; there is no rate to keep to.
    let capabilities = DestinationCapabilities(largestBatch: 1_000, requests: 1_000_000, per: 1, upserts: false, writesWithLedger: true)
    private let ids = RecordIDGenerator()
    /// Set by `attach` as the run starts, before `configure` and the rows.
    private var store: LeadStore?
    /// What the run writes (`FlyrScope.target`), which its hash has always named.
    private var target = "contacts"
    private var dryRun = false
    private var policy = DestinationPolicy()

    init(path: String) { name = "sqlite:" + path }

    func attach(_ store: LeadStore, dryRun: Bool) {
        (self.store, self.dryRun) = (store, dryRun)
    }

    private var opened: LeadStore {
        guard let store else { preconditionFailure("the embedded database was used before the run attached its store") }
        return store
    }

    /// Every mode and field policy (`append` as `fill_blank`: its columns hold one value each);
    /// no option.
    func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: kind, fieldPolicies: Set(FieldPolicy.allCases), options: [])
        self.policy = policy
    }

    /// The rows the run writes (`FlyrRows`, as for every FLYR destination), and the hash
    /// LeadPort has always kept for it (`ContentHash`, over the lead's contact whatever the
    /// target), so ledgers written before destinations hashed what they send stay valid.
    var encoder: @Sendable (Lead) -> Encoded {
        { [target, contacts = scope.writesContacts, addresses = scope.writesAddresses] lead in
            let rows = FlyrRows(lead, contacts: contacts, addresses: addresses)
            return Encoded(hash: ContentHash.of(lead, contact: rows.contact ?? ContactRecord(lead), target: target), payload: rows)
        }
    }

    /// The run's campaign and whose its rows are (`FlyrScope`), kept for every batch after.
    private var scope = FlyrScope()

    func enter(_ given: RunScope) throws -> Scope {
        scope = try FlyrScope(given, destination: name) { try campaign($0, owner: $1, create: $2) }
        target = scope.target
        return scope.answer
    }

    /// Of `remoteIDs` (ledger entries written before keys had their campaign), those whose rows
    /// are the run's campaign's; nil when the run names no campaign.
    func inScope(_ remoteIDs: [String]) throws -> Set<String>? {
        guard let campaign = scope.campaign else { return nil }
        return try opened.inCampaign(campaign, remoteIDs: remoteIDs)
    }

    private func campaign(_ reference: String, owner: String?, create: Bool) throws -> CampaignMatch? {
        let found = try opened.campaign(reference, owner: owner, create: create && !dryRun)
        if let found, !found.ambiguous.isEmpty { throw AmbiguousCampaign(name: reference, ids: found.ambiguous) }
        // A dry run counts the addresses a new campaign would get, though it has no id yet.
        if found == nil, dryRun, !CampaignMatch.isID(reference) { return CampaignMatch(id: "(new campaign)", owner: nil) }
        return found.map { CampaignMatch(id: $0.id, owner: $0.owner) }
    }

    /// New leads get new ids; with a campaign, a lead new to the ledger whose rows the campaign
    /// has already (added by hand, or by another list whose key for the lead differed) takes
    /// them, as for every FLYR destination (`FlyrPlanner`).
    func prepare(_ leads: inout [OutboundLead]) throws {
        guard scope.campaign == nil else { return try planner.prepare(&leads, campaign: scope.campaign, policy: policy) }
        for k in leads.indices where leads[k].action == .create {
            let rows = leads[k].flyr
            if rows.hasAddress {
                rows.addressID = ids.next()
                rows.createsAddress = true
            }
            if rows.hasContact {
                rows.contactID = ids.next()
                rows.createsContact = true
            }
            leads[k].remoteID = rows.remoteID
        }
    }

    /// New rows get new ids (time-ordered: they go in at the end of the tables' indexes).
    private lazy var planner = FlyrPlanner(ledgerName: ledgerName, load: { [unowned self] campaign in
        let rows = try self.opened.campaignRows(campaign)
        var index = FlyrIndex()
        for a in rows.addresses { index.addAddress(id: a.id, house: a.house, street: a.street, postal: a.postal) }
        for c in rows.contacts { index.addContact(id: c.id, email: c.email, phone: c.phone, name: c.name) }
        return index
    },
                                           read: { [unowned self] table, columns, ids in try self.opened.rows(table, columns: columns, ids: ids) },
                                           newID: { [ids] _, _ in ids.next() })

    /// Into the store's open transaction: the new rows together, a few dozen per statement
    /// (addresses first, since contacts refer to them), and each changed lead's rows as the
    /// mapping's field policies say. A row the database refuses (a constraint or trigger of
    /// its own) undoes the batch's writes and fails the batch for its rows, so that it is
    /// written again in halves until that row stands alone, rejected with SQLite's message.
    func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        let (campaign, user) = (scope.campaign, scope.user)
        var refusal: StoreError?
        try opened.write { tx in
            // Caught inside: an error out of `write` would roll back the whole open
            // transaction, the batches before this one with it.
            do {
                try tx.savepoint { try write(leads, campaign: campaign, user: user, into: tx) }
            } catch let error as StoreError where error.refusesRow {
                refusal = error
            }
        }
        if let refusal { return .failed(reason: refusal.message, rowLevel: true) }
        return .rows(leads.map { $0.action == .update ? .updated(remoteID: $0.remoteID ?? $0.flyr.remoteID) : .created(remoteID: $0.remoteID ?? $0.flyr.remoteID) })
    }

    private func write(_ leads: ArraySlice<OutboundLead>, campaign: String?, user: String, into tx: StoreTransaction) throws {
        var seq = try campaign.map { try tx.nextSeq(campaign: $0) } ?? 1
        var newAddresses: [NewAddress] = []
        var newContacts: [NewContact] = []
        // By index: iterating the slice copied each lead.
        for k in leads.indices {
            let rows = leads[k].flyr
            switch leads[k].action {
            case .update:
                // A row deleted from the file since it was written is written again, under its
                // id: the lead is updated, not lost (the ledger would otherwise pass it over
                // as unchanged for good).
                if let id = rows.addressID, let address = rows.address, let campaign, !(try tx.updateAddress(id: id, address, policy: policy)) {
                    newAddresses.append(NewAddress(id: id, campaign: campaign, address: address, seq: seq))
                    seq += 1
                }
                if let id = rows.contactID, let contact = rows.contact, !(try tx.updateContact(id: id, contact, policy: policy)) {
                    newContacts.append(NewContact(id: id, user: user, contact: contact, campaign: campaign, addressID: rows.addressID))
                }
            case .create:
                if rows.createsAddress, let campaign, let id = rows.addressID, let address = rows.address {
                    newAddresses.append(NewAddress(id: id, campaign: campaign, address: address, seq: seq))
                    seq += 1
                }
                if rows.createsContact, let id = rows.contactID, let contact = rows.contact {
                    newContacts.append(NewContact(id: id, user: user, contact: contact, campaign: campaign, addressID: rows.addressID))
                }
            }
        }
        try tx.insertAddresses(newAddresses)
        try tx.insertContacts(newContacts)
    }

    /// For a plan: the changed leads' rows as read, and what would be written over them.
    var undoesUpdates: Bool { true }

    func writtenVersion(_ lead: OutboundLead) -> String? { FlyrVersion.of(lead) }

    func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        let store = opened
        return try FlyrUndo.undo(items, dryRun: dryRun, FlyrUndo.Access(read: { try store.rows($0, columns: $1, ids: $2) },
                                                                       delete: { try store.deleteRows($0, ids: $1) },
                                                                       set: { try store.setColumns($0, id: $1, $2) }))
    }

    func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? {
        try FlyrPlan.snapshots(leads, policy: policy) { table, columns, ids in try opened.rows(table, columns: columns, ids: ids) }
    }
}
