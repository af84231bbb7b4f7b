import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadNormalize
import LeadPortKit
import LeadStore
import LeadWriters

extension ImportRun {
    /// A row whose outcomes are settled and whose writes wait for their transaction's commit:
    /// what its row events, report, rejects and processed-sheet rows need, without the rest of
    /// its lead, which is let go as soon as it is written. (Some 130 bytes: a `Lead` is ten
    /// times that, so the rare rows that keep theirs keep it out of line.)
    struct Settled: Sendable {
        var source: SourceLocation
        /// The first destination's outcome (nil: the row is pending there), then the others'
        /// (none when there is one destination, which so costs no array).
        var first: Result?
        var others: [Result?]
        /// For a rejects file (rejected rows) or a processed sheet (every row).
        var kept: Kept?
        /// What cleaning decided (values repaired, dropped, suggested, refused), for the row's
        /// events: empty, and so no allocation, for most rows.
        var issues: [LeadIssue] = []
        /// `Gaps` of the lead, for the summary.
        var gaps: UInt8 = 0

        struct Result: Sendable {
            var outcome: Outcome
            var remoteID: String?
            var reason: String?
            var stage: RejectStage?
            var planned: PlannedRow?
        }

        subscript(lane lane: Int) -> Result? {
            get { lane == 0 ? first : others[lane - 1] }
            set { if lane == 0 { first = newValue } else { others[lane - 1] = newValue } }
        }
    }

    /// What a lead lacks that a person would want: a name to address it by, a way to reach it.
    enum Gaps {
        static let noName: UInt8 = 1
        static let noContact: UInt8 = 2

        static func of(_ lead: Lead) -> UInt8 {
            var gaps: UInt8 = 0
            if !lead.hasFullName && lead.organization == nil && lead.company == nil { gaps |= noName }
            if lead.email == nil && lead.phone == nil && lead.mobile == nil && !lead.address.hasDeliveryLine
                && lead.mailingAddress?.hasDeliveryLine != true { gaps |= noContact }
            return gaps
        }
    }

    /// A row's cells, and for a processed sheet its lead.
    final class Kept: Sendable {
        let cells: [String]
        let numericCells: [Int]
        let lead: Lead?

        init(cells: [String], numericCells: [Int] = [], lead: Lead?) { (self.cells, self.numericCells, self.lead) = (cells, numericCells, lead) }
    }

    /// The second stage: in-file dedupe in row order, delivery to every destination, the
    /// report, rejects and processed files, and the row events.
    ///
    /// Three kinds of thread share the work. The delivery thread (`handle`) dedupes each batch
    /// once and stages it for every destination: ledger look-ups, and each remote destination's
    /// own `prepare`. Each remote destination has a sending thread, which sends its batches while
    /// the delivery thread stages the next. The recording thread takes the batches in order,
    /// waits for each destination's answers, records them in the ledger, writes the embedded
    /// database's rows, and reports every row once per destination: it alone writes the store.
    /// A slow destination so holds the others back by no more than the queues between them
    /// (`ImportRun.queuedBatches`), and a destination that stops leaves the others going.
    ///
    /// The writes of several hand-offs go into one transaction of the store (`LeadStore.write`),
    /// committed every `transactionRows` rows; until then each row is kept only as `Settled`,
    /// and its event and report lines follow the commit, so that nothing is reported that a
    /// failed commit could undo.
    final class Delivery: @unchecked Sendable {
        private let run: ImportRun
        private let store: LeadStore
        private let runID: String
        private let report: CSVWriter?
        private let rejects: CSVWriter?
        private let export: TableWriter?
        /// Where `export` is written until the run keeps it.
        private var staged: StagedFile?
        /// Whether the source's numbers (`RawRow.numericCells`: a workbook's) go into the
        /// processed sheet as numbers: into a workbook, not a CSV file.
        private var exportsNumbers = false
        /// The source columns of a CSV output (`--rejects`, a CSV `--export`) over several
        /// inputs whose columns differ: one header, the union of theirs (`SourceColumns`), and
        /// for each input where its columns go. Nil when every input has the same columns.
        private let csvColumns: SourceColumns?
        /// Where the current input's columns go in `csvColumns`.
        private var csvPlaces: [Int]?
        private var files = 0
        private let failure: FirstFailure
        /// The first row of each dedupe key in the run, by the key's bytes (`ByteKey`). (Keyed by
        /// a 64-bit hash of ASCII keys instead, the dedupe took 9% of a rerun's processor
        /// instead of 11%, but the table 2–3 MB more of the import's peak: not worth it.)
        private var seenKeys: [ByteKey: Int] = [:]
        /// The rows of each outcome, counted by the outcome's place in `Outcome.allCases`: an
        /// `[Outcome: Int]` hashed each outcome's raw string, twice a row.
        private var tally = OutcomeTally()
        /// Each destination's, by `Lane.index`.
        private var laneTally: [OutcomeTally]
        var counts: [Outcome: Int] { tally.counts }
        var laneCounts: [[Outcome: Int]] { laneTally.map(\.counts) }
        /// Input rows that have an outcome at one destination at least.
        private(set) var rows = 0
        private(set) var withoutName = RunSummary.RowTally()
        private(set) var withoutContact = RunSummary.RowTally()
        /// Data rows in all the files, once counted (set by the delivery thread before its first batch).
        var total: Int?
        /// The rows settled since the last commit, in order, and the width of their file.
        private var settled: [Settled] = []
        private var settledWidth = 0
        /// Rows the embedded database wrote since the last commit (for its batch event).
        private var written = 0
        /// The batches on their way to the recording thread.
        private let tickets = BlockingQueue<Ticket?>(capacity: ImportRun.queuedBatches)
        private var recorder: WorkerThread?
        /// One destination that needs no waiting on (the embedded database, or any destination
        /// in a dry run): delivered on the delivery thread, without the recording thread.
        private let direct: Bool
        private let senders: [Sender]

        /// A batch on its way to the recording thread, with each destination's part of it.
        enum Ticket: Sendable {
            case file(String, ColumnPlan)
            case batch(rows: Int, [Part])
        }

        /// One destination's copy of a batch. Its rows without an outcome are the ones to deliver.
        enum Part: Sendable {
            /// Every row's outcome is settled (a dry run, or nothing to send).
            case done([Pending])
            /// For a destination written in the ledger's transaction (the embedded database):
            /// sent by the recording thread, then recorded (nil: nothing to send).
            case write([Pending], Outgoing?)
            /// Being sent by the destination's sending thread; its answer comes through `answer`.
            case sending([Pending], Outgoing, Answer)
        }

        /// A sending thread's answer for one batch, waited for by the recording thread.
        final class Answer: @unchecked Sendable {
            private let ready = DispatchSemaphore(value: 0)
            private var value: Transmitted?
            func fulfil(_ transmitted: Transmitted) {
                value = transmitted
                ready.signal()
            }
            func wait() -> Transmitted {
                ready.wait()
                return value!
            }
        }

        /// A remote destination's sending thread and its queue.
        struct Sender {
            let lane: Lane
            let queue: BlockingQueue<(Outgoing, Answer)?>
            let thread: WorkerThread
        }

        /// Every destination stopped: the rows need not be read any further. Not an error of
        /// the run: each destination's own is in the summary.
        struct EveryDestinationStopped: Error {}

        /// `columns`: each input's column names, in the order of the files.
        init(run: ImportRun, store: LeadStore, runID: String, failure: FirstFailure, columns: [[String]]) throws {
            self.run = run
            csvColumns = Set(columns).count > 1 ? SourceColumns(columns) : nil
            self.store = store
            self.runID = runID
            self.failure = failure
            laneTally = Array(repeating: OutcomeTally(), count: run.lanes.count)
            report = try run.options.reportPath.map { try CSVWriter(path: $0, protectFormulas: false) }
            rejects = try run.options.rejectsPath.map { try CSVWriter(path: $0) }
            staged = run.options.exportPath.map(StagedFile.init)
            export = try staged.map { try openTableWriter(path: $0.staging, shownAs: $0.path) }
            try report?.write(["file", "sheet", "row", "destination", "outcome", "remote_id", "reason"])
            // One header for every input: a CSV file has one.
            try rejects?.write((csvColumns?.names ?? columns.first ?? []) + ["_source_file", "_source_sheet", "_source_row", "_stage", "_reason"])
            var senders: [Sender] = []
            for lane in run.lanes where !lane.writesWithLedger && !run.options.dryRun {
                let queue = BlockingQueue<(Outgoing, Answer)?>(capacity: ImportRun.queuedBatches)
                let thread = WorkerThread(name: "leadport-send") { [run, failure] in
                    while let (outgoing, answer) = queue.take() {
                        // After the destination stopped, or a failure of the run, what is still
                        // queued stays unsent.
                        guard lane.stopped == nil, failure.error == nil else {
                            answer.fulfil(.notSent(outgoing.leads.count))
                            continue
                        }
                        let transmitted = run.transmit(outgoing, to: lane)
                        if let stopped = transmitted.stopped { Self.stop(lane, stopped, run: run, failure: failure) }
                        answer.fulfil(transmitted)
                    }
                }
                senders.append(Sender(lane: lane, queue: queue, thread: thread))
            }
            self.senders = senders
            direct = senders.isEmpty && run.lanes.count == 1
            // Into the embedded database alone, the delivery thread writes and reports each
            // batch itself: handed on to a recording thread instead, the batches queued between
            // the two took the 100k-row import's peak from 84 to 99.6 MiB, for nothing to wait on.
            guard !direct else { return }
            recorder = WorkerThread(name: "leadport-record") { [self, tickets] in
                var draining = false
                while let ticket = tickets.take() {
                    // What was sent before a failure elsewhere is still recorded: the
                    // destination has it. After a failure here, nothing more is.
                    guard !draining else {
                        if case .batch(_, let parts) = ticket { for case .sending(_, _, let answer) in parts { _ = answer.wait() } }
                        continue
                    }
                    do {
                        try self.record(ticket)
                    } catch {
                        failure.record(error)
                        failed()
                        draining = true
                    }
                }
                settleLast()
            }
        }

        /// The batch's rows without an outcome, pending at `lane`, which stopped for `error`.
        static func pending(_ batch: consuming [Pending], lane: Lane, _ error: any Error) -> [Pending] {
            var batch = batch
            let reason = notSent(lane, error)
            for k in batch.indices where batch[k].outcome == nil { (batch[k].outcome, batch[k].reason) = (.pending, reason) }
            return batch
        }

        /// Short: the stop's own message is printed once, and in `run_finished`.
        static func notSent(_ lane: Lane, _ error: any Error) -> String {
            "not sent: \(lane.name) stopped before this row (see the run's error); the next run sends it"
        }

        /// Stops `lane` (its unsent rows stay pending for the next run); when no destination is
        /// left, the reading stops too.
        static func stop(_ lane: Lane, _ error: any Error, run: ImportRun, failure: FirstFailure) {
            lane.stop(error)
            if run.lanes.allSatisfy({ $0.stopped != nil }) { failure.record(EveryDestinationStopped()) }
        }

        private func startFile(_ file: String, plan: ColumnPlan) throws {
            try commitSettled()
            settledWidth = plan.width
            exportsNumbers = export is XLSXWriter
            csvPlaces = csvColumns?.places[files]
            files += 1
            // A workbook has a sheet, with its header, per input; a CSV file one header, the union's.
            let names = exportsNumbers ? plan.columnNames : csvColumns?.names ?? plan.columnNames
            try export?.startSheet(run.sheetName(file: file), header: ExportColumns.header(after: names, trailing: ["_status", "_reason", "_source_row"]))
        }

        /// A row's source cells as a CSV output has them: fitted to its input's width, and put
        /// in the union's columns when the inputs' columns differ.
        private func csvCells(_ cells: [String]) -> [String] {
            let fitted = run.fitted(cells, settledWidth)
            guard let csvColumns, let csvPlaces else { return fitted }
            var spread = Array(repeating: "", count: csvColumns.names.count)
            for (k, place) in csvPlaces.enumerated() where k < fitted.count { spread[place] = fitted[k] }
            return spread
        }

        /// On the delivery thread: dedupes the batch, then stages each destination's copy of it
        /// and hands it on. Takes the work over, so that its batch has one owner and is changed
        /// in place instead of copied (the last destination's copy is the batch itself).
        func handle(_ work: consuming Work) throws {
            switch consume work {
            case .file(let file, let plan):
                if direct { try startFile(file, plan: plan) } else { tickets.put(.file(file, plan)) }
            case .batch(var batch, _):
                for k in batch.indices { batch[k].position = k }
                dedupe(&batch)
                if direct {
                    let rows = batch.count
                    try record(.batch(rows: rows, [try stage(consume batch, for: run.lanes[0])]))
                    return
                }
                let rows = batch.count
                var parts: [Part] = []
                for lane in run.lanes.dropLast() { parts.append(try stage(batch, for: lane)) }
                parts.append(try stage(consume batch, for: run.lanes[run.lanes.count - 1]))
                tickets.put(.batch(rows: rows, parts))
            }
        }

        /// One destination's part of a batch.
        private func stage(_ batch: consuming [Pending], for lane: Lane) throws -> Part {
            var batch = consume batch
            // Each destination encodes what it is sent: the first's is the batch's own.
            if lane.index > 0 {
                for k in batch.indices where batch[k].otherEncoded.count >= lane.index { batch[k].encoded = batch[k].otherEncoded[lane.index - 1] }
            }
            // A destination that stopped gets nothing more: its rows to send stay pending.
            if let stopped = lane.stopped { return .done(Self.pending(batch, lane: lane, stopped)) }
            let outgoing: Outgoing?
            do {
                outgoing = try run.stage(&batch, for: lane, store: store)
            } catch let stopped as DestinationStopped {
                // The embedded database failing is the run failing: it holds the ledger.
                if lane.writesWithLedger { throw stopped.error }
                Self.stop(lane, stopped.error, run: run, failure: failure)
                return .done(Self.pending(batch, lane: lane, lane.stopped ?? stopped.error))
            }
            if lane.writesWithLedger { return .write(batch, outgoing) }
            guard let outgoing, let sender = senders.first(where: { $0.lane === lane }) else { return .done(batch) }
            let answer = Answer()
            sender.queue.put((outgoing, answer))
            return .sending(batch, outgoing, answer)
        }

        /// On the recording thread: each destination's answers recorded (and the embedded
        /// database's rows written), then every row settled once per destination.
        private func record(_ ticket: consuming Ticket) throws {
            switch consume ticket {
            case .file(let file, let plan): try startFile(file, plan: plan)
            case .batch(let rows, var parts):
                // With several destinations a row's outcomes are gathered from each part; with
                // one, each row is settled as it comes (one copy of it fewer).
                let single = run.lanes.count == 1
                var settling = [Settled?](repeating: nil, count: single ? 0 : rows)
                for (n, lane) in run.lanes.enumerated() {
                    // Each part is taken out of the ticket, so that its batch has one owner and
                    // is changed in place: bound from a part still in `parts`, the first change
                    // copied the whole batch (a thousand leads), which cost the 100k-row import
                    // some 10 MB more at its peak and its time.
                    var part = Part.done([])
                    swap(&part, &parts[n])
                    var batch: [Pending]
                    switch consume part {
                    case .done(let b): batch = b
                    case .write(var b, let outgoing):
                        if let outgoing {
                            let transmitted = try run.writeWithLedger(outgoing, to: lane)
                            try run.record(outgoing, transmitted, batch: &b, lane: lane, store: store, runID: runID)
                            written += transmitted.answers.count { $0 != nil }
                        }
                        batch = b
                    case .sending(var b, let outgoing, let answer):
                        let transmitted = answer.wait()
                        try run.record(outgoing, transmitted, batch: &b, lane: lane, store: store, runID: runID)
                        // The rows the destination never got stay pending, for the next run.
                        if !transmitted.unsent.isEmpty, let stopped = lane.stopped ?? transmitted.stopped {
                            for n in transmitted.unsent { (b[outgoing.rows[n]].outcome, b[outgoing.rows[n]].reason) = (.pending, Self.notSent(lane, stopped)) }
                        }
                        batch = b
                    }
                    if single { settleAlone(batch) } else { settle(batch, lane: lane, into: &settling) }
                }
                for row in settling {
                    // Kept only for a processed sheet, or a rejected row's rejects line.
                    if var row {
                        if export == nil, row.kept != nil, !(0..<run.lanes.count).contains(where: { row[lane: $0]?.outcome == .rejected }) { row.kept = nil }
                        settled.append(row)
                    }
                }
                // With an enrichment, rows come at the model's pace: each hand-off is committed
                // (and shown) as it comes.
                // A worker (`afterCommit`) shares its ledger after each commit: the fewer rows a
                // commit waits for, the fewer a worker that dies leaves sent but unshared.
                if run.options.enrichment != nil || run.options.afterCommit != nil
                    || settled.count >= ImportRun.transactionRows(remaining: total.map { $0 - self.rows - settled.count }) {
                    try commitSettled()
                }
            }
        }

        /// After an error in `handle` (when it delivers directly) or on the recording thread:
        /// when it undid the store's open transaction, the rows settled since the last commit
        /// are not written, and go unreported.
        func failed(onDeliveryThread: Bool = false) {
            // The recording thread's rows are its own to drop.
            if onDeliveryThread && !direct { return }
            if !store.isWriting {
                settled.removeAll()
                written = 0
            }
        }

        /// At the end of the rows, on the delivery thread: waits for the sending and recording
        /// threads to be done with what they were given; the recording thread then commits and
        /// reports what is left. What was written before a failure in another stage is
        /// committed, as it would have been had that stage failed a little later.
        func end() {
            guard !direct else { return settleLast() }
            for sender in senders { sender.queue.put(nil) }
            tickets.put(nil)
            recorder?.join()
            for sender in senders { sender.thread.join() }
        }

        private func settleLast() {
            do { try commitSettled() } catch { failure.record(error) }
        }

        /// Marks each lead whose key an earlier row of the run had as a duplicate of it.
        private func dedupe(_ batch: inout [Pending]) {
            for k in batch.indices where batch[k].outcome == nil || batch[k].passedOver {
                // A lead without a dedupe key is known by its row, which comes twice only when
                // a file is given twice. Compared as the first destination's ledger knows it (its
                // campaign's, for a FLYR destination): a row a rerun passed over carries that key.
                let key = batch[k].passedOver ? Pending.ledgerKey(batch[k].key, batch[k].lead.source) : run.lanes[0].ledgerKey(batch[k].key, batch[k].lead.source)
                // One look-up for the usual new key (its hash is the dedupe's cost); a duplicate
                // puts back the first row it displaced.
                let seen = ByteKey(key)
                if let first = seenKeys.updateValue(batch[k].lead.source.row, forKey: seen) {
                    seenKeys[seen] = first
                    batch[k].passedOver = false
                    batch[k].outcome = .skipped
                    batch[k].reason = "duplicate of row \(first) (\(DedupeKey.reason(key, lead: batch[k].lead)))"
                    batch[k].stage = .dedupe
                }
            }
        }

        /// `settle` for the one destination of a run.
        private func settleAlone(_ batch: consuming [Pending]) {
            for k in batch.indices {
                let outcome = batch[k].outcome ?? .failed
                let keeps = export != nil || (rejects != nil && outcome == .rejected)
                settled.append(Settled(source: batch[k].lead.source,
                                       first: Settled.Result(outcome: outcome, remoteID: batch[k].remoteID, reason: batch[k].reason, stage: batch[k].stage,
                                                             planned: batch[k].planned),
                                       others: [], kept: keeps ? Kept(cells: batch[k].cells, numericCells: batch[k].numericCells, lead: export != nil ? batch[k].lead : nil) : nil,
                                       issues: batch[k].lead.issues, gaps: batch[k].gaps))
            }
            DispatchQueue.global().async { [batch] in _ = batch.count }
        }

        /// Keeps what the report needs of each row of one destination's copy of a batch, and
        /// lets the copy go.
        private func settle(_ batch: consuming [Pending], lane: Lane, into rows: inout [Settled?]) {
            let lanes = run.lanes.count
            for k in batch.indices {
                let outcome = batch[k].outcome ?? .failed
                let n = batch[k].position
                if rows[n] == nil {
                    let keeps = export != nil || rejects != nil
                    rows[n] = Settled(source: batch[k].lead.source, first: nil, others: lanes == 1 ? [] : Array(repeating: nil, count: lanes - 1),
                                      kept: keeps ? Kept(cells: batch[k].cells, numericCells: batch[k].numericCells, lead: export != nil ? batch[k].lead : nil) : nil,
                                      issues: batch[k].lead.issues, gaps: batch[k].gaps)
                }
                rows[n]![lane: lane.index] = Settled.Result(outcome: outcome, remoteID: batch[k].remoteID, reason: batch[k].reason, stage: batch[k].stage,
                                                             planned: batch[k].planned)
            }
            // Freeing a batch (some fifty strings a row) is left to another thread: this one
            // is the pipeline's narrowest.
            DispatchQueue.global().async { [batch] in _ = batch.count }
        }

        /// Commits the store's open transaction, then counts and reports each row settled
        /// since the last commit.
        private func commitSettled() throws {
            let embedded = run.lanes.first { $0.writesWithLedger }
            do {
                try store.commit()
            } catch {
                if let embedded { run.emit(.batch(BatchResult(destination: embedded.name, size: written, status: "failed", attempt: 1, retryAfter: nil))) }
                store.rollback()
                settled.removeAll()
                written = 0
                throw error
            }
            if let embedded, written > 0 {
                run.emit(.batch(BatchResult(destination: embedded.name, size: written, status: "ok", attempt: 1, retryAfter: nil)))
            }
            // What was committed goes where it is shared (`sync --worker`) before the rows are reported.
            try run.options.afterCommit?()
            written = 0
            var done: [Settled] = []
            swap(&done, &settled)
            try finish(done)
        }

        /// Counts and reports each row, once for each destination where it has an outcome.
        /// Its rejects line and processed-sheet row are written once: with several
        /// destinations, the outcomes and reasons there are each destination's, named.
        private func finish(_ settledRows: [Settled]) throws {
            let names = run.lanes.map(\.name)
            for row in settledRows {
                let source = row.source
                rows += 1
                var results: [(lane: Int, Settled.Result)] = []
                for lane in names.indices {
                    guard var result = row[lane: lane] else { continue }
                    // A destination's reason may quote what its server said, secrets included.
                    result.reason = result.reason.map(KnownSecrets.redact)
                    tally.add(result.outcome)
                    laneTally[lane].add(result.outcome)
                    run.emit(.row(RowResult(location: source, destination: names[lane], outcome: result.outcome, remoteID: result.remoteID, reason: result.reason,
                                            planned: result.planned, issues: row.issues)))
                    try report?.write([source.file, source.sheet ?? "", String(source.row), names[lane], result.outcome.rawValue, result.remoteID ?? "", result.reason ?? ""])
                    results.append((lane, result))
                }
                if results.contains(where: { $0.1.outcome == .created || $0.1.outcome == .updated }) {
                    if row.gaps & Gaps.noName != 0 { withoutName.add(source) }
                    if row.gaps & Gaps.noContact != 0 { withoutContact.add(source) }
                }
                guard let cells = row.kept?.cells, !results.isEmpty else { continue }
                let (status, reason) = Self.combined(results, names: names)
                if let rejected = results.first(where: { $0.1.outcome == .rejected }) {
                    let rejections = results.filter { $0.1.outcome == .rejected }
                    try rejects?.write(csvCells(cells) + [source.file, source.sheet ?? "", String(source.row), (rejected.1.stage ?? .destination).rawValue,
                                                                         Self.combined(rejections, names: names).reason])
                }
                if let export, let lead = row.kept?.lead {
                    var sourceCells = (exportsNumbers ? run.fitted(cells, settledWidth) : csvCells(cells)).map(SheetCell.text)
                    if exportsNumbers {
                        for k in row.kept?.numericCells ?? [] where k < sourceCells.count { sourceCells[k] = SheetCell.number(cells[k]) }
                    }
                    try export.write(sourceCells + ExportColumns.values(lead)
                                     + [.text(status), .text(reason), .number(Double(source.row))])
                }
            }
        }

        /// A row's status and reason over its destinations: one destination's as they are; the
        /// same outcome everywhere as that outcome; otherwise each named ("hubspot: created;
        /// sqlite:leadport.db: unchanged"). A reason is named after its destination when there are several.
        static func combined(_ results: [(lane: Int, Settled.Result)], names: [String]) -> (status: String, reason: String) {
            if results.count == 1 || (names.count == 1) { return (results[0].1.outcome.rawValue, results[0].1.reason ?? "") }
            let same = Set(results.map(\.1.outcome)).count == 1
            let status = same ? results[0].1.outcome.rawValue : results.map { "\(names[$0.lane]): \($0.1.outcome.rawValue)" }.joined(separator: "; ")
            let reasons = results.compactMap { r in r.1.reason.map { "\(names[r.lane]): \($0)" } }
            // A reason every destination shares (a rule's, a duplicate's) is given once.
            let distinct = Set(results.compactMap(\.1.reason))
            return (status, distinct.count == 1 && reasons.count == results.count ? results[0].1.reason! : reasons.joined(separator: "; "))
        }

        /// Closes the outputs; the processed sheet is put in its place unless the enrichment's
        /// key was refused (then its path is returned, and the file there is left as it was).
        func close(enrichment: Enrichment.Tally?) throws -> String? {
            try report?.close()
            try rejects?.close()
            try export?.close()
            guard let staged else { return nil }
            self.staged = nil
            if StagedFile.withheld(by: enrichment) {
                staged.discard()
                return staged.path
            }
            try staged.keep()
            return nil
        }

        deinit { staged?.discard() }
    }
}

/// The columns of several inputs as one CSV file's: each name in the order it is first seen (a
/// name an input repeats, as many times as the input that repeats it most), and for each input
/// where each of its columns goes. Nothing is lost: every column of every input has a place.
struct SourceColumns: Equatable {
    var names: [String] = []
    var places: [[Int]] = []

    init(_ inputs: [[String]]) {
        for columns in inputs {
            var seen: [String: Int] = [:]
            places.append(columns.map { name in
                let occurrence = seen[name, default: 0]
                seen[name] = occurrence + 1
                let same = names.indices.filter { names[$0] == name }
                if occurrence < same.count { return same[occurrence] }
                names.append(name)
                return names.count - 1
            })
        }
    }
}

/// Rows counted by outcome, in a slot a case.
struct OutcomeTally {
    private var slots = [Int](repeating: 0, count: Outcome.allCases.count)

    mutating func add(_ outcome: Outcome) { slots[Self.slot(outcome)] += 1 }

    /// The outcomes counted at least once, and how many of each.
    var counts: [Outcome: Int] {
        var counts: [Outcome: Int] = [:]
        for outcome in Outcome.allCases where slots[Self.slot(outcome)] > 0 { counts[outcome] = slots[Self.slot(outcome)] }
        return counts
    }

    private static func slot(_ outcome: Outcome) -> Int {
        switch outcome {
        case .created: 0
        case .updated: 1
        case .unchanged: 2
        case .skipped: 3
        case .rejected: 4
        case .failed: 5
        case .pending: 6
        }
    }
}
