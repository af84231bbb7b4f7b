import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadEnrich
import LeadNormalize
import LeadPortKit
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
    /// Every destination of the run: the embedded database first when it is one, then the
    /// others in the order of `--to`.
    let lanes: [Lane]

    public init(options: ImportOptions, emit: @escaping (ProgressEvent) -> Void) {
        self.options = options
        // The enrichment reports its spending from its own threads: one event at a time still.
        let emitting = NSLock()
        self.emit = { event in emitting.withLock { emit(event) } }
        let embedded = options.embedded || options.remotes.isEmpty ? [DestinationRegistry.embedded(path: options.databasePath)] : []
        let destinations: [any Destination] = embedded + options.remotes
        lanes = destinations.enumerated().map { Lane(index: $0.offset, destination: $0.element) }
    }

    /// One destination of a run, and what the run settles about it before the rows (its
    /// scope, whose the rows are) and learns as they go (whether it stopped).
    final class Lane: @unchecked Sendable {
        let index: Int
        /// As reports and events name it.
        let name: String
        /// As the ledger knows it: for the embedded database, the same whatever path it is opened by.
        let ledgerName: String
        let destination: any Destination
        /// What it makes of each lead on the build threads (`Destination.encoder`). Read again
        /// once the destination is configured and has entered the run's scope, before the rows.
        private(set) var encoder: @Sendable (Lead) -> Encoded
        /// Whether it is written in the ledger's own transaction (the embedded database): on the
        /// recording thread, with no sending thread of its own.
        let writesWithLedger: Bool
        /// What the destination made of the run's scope (`Destination.enter`): set as the run
        /// starts, before the rows, and not changed after.
        private(set) var scope = Scope(name: nil)
        /// Whether its records belong to the place the run named (a FLYR campaign): the ledger
        /// then knows a lead per place.
        var scoped: Bool { scope.ledgerKey != nil }
        /// The mapping's mode and field policies for this destination.
        private(set) var policy = DestinationPolicy()
        /// Whose the rows are, as the run's fingerprint has always named it (`RowHash`).
        private(set) var user = RowHash.unowned
        var ledgerWasEmpty = false
        /// People a do-not-contact list names whom this destination already holds (the ledger
        /// knows them): excluding stops only what is sent from now on.
        var excludedHeld = RunSummary.RowTally()
        private let lock = NSLock()
        private var stoppedBy: (any Error)?

        /// The key the ledger knows a row by at this destination: the row's own
        /// (`Pending.ledgerKey`), and for a destination whose records belong to the place the
        /// run named, that place's (`@campaign:ID`, `Scope.ledgerKey`).
        func ledgerKey(_ key: String?, _ source: SourceLocation) -> String {
            let own = Pending.ledgerKey(key, source)
            guard let scoped = scope.ledgerKey else { return own }
            return Joining.joined(own, "@", scoped)
        }

        init(index: Int, destination: any Destination) {
            (self.index, self.name, self.ledgerName, self.destination) = (index, destination.name, destination.ledgerName, destination)
            encoder = destination.encoder
            writesWithLedger = destination.capabilities.writesWithLedger
        }

        /// Why the destination stopped part way, if it did: nothing more is sent to it, and
        /// its unsent rows go with the next run, while the other destinations go on.
        var stopped: (any Error)? { lock.withLock { stoppedBy } }
        func stop(_ error: any Error) { lock.withLock { if stoppedBy == nil { stoppedBy = error } } }

        /// Gives the destination its part of `mapping` (`Destination.configure`), and takes its
        /// encoder again, since what it sends may have changed with its options.
        func configure(_ mapping: Mapping, strictFields: Bool) throws {
            policy = mapping.policy(for: destination.kind)
            policy.strictFields = strictFields
            try destination.configure(policy)
            encoder = destination.encoder
        }

        /// Gives the destination the run's scope (`Destination.enter`), and takes its encoder
        /// again, since what it sends may carry the scope's name, or depend on what it writes.
        func enter(_ given: RunScope) throws {
            scope = try destination.enter(given)
            user = given.owner ?? scope.owner ?? RowHash.unowned
            encoder = destination.encoder
        }
    }

    struct Pending: Sendable {
        /// The lead, boxed on the build thread: each destination's `OutboundLead` shares the
        /// box instead of copying the lead on the delivery thread.
        let box: LeadBox
        var lead: Lead { box.lead }
        var cells: [String]
        /// `RawRow.numericCells`.
        var numericCells: [Int] = []
        var key: String?
        /// What the destination being delivered to made of the lead (`Lane.encoder`): its hash,
        /// and its payload, worked out in the build stage so the delivery only sends. The first
        /// destination's as built, each other's taken from `otherEncoded` in its turn.
        var encoded: Encoded
        var otherEncoded: [Encoded] = []
        /// The hash of what the destination being delivered to is sent.
        var hash: String { encoded.hash }
        var outcome: Outcome?
        var reason: String?
        var stage: RejectStage?
        var remoteID: String?
        /// The row's hash (`RowHash`), for remote destinations.
        var rowHash: String?
        /// The ledger knew the row as it is: its lead was not built again, and is unchanged.
        var passedOver = false
        /// Its place in its batch, which each destination's copy keeps as rows drop out of it.
        var position = 0
        /// In a dry run, its part in the plan at the destination being delivered to.
        var planned: PlannedRow?
        /// `Gaps` of the lead, for the summary: worked out on the build threads, so that the
        /// delivery thread, the pipeline's narrowest, need not read (and copy) the lead for it.
        var gaps: UInt8

        /// The key the ledger knows a row by: its dedupe key, or for a lead without one (a name
        /// alone) where it came from. (Static, so that reading it does not copy the row.)
        static func ledgerKey(_ key: String?, _ source: SourceLocation) -> String {
            key ?? "row:\(source.file):\(source.sheet ?? ""):\(source.row)"
        }
    }

    public func run() throws -> RunSummary {
        let started = Date()
        let runID = UUID().uuidString.lowercased()
        // Every list is planned before anything is opened: a run refused for its lists makes no
        // database and reads no row.
        var plans: [ColumnPlan] = []
        // A list with nothing in it has no rows to lose: beside others (or in a sync job) it is
        // passed over, said in a warning; alone, the run is refused.
        var empty: [(file: String, error: MappingError)] = []
        // A list that cannot be planned, in a sync job: held back (not read), the others go on.
        var heldBack: [(file: String, error: any Error)] = []
        var kept: [String] = []
        for file in options.files {
            do {
                plans.append(try ColumnPlan.make(path: file, options: readerOptions(), mapping: options.mapping))
                kept.append(file)
            } catch let error as MappingError where error.isEmptyList {
                empty.append((file, error))
                plans.append(ColumnPlan.empty(mapping: options.mapping))
                kept.append(file)
            } catch where options.unplannedListsHeldBack {
                heldBack.append((file, error))
            }
        }
        if let first = empty.first, empty.count == options.files.count, !options.emptyListsAllowed { throw first.error }
        // Every list held back: nothing to deliver, and the run is refused as for one list.
        if kept.isEmpty, let first = heldBack.first { throw first.error }
        options.files = kept
        // The rows are counted (for the progress total) while everything else gets going: a
        // pass over the whole input that need not hold up the first batch, and is saved when
        // no one is shown the total.
        let files = options.files
        let counted = options.countsRows ? Background(name: "leadport-count") { [readerOptions = readerOptions()] in
            try files.map { try openRowReader(path: $0, options: readerOptions).count().rows }
        } : nil
        defer { _ = try? counted?.value() }
        // A dry run leaves no file behind: a database that is not there yet is made in memory.
        let new = !FileManager.default.fileExists(atPath: options.databasePath)
        let store = try LeadStore(path: options.dryRun && new ? ":memory:" : options.databasePath)
        defer { try? store.close() }
        for lane in lanes { lane.ledgerWasEmpty = !(try store.hasLedger(destination: lane.ledgerName)) }
        // For one remote destination, rows are hashed as they come: a row the ledger has seen as
        // it is now (same cells, same mapping and options, same rules) is passed over without
        // building its lead, which is most of a rerun's work. Not when the processed sheet is
        // written, which needs every lead, nor for several destinations (a row is passed over
        // only when every one of them has it: not worth a second look-up per row).
        // Nor with an enrichment, whose answers are part of the lead.
        // Nor with do-not-contact lists: a row passed over as unchanged would never be checked
        // against a list that names its person since.
        let passing = lanes.count == 1 && !lanes[0].writesWithLedger && options.exportPath == nil && options.enrichment == nil && options.exclusions.isEmpty ? lanes[0] : nil
        // What the ledger knows by row hash, read in one pass while the run starts (see
        // `LeadStore.ledgerByRowHash`); for a ledger much larger than this input, batch by batch.
        // (A file whose size is unknown counts as large.)
        let inputBytes = files.reduce(0) { total, file in
            min(Int.max / 2, total + (((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? Int.max / 2))
        }
        let byRowHash = passing.flatMap { lane in lane.ledgerWasEmpty ? nil : Background(name: "leadport-ledger") { [store] in
            try store.ledgerByRowHash(destination: lane.ledgerName, limit: Self.ledgerPreloadLimit(inputBytes: inputBytes))
        } }
        for (_, error) in empty { emit(.warning(RunWarning(code: "empty_list", message: "\(error): passed over"))) }
        for (_, error) in heldBack { emit(.warning(RunWarning(code: "list_held_back", message: "\(error): held back, none of its rows read"))) }
        // With an enrichment: what each file sends the model (its own columns), and its plan
        // with the answers as columns after them.
        let enrichment = options.enrichment
        var sent: [[Int]] = []
        var ownNames: [[String]] = []
        if let enrichment {
            for (file, plan) in zip(options.files, plans) {
                sent.append(try enrichment.columns(for: plan, file: file))
                ownNames.append(plan.columnNames)
            }
            plans = plans.map { $0.enriched(by: enrichment.spec) }
        }
        // A list of mailing addresses alone: they are the leads' addresses (said in the summary).
        let mailingAsAddress = plans.indices.filter { plans[$0].useMailingAsAddress() }.map { options.files[$0] }
        // What the mapping says the run writes; without one, each destination settles it.
        let target = options.mapping?.target.rawValue
        for lane in lanes { lane.destination.attach(store, dryRun: options.dryRun) }
        // Every file is read with the same mapping (or none): its policies hold for the run.
        let mapping = options.mapping ?? plans.first(where: { $0.width > 0 })?.mapping ?? Mapping()
        for lane in lanes { try lane.configure(mapping, strictFields: options.strictFields) }
        // Said before anything is sent: live events that start action plans, columns with no
        // place at a destination.
        let fields = Set(plans.flatMap { $0.fields.values })
        for lane in lanes {
            guard let speaking = lane.destination as? any WarningDestination else { continue }
            for w in speaking.warnings(fields: fields, announce: options.dryRun || lane.ledgerWasEmpty) {
                emit(.warning(RunWarning(code: w.code, destination: lane.name, message: w.message)))
            }
        }
        if !options.dryRun { try store.startRun(id: runID, inputs: options.files, destinations: options.destinationValues) }
        // Emitted by the delivery thread before its first row, once the count is in.
        let runStarted: @Sendable () throws -> Int? = { [self, plans] in
            let total = try counted.map { try zip($0.value(), plans).reduce(0) { $0 + $1.0 - $1.1.rowsThroughHeader } }
            emit(.runStarted(runID: runID, inputs: files, destinations: self.lanes.map(\.name), total: total ?? 0))
            return total
        }

        try enterScope(reference: options.campaign ?? plans.first?.mapping.defaults.campaign, target: target)

        let failure = FirstFailure()
        let delivery = try Delivery(run: self, store: store, runID: runID, failure: failure, columns: plans.map(\.columnNames))
        // Three stages, each on a thread of its own, handing batches on through bounded queues:
        // the reader cuts the files into batches of rows; this thread builds each batch's leads
        // on every core; the delivery thread dedupes them in row order and hands them to each
        // destination (see `Delivery` for the threads after it). A failure in the reader or the
        // delivery stops both. The batches are small (`handOffRows`) and the queues short, so
        // that few rows are in memory at once; the writes of several batches are committed
        // together (`Delivery`).
        let rowsQueue = BlockingQueue<Incoming?>(capacity: Self.queuedBatches)
        let leadsQueue = BlockingQueue<Work?>(capacity: Self.queuedBatches)
        // An enrichment's hand-offs are a few requests' worth: its answers, and with them the
        // rows' progress, come a batch at a time.
        let handOff = enrichment?.chunkRows ?? lanes.compactMap(\.destination.capabilities.handOffRows).min().map { min($0, Self.handOffRows) } ?? Self.handOffRows
        let reading = WorkerThread(name: "leadport-reader") { [readerOptions = readerOptions(), plans] in
            defer { rowsQueue.put(nil) }
            do {
                for (file, plan) in zip(files, plans) {
                    rowsQueue.put(.file(file, plan))
                    let reader = try openRowReader(path: file, options: readerOptions)
                    var rows: [RawRow] = []
                    rows.reserveCapacity(handOff)
                    while let row = try reader.next() {
                        if let header = plan.headerRow, row.location.row <= header { continue }
                        rows.append(row)
                        if rows.count >= handOff {
                            rowsQueue.put(.rows(rows, plan))
                            rows = []
                            rows.reserveCapacity(handOff)
                            if failure.error != nil { return }
                            // Interrupted: the rows read so far go through; no more are read.
                            if Interruption.requested != 0 { return }
                        }
                    }
                    if !rows.isEmpty { rowsQueue.put(.rows(rows, plan)) }
                    if Interruption.requested != 0 { return }
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
                    delivery.failed(onDeliveryThread: true)
                    draining = true
                }
            }
            delivery.end()
        }
        var builder: LeadBuilder?
        var fingerprint: UInt64 = 0
        var fileIndex = -1
        let lanes = self.lanes
        let exclusions = options.exclusions
        while let incoming = rowsQueue.take() {
            switch incoming {
            case .file(let file, let plan):
                fileIndex += 1
                if let passing {
                    fingerprint = RowHash.fingerprint(plan: plan, options: options, scope: passing.scope.name, user: passing.user, target: target)
                }
                builder = LeadBuilder(plan: plan, region: options.region ?? plan.mapping.defaults.region ?? "US",
                                      dateOrder: options.dateOrder ?? plan.mapping.defaults.dateOrder,
                                      defaultState: plan.mapping.defaults.state, style: plan.mapping.defaults.addressStyle ?? .usps)
                leadsQueue.put(.file(file, plan))
            case .rows(let given, let plan):
                guard let builder else { continue }
                if let enrichment {
                    var rows = given
                    guard failure.error == nil else { continue }
                    // The rules come first: a row they reject, or one on a do-not-contact list,
                    // is not sent to the model (it ends as it would without the enrichment).
                    // (A field the model fills is not yet missing.)
                    var before = plan
                    before.mapping.required.removeAll { field in enrichment.spec.fields.contains { $0.mapsTo == field } }
                    let excluded = ParallelMap.map(rows, eachChunk: yieldToDelivery) { [before] row in
                        let lead = builder.build(row)
                        return Self.rejection(lead, plan: before) != nil || exclusions.contains { $0.excludes(lead) }
                    }
                    let answers: [Enrichment.RowOutcome]
                    do {
                        answers = try enrichment.process(rows, columns: sent[fileIndex], names: ownNames[fileIndex], store: store, skipping: excluded)
                    } catch {
                        failure.record(error)
                        continue
                    }
                    let width = ownNames[fileIndex].count
                    for i in rows.indices { rows[i].cells = fitted(rows[i].cells, width) + enrichment.spec.fields.map { answers[i].values?[$0.name]?.cell ?? "" } }
                    leadsQueue.put(.batch(ParallelMap.map(Array(rows.indices), eachChunk: yieldToDelivery) { [rows] i in
                        var pending = Self.prepare(rows[i], builder: builder, plan: plan, lanes: lanes, exclusions: exclusions)
                        // A row the model could not answer is not sent without its answers.
                        if pending.outcome == nil {
                            switch answers[i] {
                            case .rejected(let why): (pending.outcome, pending.reason, pending.stage) = (.rejected, "enrichment: " + why, .enrich)
                            case .pending(let why): (pending.outcome, pending.reason) = (.pending, "not enriched yet: " + why)
                            case .enriched, .skipped: break
                            }
                        }
                        return pending
                    }, plan))
                    continue
                }
                let rows = given
                guard let passing else {
                    leadsQueue.put(.batch(ParallelMap.map(rows, eachChunk: yieldToDelivery) { Self.prepare($0, builder: builder, plan: plan, lanes: lanes, exclusions: exclusions) }, plan))
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
                } else if !passing.ledgerWasEmpty {
                    known = try store.ledger(destination: passing.ledgerName, rowHashes: hashes)
                }
                leadsQueue.put(.batch(ParallelMap.map(Array(rows.indices), eachChunk: yieldToDelivery) { [known] i in
                    if let (key, remoteID) = known[hashes[i]] {
                        // `key` is the ledger's, as the in-file dedupe compares keys (`Delivery.dedupe`).
                        // Made in its box, and read there: a copy of a lead is a retain and a
                        // release of each of its fields.
                        let box = LeadBox(Lead(source: rows[i].location))
                        return Pending(box: box, cells: rows[i].cells, key: key, encoded: Encoded(hash: ""),
                                       outcome: .unchanged, remoteID: remoteID, passedOver: true, gaps: Gaps.of(box.lead))
                    }
                    var pending = Self.prepare(rows[i], builder: builder, plan: plan, lanes: lanes, exclusions: exclusions)
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
        if let error = failure.error, !(error is Delivery.EveryDestinationStopped) { throw error }
        let withheld = try delivery.close(enrichment: enrichment?.summary)
        if !options.dryRun {
            try store.finishRun(id: runID, counts: delivery.counts, rows: delivery.rows, byDestination: lanes.map { ($0.name, delivery.laneCounts[$0.index]) })
        }
        var summary = RunSummary(runID: runID, rows: delivery.rows, counts: delivery.counts, seconds: Date().timeIntervalSince(started), dryRun: options.dryRun,
                                 destinations: lanes.map { DestinationSummary(name: $0.name, counts: delivery.laneCounts[$0.index], stopped: $0.stopped) },
                                 enrichment: enrichment?.summary)
        summary.heldBack = heldBack.map { ($0.file, KnownSecrets.redact("\($0.error)")) }
        summary.unmappedColumns = zip(files, plans).flatMap { file, plan in plan.unmappedColumns.map { files.count > 1 ? "\(file): \($0)" : $0 } }
        (summary.withoutName, summary.withoutContact) = (delivery.withoutName, delivery.withoutContact)
        summary.mailingAsAddress = mailingAsAddress
        summary.exportWithheld = withheld
        for lane in lanes { if let warning = lane.excludedHeldWarning { emit(.warning(warning)) } }
        emit(.runFinished(summary))
        return summary
    }

    /// Gives each destination the place the run files its records under (`--campaign`, or the
    /// mapping's default) and whose they are (`--user`): each settles what that means for it
    /// (`Destination.enter`). In a dry run nothing is made.
    private func enterScope(reference: String?, target: String?) throws {
        let scope = RunScope(reference: reference, owner: options.user, create: !options.dryRun, target: target)
        for lane in lanes { try lane.enter(scope) }
    }

    /// Entries of a destination the ledger is read whole for, at most (some 200 bytes each).
    static let ledgerPreloadLimit = 1_000_000

    /// Entries the ledger is read whole for, for an input of `inputBytes`: at most four for each
    /// row the input could hold (one per 32 bytes). Reading an entry costs about a quarter of
    /// looking one up (0.1 s for 100k entries, 0.4 s for 100k look-ups), so past that the
    /// look-ups batch by batch are cheaper. A nightly `sync` of 10,000 changed rows (1.1 MB)
    /// against a ledger of a million had read all of it, some 1 s of processor and 300 MB.
    static func ledgerPreloadLimit(inputBytes: Int) -> Int {
        min(ledgerPreloadLimit, max(0, inputBytes) / 8)
    }

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
