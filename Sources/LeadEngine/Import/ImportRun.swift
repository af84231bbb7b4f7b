import Foundation
import LeadConnectors
import LeadCore
import LeadNormalize
import LeadReaders
import LeadStore
import LeadWriters


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
    let recordIDs = RecordIDGenerator()
    /// Set as the run starts, before its first write.
    var ledgerWasEmpty = false

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
        let hasher = options.remote?.contentHasher
        let campaign = campaignID
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
                    leadsQueue.put(.batch(ParallelMap.map(rows) { Self.prepare($0, builder: builder, plan: plan, target: target, campaign: campaign, hasher: hasher) }, plan))
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
                    var pending = Self.prepare(rows[i], builder: builder, plan: plan, target: target, campaign: campaign, hasher: hasher)
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

    private func readerOptions() -> RowReaderOptions {
        var o = options.reader
        if o.sheet == nil { o.sheet = options.mapping?.sheet }
        return o
    }
}
