import Foundation
import LeadConnectors
import LeadCore
import LeadNormalize
import LeadReaders
import LeadStore
import LeadWriters

/// What the engine reports as a run goes; the executable renders these (design.md §4.5).
public enum ProgressEvent: Sendable {
    case runStarted(runID: String, inputs: [String], destinations: [String], total: Int)
    case row(RowResult)
    /// One batch sent to a destination (for the embedded SQLite, one transaction).
    case batch(BatchResult)
    case runFinished(RunSummary)
}

public struct RowResult: Sendable {
    public var location: SourceLocation
    public var destination: String
    public var outcome: Outcome
    public var remoteID: String?
    public var reason: String?
}

public struct BatchResult: Sendable {
    public var destination: String
    public var size: Int
    public var status: String
    public var attempt: Int
    public var retryAfter: Double?

    public init(destination: String, size: Int, status: String, attempt: Int, retryAfter: Double?) {
        (self.destination, self.size, self.status, self.attempt, self.retryAfter) = (destination, size, status, attempt, retryAfter)
    }
}

/// Where in the pipeline a row was turned away: reading it, its rules and required fields,
/// the in-file dedupe, or the destination.
public enum RejectStage: String, Sendable {
    case read, normalize, dedupe, destination
}

public struct RunSummary: Sendable {
    public var runID: String
    public var rows: Int
    public var counts: [Outcome: Int]
    public var seconds: Double
    public var dryRun: Bool
}

public struct ImportOptions: @unchecked Sendable {
    public var files: [String]
    public var reader = RowReaderOptions()
    public var mapping: Mapping?
    /// The embedded database: the destination when `remote` is nil, and in any case where the
    /// runs and the ledger are kept.
    public var databasePath = "leadport.db"
    /// A destination other than the embedded database. Used by the delivery thread alone.
    public var remote: (any Destination)?
    public var campaign: String?
    /// The FLYR user the rows belong to (`--user`); without one, the campaign's owner, else
    /// `FlyrUser.local`. Settled by `ImportRun` once the campaign is known.
    public var user: String?
    public var region: String?
    public var dateOrder: DateOrder?
    public var dryRun = false
    public var exportPath: String?
    public var reportPath: String?
    public var rejectsPath: String?
    /// What built the rules (the version and the binary): a rerun passes over unchanged rows
    /// only when the same rules would turn them into the same leads.
    public var buildIdentity = ""

    public init(files: [String]) { self.files = files }
}

/// One `leadport import`: every row of every file ends in exactly one outcome.
///
/// `emit` is called from one thread at a time (the calling thread before and after the rows,
/// the delivery thread for each row), never from two at once.
public final class ImportRun: @unchecked Sendable {
    private(set) var options: ImportOptions
    let emit: (ProgressEvent) -> Void
    /// The destination as reports name it.
    let destination: String
    /// The destination as the ledger knows it: for the embedded database, the same whatever
    /// path it is opened by.
    let ledgerName: String
    private let recordIDs = RecordIDGenerator()
    /// Set as the run starts, before its first write.
    private var ledgerWasEmpty = false

    public init(options: ImportOptions, emit: @escaping (ProgressEvent) -> Void) {
        self.options = options
        self.emit = emit
        destination = options.remote?.name ?? "sqlite:" + options.databasePath
        ledgerName = options.remote?.ledgerName ?? LeadStore.ownLedger
    }

    struct Pending: Sendable {
        var lead: Lead
        var cells: [String]
        var key: String?
        var hash: String
        /// The columns to write, worked out in the first stage so the writer only writes.
        var contact: ContactRecord
        var address: AddressRecord?
        var outcome: Outcome?
        var reason: String?
        var stage: RejectStage?
        var remoteID: String?
        /// The row's hash (`RowHash`), for remote destinations.
        var rowHash: String?
        /// The ledger knew the row as it is: its lead was not built again, and is unchanged.
        var passedOver = false

        /// The key the ledger knows a row by: its dedupe key, or for a lead without one (a name
        /// alone) where it came from. (Static, so that reading it does not copy the row.)
        static func ledgerKey(_ key: String?, _ source: SourceLocation) -> String {
            key ?? "row:\(source.file):\(source.sheet ?? ""):\(source.row)"
        }
    }

    public func run() throws -> RunSummary {
        let started = Date()
        let runID = UUID().uuidString.lowercased()
        // The rows are counted (for the progress total) while everything else gets going: a
        // pass over the whole input that need not hold up the first batch.
        let files = options.files
        let counted = Background(name: "leadport-count") { [readerOptions = readerOptions()] in
            try files.map { try openRowReader(path: $0, options: readerOptions).count().rows }
        }
        defer { _ = try? counted.value() }
        let store = try LeadStore(path: options.databasePath)
        defer { try? store.close() }
        ledgerWasEmpty = !(try store.hasLedger(destination: ledgerName))
        // For a remote destination, rows are hashed as they come: a row the ledger has seen as
        // it is now (same cells, same mapping and options, same rules) is passed over without
        // building its lead, which is most of a rerun's work. Not when the processed sheet is
        // written, which needs every lead.
        let hashesRows = options.remote != nil && options.exportPath == nil
        // What the ledger knows by row hash, read in one pass while the run starts (see
        // `LeadStore.ledgerByRowHash`); for a ledger much larger than any list, batch by batch.
        let byRowHash = hashesRows && !ledgerWasEmpty ? Background(name: "leadport-ledger") { [store, ledgerName] in
            try store.ledgerByRowHash(destination: ledgerName, limit: Self.ledgerPreloadLimit)
        } : nil
        let plans = try options.files.map { try ColumnPlan.make(path: $0, options: readerOptions(), mapping: options.mapping) }
        if !options.dryRun { try store.startRun(id: runID, inputs: options.files) }
        // Emitted by the delivery thread before its first row, once the count is in.
        let runStarted: @Sendable () throws -> Int = { [self] in
            let total = try zip(counted.value(), plans).reduce(0) { $0 + $1.0 - $1.1.rowsThroughHeader }
            emit(.runStarted(runID: runID, inputs: files, destinations: [destination], total: total))
            return total
        }

        var campaignID: String?
        // An auto-mapped list imported into a campaign fills its recipient addresses too.
        let target: Mapping.Target = options.campaign != nil && options.mapping == nil ? .both : plans.first?.mapping.target ?? .contacts
        let campaignRef = options.campaign ?? plans.first?.mapping.defaults.campaign
        // An id names a campaign that exists, whoever owns it: it is never created (a campaign
        // named after an id would be a new, empty one). A name is created when missing.
        var campaignOwner: String?
        if let campaignRef, let remote = options.remote {
            // In a dry run a campaign still to be created has no id: nothing of it can be there yet.
            let match = try remote.campaign(campaignRef, owner: options.user, create: !options.dryRun)
            campaignID = match?.id
            campaignOwner = match?.owner
        } else if let campaignRef {
            let match = try store.campaign(campaignRef, owner: options.user, create: !options.dryRun)
            if let match, !match.ambiguous.isEmpty { throw AmbiguousCampaign(name: campaignRef, ids: match.ambiguous) }
            campaignID = match?.id ?? (options.dryRun && !CampaignMatch.isID(campaignRef) ? "(new campaign)" : nil)
            campaignOwner = match?.owner
        } else if target == .campaignAddresses {
            throw MappingError.invalid("--campaign", "the mapping targets campaign_addresses; name the campaign with --campaign ID|NAME")
        }
        if let campaignRef, campaignID == nil, CampaignMatch.isID(campaignRef) {
            throw UnknownCampaign(id: campaignRef, destination: destination)
        }
        // The contacts are the given user's, else the campaign owner's.
        options.user = options.user ?? campaignOwner ?? FlyrUser.local

        let failure = FirstFailure()
        let delivery = try Delivery(run: self, store: store, campaign: campaignID, target: target, runID: runID, failure: failure)
        // Three stages, each on a thread of its own, handing batches on through bounded queues:
        // the reader cuts the files into batches of rows; this thread builds each batch's leads
        // on every core; the delivery thread dedupes them in row order, writes them, and
        // reports each row. (For a remote destination the delivery is two threads: see
        // `Delivery`.) A failure in the reader or the delivery stops both. The batches are
        // small (`handOffRows`) and the queues short, so that few rows are in memory at once;
        // the writes of several batches are committed together (`Delivery`).
        let rowsQueue = BlockingQueue<Incoming?>(capacity: Self.queuedBatches)
        let leadsQueue = BlockingQueue<Work?>(capacity: Self.queuedBatches)
        let reading = WorkerThread(name: "leadport-reader") { [readerOptions = readerOptions()] in
            defer { rowsQueue.put(nil) }
            do {
                for (file, plan) in zip(files, plans) {
                    rowsQueue.put(.file(file, plan))
                    let reader = try openRowReader(path: file, options: readerOptions)
                    var rows: [RawRow] = []
                    rows.reserveCapacity(Self.handOffRows)
                    while let row = try reader.next() {
                        if let header = plan.headerRow, row.location.row <= header { continue }
                        rows.append(row)
                        if rows.count >= Self.handOffRows {
                            rowsQueue.put(.rows(rows, plan))
                            rows = []
                            rows.reserveCapacity(Self.handOffRows)
                            if failure.error != nil { return }
                        }
                    }
                    if !rows.isEmpty { rowsQueue.put(.rows(rows, plan)) }
                }
            } catch {
                failure.record(error)
            }
        }
        let delivering = WorkerThread(name: "leadport-delivery") {
            var draining = false
            do {
                delivery.total = try runStarted()
            } catch {
                failure.record(error)
                draining = true
            }
            while let work = leadsQueue.take() {
                guard !draining && failure.error == nil else { continue }
                do {
                    try delivery.handle(work)
                } catch {
                    failure.record(error)
                    delivery.failed()
                    draining = true
                }
            }
            delivery.end()
        }
        var builder: LeadBuilder?
        var fingerprint: UInt64 = 0
        while let incoming = rowsQueue.take() {
            switch incoming {
            case .file(let file, let plan):
                fingerprint = RowHash.fingerprint(plan: plan, options: options, campaign: campaignID, target: target)
                builder = LeadBuilder(plan: plan, region: options.region ?? plan.mapping.defaults.region ?? "US",
                                      dateOrder: options.dateOrder ?? plan.mapping.defaults.dateOrder,
                                      defaultState: plan.mapping.defaults.state, style: plan.mapping.defaults.addressStyle ?? .usps)
                leadsQueue.put(.file(file, plan))
            case .rows(let rows, let plan):
                guard let builder else { continue }
                guard hashesRows else {
                    leadsQueue.put(.batch(ParallelMap.map(rows) { Self.prepare($0, builder: builder, plan: plan, target: target) }, plan))
                    continue
                }
                let hashes = rows.map { RowHash.of($0.cells, fingerprint: fingerprint) }
                var known: [UInt64: (key: String, remoteID: String)] = [:]
                // Until the whole ledger is read (0.1 s for 100k entries), batch by batch
                // instead of waiting for it.
                if let ready = try byRowHash?.valueIfReady(), let whole = ready {
                    // The batch's own entries, picked out here: hashing and looking up in the
                    // parallel map below instead measured slower (0.55 s against 0.47 s a rerun).
                    for hash in hashes { if let entry = whole[hash] { known[hash] = entry } }
                } else if !ledgerWasEmpty {
                    known = try store.ledger(destination: ledgerName, rowHashes: hashes)
                }
                leadsQueue.put(.batch(ParallelMap.map(Array(rows.indices)) { [known] i in
                    if let (key, remoteID) = known[hashes[i]] {
                        return Pending(lead: Lead(source: rows[i].location), cells: rows[i].cells, key: key, hash: "",
                                       contact: ContactRecord(fullName: "", phone: nil, email: nil, address: nil, notes: nil),
                                       outcome: .unchanged, remoteID: remoteID, passedOver: true)
                    }
                    var pending = Self.prepare(rows[i], builder: builder, plan: plan, target: target)
                    pending.rowHash = RowHash.text(hashes[i])
                    return pending
                }, plan))
            }
        }
        leadsQueue.put(nil)
        // The ledger's entries (100k of them for as many rows) are let go on another thread
        // while the last rows are delivered, instead of after, on this one.
        if let byRowHash { DispatchQueue.global().async { byRowHash.discard() } }
        reading.join()
        delivering.join()
        if let error = failure.error { throw error }
        try delivery.close()
        if !options.dryRun { try store.finishRun(id: runID, counts: delivery.counts, rows: delivery.rows) }
        let summary = RunSummary(runID: runID, rows: delivery.rows, counts: delivery.counts, seconds: Date().timeIntervalSince(started), dryRun: options.dryRun)
        emit(.runFinished(summary))
        return summary
    }

    /// Entries of a destination the ledger is read whole for, at most (some 200 bytes each).
    static let ledgerPreloadLimit = 1_000_000

    /// Rows per hand-off between the stages, and batches per queue between them: what is in
    /// memory at once. (With hand-offs of 10,000 rows, two to a queue, the 100k-row benchmark
    /// list peaked at 140–216 MB.)
    static let handOffRows = 1_000
    static let queuedBatches = 3

    /// Rows per transaction of the embedded database (and of the ledger, for a remote
    /// destination), however many hand-offs that takes. Fewer, larger commits write the hot
    /// index pages (the ledger's keys land all over its index) to the log fewer times: 5,000
    /// rows took 5.4 s where 500 took 7.3 s on the 100k-row benchmark list, and 10,000 write a
    /// quarter fewer log pages than 5,000 and ran some 8% faster.
    static let transactionRows = 10_000

    /// The rows to commit together with `remaining` rows still to come (nil: not yet counted).
    /// The last transactions are smaller: the final commit is written while the cores that
    /// built its rows wait, so the less of it there is, the sooner the run ends.
    static func transactionRows(remaining: Int?) -> Int {
        guard let remaining, remaining < 2 * transactionRows else { return transactionRows }
        return max(500, transactionRows / 4)
    }

    /// From the reader to the build stage.
    enum Incoming: Sendable {
        case file(String, ColumnPlan)
        case rows([RawRow], ColumnPlan)
    }

    /// From the build stage to the delivery.
    enum Work: Sendable {
        case file(String, ColumnPlan)
        case batch([Pending], ColumnPlan)
    }

    /// From the delivery thread to the sending one: a batch deduped and prepared, with what is
    /// to go to the remote destination (nil: nothing).
    enum Staged: Sendable {
        case file(String, ColumnPlan)
        case batch([Pending], ColumnPlan, Outgoing?)
    }

    /// From the sending thread to the recording one: a batch sent, with each lead's answer.
    enum Sent: Sendable {
        case file(String, ColumnPlan)
        case batch([Pending], Outgoing?, [DeliveryResult?])
    }

    /// A batch's leads for a remote destination, and the batch rows they came from.
    struct Outgoing: Sendable {
        var leads: [OutboundLead]
        var rows: [Int]
    }

    /// Everything about one row that does not depend on the rows before it: the lead, its key
    /// and hash, and whether it is blank or rejected. Runs on any thread.
    static func prepare(_ row: RawRow, builder: LeadBuilder, plan: ColumnPlan, target: Mapping.Target) -> Pending {
        let lead = builder.build(row)
        // The address lines are built once here and shared by both records.
        let delivery = lead.address.deliveryLine
        let formatted = lead.address.formatted(deliveryLine: delivery)
        let contact = ContactRecord(fullName: lead.fullName ?? lead.company ?? lead.email ?? lead.phone ?? delivery ?? "(no name)",
                                    phone: lead.phone ?? lead.mobile, email: lead.email, address: formatted, notes: lead.notes)
        let address = delivery.map { AddressRecord(lead.address, deliveryLine: $0, formatted: formatted) }
        let key = DedupeKey.make(lead, kinds: plan.mapping.dedupe)
        let hash = ContentHash.of(lead, contact: contact, target: target)
        var outcome: Outcome?, reason: String?, stage: RejectStage?
        if row.isBlank {
            (outcome, reason) = (.skipped, "blank row")
        } else if let (rejectedAt, why) = rejection(lead, plan: plan) {
            (outcome, reason, stage) = (.rejected, why, rejectedAt)
        }
        // Built last, so the lead moves into it instead of being copied.
        return Pending(lead: lead, cells: row.cells, key: key, hash: hash, contact: contact, address: address, outcome: outcome, reason: reason, stage: stage)
    }

    private func readerOptions() -> RowReaderOptions {
        var o = options.reader
        if o.sheet == nil { o.sheet = options.mapping?.sheet }
        return o
    }

    /// The processed sheet for one input is named after its file.
    func sheetName(file: String) -> String {
        ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// The cells padded or cut to the list's width, so every row lines up under the header.
    /// (A row wider than the list carries its extra cells in its issues.)
    func fitted(_ cells: [String], _ width: Int) -> [String] {
        if cells.count > width { return Array(cells.prefix(width)) }
        return cells.count == width ? cells : cells + Array(repeating: "", count: width - cells.count)
    }

    /// Why a lead cannot be imported, and at which stage, or nil.
    static func rejection(_ lead: Lead, plan: ColumnPlan) -> (RejectStage, String)? {
        let hasAddress = lead.address.hasDeliveryLine
        if lead.fullName == nil && lead.email == nil && lead.phone == nil && lead.mobile == nil && !hasAddress {
            let readProblems = lead.issues.filter { $0.code.isReadProblem }.map(\.message)
            if !readProblems.isEmpty { return (.read, readProblems.joined(separator: "; ")) }
            let problems = lead.issues.filter { $0.code != .repairedValue && $0.code != .emailSuggestion }.map(\.message)
            return (.normalize, problems.isEmpty ? "no name, email, phone or address" : problems.joined(separator: "; "))
        }
        for field in plan.mapping.required where !RequiredField.isPresent(field, in: lead) {
            let columns = plan.fields.filter { RequiredField.feeds($0.value, field) }.map(\.key).sorted()
            // A value that was there but did not pass its rule says why; otherwise it is empty.
            if let problem = lead.issues.first(where: { issue in
                issue.code != .repairedValue && issue.code != .emailSuggestion && columns.contains { $0 == issue.location?.column?.index }
            }) {
                return (.normalize, "required \(field.rawValue): \(problem.message)")
            }
            let named = columns.map { k in k < plan.headers.count && !plan.headers[k].isEmpty ? "\"\(plan.headers[k])\"" : Column.letters(for: k) }
            if named.isEmpty { return (.normalize, "required \(field.rawValue) is not mapped to any column") }
            return (.normalize, "required \(field.rawValue) is empty (column \(named.joined(separator: ", ")))")
        }
        return nil
    }

    /// Delivers the batch into the embedded database (in a dry run, only works out each row's
    /// outcome) and returns how many rows it wrote, into the store's open transaction.
    func deliver(_ batch: inout [Pending], store: LeadStore, campaign: String?, target: Mapping.Target, runID: String) throws -> Int {
        if let remote = options.remote {
            // A dry run's (a real run's go through the sending thread: `Delivery`).
            if let outgoing = try stage(&batch, for: remote, store: store, campaign: campaign, target: target) {
                try record(outgoing, answers: transmit(outgoing, to: remote, campaign: campaign), batch: &batch, store: store, runID: runID)
            }
            return 0
        }
        if options.dryRun {
            let known = try knownLeads(batch, store: store)
            for k in batch.indices where batch[k].outcome == nil {
                if let entry = known[Pending.ledgerKey(batch[k].key, batch[k].lead.source)] {
                    batch[k].outcome = entry.contentHash == batch[k].hash ? .unchanged : .updated
                    batch[k].remoteID = entry.remoteID
                } else {
                    batch[k].outcome = .created
                }
            }
            return 0
        }
        var size = 0
        for k in batch.indices where batch[k].outcome == nil { size += 1 }
        guard size > 0 else { return 0 }
        do {
            try write(&batch, store: store, campaign: campaign, target: target, runID: runID)
        } catch {
            emit(.batch(BatchResult(destination: destination, size: size, status: "failed", attempt: 1, retryAfter: nil)))
            throw error
        }
        return size
    }

    /// What the ledger already holds for the batch's keys. When it held nothing for this
    /// destination as the run began there is nothing to look up: the in-file dedupe already
    /// keeps a key from coming twice within the run.
    private func knownLeads(_ batch: [Pending], store: LeadStore) throws -> [String: LeadStore.LedgerEntry] {
        if ledgerWasEmpty { return [:] }
        return try store.ledger(destination: ledgerName, keys: batch.compactMap { $0.outcome == nil ? Pending.ledgerKey($0.key, $0.lead.source) : nil })
    }

    /// Creates or updates each lead that has no outcome yet, and records it in the ledger, in
    /// the store's open transaction (committed by the delivery every `transactionRows` rows).
    private func write(_ batch: inout [Pending], store: LeadStore, campaign: String?, target: Mapping.Target, runID: String) throws {
        let known = try knownLeads(batch, store: store)
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
                if let entry = known[key] {
                    batch[k].remoteID = entry.remoteID
                    if entry.contentHash == batch[k].hash {
                        batch[k].outcome = .unchanged
                        continue
                    }
                    let ids = entry.remoteID.split(separator: "|").map(String.init)
                    if target != .campaignAddresses, let contact = ids.first(where: { !$0.hasPrefix("a:") }) {
                        try tx.updateContact(id: contact, batch[k].contact)
                    }
                    if let address = ids.first(where: { $0.hasPrefix("a:") }), let record = batch[k].address {
                        try tx.updateAddress(id: String(address.dropFirst(2)), record)
                    }
                    batch[k].outcome = .updated
                    changed.append(LedgerRecord(destination: ledgerName, key: key, remoteID: entry.remoteID, hash: batch[k].hash, run: runID, source: source))
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
                        newContacts.append(NewContact(id: id, user: options.user ?? FlyrUser.local, contact: batch[k].contact, campaign: campaign, addressID: addressID))
                        remoteID = id
                    }
                    // `contact|a:address`, either alone.
                    if let addressID { remoteID += (remoteID.isEmpty ? "a:" : "|a:") + addressID }
                    batch[k].remoteID = remoteID
                    batch[k].outcome = .created
                }
                added.append(LedgerRecord(destination: ledgerName, key: key, remoteID: batch[k].remoteID ?? "", hash: batch[k].hash, run: runID, source: source))
            }
            try tx.insertAddresses(newAddresses)
            try tx.insertContacts(newContacts)
            try tx.record(added)
            try tx.record(changed, replacing: true)
        }
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
    func stage(_ batch: inout [Pending], for remote: any Destination, store: LeadStore, campaign: String?, target: Mapping.Target) throws -> Outgoing? {
        let known = try knownLeads(batch, store: store)
        var outbound: [OutboundLead] = []
        var rows: [Int] = []
        for k in batch.indices where batch[k].outcome == nil {
            let key = Pending.ledgerKey(batch[k].key, batch[k].lead.source)
            let entry = known[key]
            if let entry, entry.contentHash == batch[k].hash {
                batch[k].outcome = .unchanged
                batch[k].remoteID = entry.remoteID
                continue
            }
            outbound.append(OutboundLead(key: key, hash: batch[k].hash, lead: batch[k].lead,
                                         contact: target != .campaignAddresses ? batch[k].contact : nil,
                                         address: target != .contacts && campaign != nil ? batch[k].address : nil,
                                         action: entry == nil ? .create : .update, remoteID: entry?.remoteID))
            rows.append(k)
        }
        guard !outbound.isEmpty else { return nil }
        try remote.prepare(&outbound, campaign: campaign)
        if options.dryRun {
            for (lead, k) in zip(outbound, rows) {
                batch[k].outcome = lead.alreadyThere ? .unchanged : lead.action == .update ? .updated : .created
                if lead.alreadyThere { batch[k].reason = "already at the destination" }
                if lead.action == .update || lead.alreadyThere { batch[k].remoteID = lead.remoteID }
            }
            return nil
        }
        return Outgoing(leads: outbound, rows: rows)
    }

    /// The second half, on the sending thread: sends the leads in the destination's batches.
    /// Returns each lead's answer (nil: already at the destination, not sent).
    func transmit(_ outgoing: Outgoing, to remote: any Destination, campaign: String?) throws -> [DeliveryResult?] {
        let outbound = outgoing.leads
        let sending = outbound.indices.filter { !outbound[$0].alreadyThere }
        let splitter = BatchSplitter(largestBatch: remote.capabilities.largestBatch)
        // Usually every lead goes: then the array itself, not a copy of each lead.
        let results = try splitter.deliver(sending.count == outbound.count ? outbound : sending.map { outbound[$0] }) { slice in
            let answer = try remote.send(slice, campaign: campaign, user: options.user ?? FlyrUser.local)
            emit(.batch(BatchResult(destination: destination, size: slice.count, status: Self.status(answer), attempt: 1, retryAfter: nil)))
            return answer
        }
        var answers = [DeliveryResult?](repeating: nil, count: outbound.count)
        for (n, k) in sending.enumerated() { answers[k] = results[n] }
        return answers
    }

    /// The third half, on the recording thread: gives each row its outcome from the answers and
    /// records what the destination confirmed in the ledger (the store's open transaction,
    /// committed with the rows of later batches).
    func record(_ outgoing: Outgoing, answers: [DeliveryResult?], batch: inout [Pending], store: LeadStore, runID: String) throws {
        let (outbound, rows) = (outgoing.leads, outgoing.rows)
        // Leads new to the ledger are plain inserts; only changed ones replace an entry (an
        // upsert of many rows makes SQLite keep a statement journal: LeadStore.record).
        var records: [LedgerRecord] = []
        var replacing: [LedgerRecord] = []
        for (n, k) in rows.enumerated() {
            let lead = outbound[n]
            let source = batch[k].lead.source
            switch answers[n] {
            case nil:
                batch[k].outcome = .unchanged
                batch[k].reason = "already at the destination"
                batch[k].remoteID = lead.remoteID
            case .created(let id)?:
                (batch[k].outcome, batch[k].remoteID) = (.created, id)
            case .updated(let id)?:
                (batch[k].outcome, batch[k].remoteID) = (.updated, id)
            case .rejected(let reason)?:
                (batch[k].outcome, batch[k].reason, batch[k].stage) = (.rejected, reason, .destination)
                continue
            case .failed(let reason)?:
                (batch[k].outcome, batch[k].reason) = (.failed, reason)
                continue
            }
            let record = LedgerRecord(destination: ledgerName, key: lead.key, remoteID: batch[k].remoteID ?? "", hash: lead.hash, run: runID, source: source,
                                      rowHash: batch[k].rowHash)
            if lead.action == .update { replacing.append(record) } else { records.append(record) }
        }
        try store.write { tx in
            try tx.record(records)
            try tx.record(replacing, replacing: true)
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

/// `--campaign ID` where the destination has no campaign with that id: a usage error (exit 2),
/// never a new campaign named after the id.
public struct UnknownCampaign: Error, CustomStringConvertible, Classified {
    public var id: String
    public var destination: String
    public var disposition: FailureDisposition { .usage }

    public var description: String {
        "\(destination) has no campaign with the id \(id); give the id of a campaign that exists there, or a name to create a new campaign"
    }
}
