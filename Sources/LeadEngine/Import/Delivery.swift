import Foundation
import HTTPKit
import LeadConnectors
import LeadCore
import LeadNormalize
import LeadStore
import LeadWriters

extension ImportRun {
    /// A row whose outcome is settled and whose write waits for its transaction's commit: what
    /// its row event, report, rejects and processed-sheet rows need, without the rest of its
    /// lead, which is let go as soon as it is written. (Some 130 bytes: a `Lead` is ten times
    /// that, so the rare rows that keep theirs keep it out of line.)
    struct Settled: Sendable {
        var source: SourceLocation
        var outcome: Outcome
        var remoteID: String?
        var reason: String?
        var stage: RejectStage?
        /// For a rejects file (rejected rows) or a processed sheet (every row).
        var kept: Kept?
    }

    /// A row's cells, and for a processed sheet its lead.
    final class Kept: Sendable {
        let cells: [String]
        let lead: Lead?

        init(cells: [String], lead: Lead?) { (self.cells, self.lead) = (cells, lead) }
    }

    /// The second stage: in-file dedupe in row order, delivery, the report, rejects and
    /// processed files, and the row events. Used by one thread at a time.
    ///
    /// The writes of several hand-offs go into one transaction of the store (`LeadStore.write`),
    /// committed every `transactionRows` rows; until then each row is kept only as `Settled`,
    /// and its event and report lines follow the commit, so that nothing is reported that a
    /// failed commit could undo.
    final class Delivery: @unchecked Sendable {
        private let run: ImportRun
        private let store: LeadStore
        private let campaign: String?
        private let target: Mapping.Target
        private let runID: String
        private let report: CSVWriter?
        private let rejects: CSVWriter?
        private let export: TableWriter?
        private let failure: FirstFailure
        private var seenKeys: [String: Int] = [:]
        private(set) var counts: [Outcome: Int] = [:]
        private(set) var rows = 0
        /// Data rows in all the files, once counted (set by the delivery thread before its first batch).
        var total: Int?
        /// The rows settled since the last commit, in row order, and the width of their file.
        private var settled: [Settled] = []
        private var settledWidth = 0
        /// Rows the store wrote since the last commit (for the embedded database's batch event).
        private var written = 0
        /// For a remote destination (not in a dry run), the thread that sends each batch while
        /// the delivery thread dedupes and prepares the next, and the thread that records what
        /// was sent in the ledger and reports its rows while the next batch goes: LeadPort's
        /// work on the batches either side then overlaps the destination's on batch n, which
        /// otherwise waited while its answer was recorded (some 0.2 s of a 4 s import of 100k
        /// rows into PostgreSQL).
        private var sending: (queue: BlockingQueue<Staged?>, thread: WorkerThread, remote: any Destination)?
        private var recording: (queue: BlockingQueue<Sent?>, thread: WorkerThread)?

        init(run: ImportRun, store: LeadStore, campaign: String?, target: Mapping.Target, runID: String, failure: FirstFailure) throws {
            self.run = run
            self.store = store
            self.campaign = campaign
            self.target = target
            self.runID = runID
            self.failure = failure
            report = try run.options.reportPath.map { try CSVWriter(path: $0, protectFormulas: false) }
            rejects = try run.options.rejectsPath.map { try CSVWriter(path: $0) }
            export = try run.options.exportPath.map { try openTableWriter(path: $0) }
            try report?.write(["file", "sheet", "row", "destination", "outcome", "remote_id", "reason"])
            if let remote = run.options.remote, !run.options.dryRun {
                let sent = BlockingQueue<Sent?>(capacity: ImportRun.queuedBatches)
                let recorder = WorkerThread(name: "leadport-record") { [self] in
                    var draining = false
                    while let item = sent.take() {
                        // What was sent before a failure elsewhere is still recorded: the
                        // destination has it. After a failure here, nothing more is.
                        guard !draining else { continue }
                        do {
                            try self.record(item)
                        } catch {
                            failure.record(error)
                            failed(recordingThread: true)
                            draining = true
                        }
                    }
                    settleLast()
                }
                let queue = BlockingQueue<Staged?>(capacity: ImportRun.queuedBatches)
                let thread = WorkerThread(name: "leadport-send") { [self] in
                    while let staged = queue.take() {
                        // After a failure anywhere, what is still queued is dropped unsent.
                        guard failure.error == nil else { continue }
                        do {
                            try self.send(staged, to: sent)
                        } catch {
                            failure.record(error)
                        }
                    }
                    sent.put(nil)
                    recorder.join()
                }
                sending = (queue, thread, remote)
                recording = (sent, recorder)
            }
        }

        private func startFile(_ file: String, plan: ColumnPlan) throws {
            try commitSettled()
            settledWidth = plan.width
            try rejects?.write(plan.columnNames + ["_source_file", "_source_sheet", "_source_row", "_stage", "_reason"])
            try export?.startSheet(run.sheetName(file: file), header: plan.columnNames + ExportColumns.names + ["_status", "_reason", "_source_row"])
        }

        /// Takes the work over, so that its batch has one owner and is changed in place
        /// instead of copied.
        func handle(_ work: consuming Work) throws {
            switch consume work {
            case .file(let file, let plan):
                if let sending { sending.queue.put(.file(file, plan)) } else { try startFile(file, plan: plan) }
            case .batch(var batch, let plan):
                dedupe(&batch)
                if let sending {
                    let outgoing = try run.stage(&batch, for: sending.remote, store: store, campaign: campaign, target: target)
                    sending.queue.put(.batch(batch, plan, outgoing))
                    return
                }
                written += try run.deliver(&batch, store: store, campaign: campaign, target: target, runID: runID)
                try settle(batch)
            }
        }

        /// On the sending thread: a batch that was not sent whole (its connection lost, its
        /// credentials refused) is not handed on; its rows stay pending for the rerun.
        private func send(_ staged: consuming Staged, to sent: BlockingQueue<Sent?>) throws {
            guard let remote = sending?.remote else { return }
            switch consume staged {
            case .file(let file, let plan): sent.put(.file(file, plan))
            case .batch(let batch, _, let outgoing):
                let answers = try outgoing.map { try run.transmit($0, to: remote, campaign: campaign) } ?? []
                sent.put(.batch(batch, outgoing, answers))
            }
        }

        /// On the recording thread.
        private func record(_ item: consuming Sent) throws {
            switch consume item {
            case .file(let file, let plan): try startFile(file, plan: plan)
            case .batch(var batch, let outgoing, let answers):
                if let outgoing { try run.record(outgoing, answers: answers, batch: &batch, store: store, runID: runID) }
                try settle(batch)
            }
        }

        /// After an error in `handle` or `record`: when it undid the store's open transaction,
        /// the rows settled since the last commit are not written, and go unreported. (For a
        /// remote destination the settled rows are the recording thread's: only it calls this.)
        func failed(recordingThread: Bool = false) {
            if recording == nil || recordingThread, !store.isWriting {
                settled.removeAll()
                written = 0
            }
        }

        /// At the end of the rows, on the delivery thread: commits and reports what is left
        /// (for a remote destination, once the sending and recording threads are done with what they were given).
        /// What was written before a failure in another stage is committed, as it would have
        /// been had that stage failed a little later.
        func end() {
            guard let sending else { return settleLast() }
            sending.queue.put(nil)
            sending.thread.join()
        }

        private func settleLast() {
            do { try commitSettled() } catch { failure.record(error) }
        }

        /// Marks each lead whose key an earlier row of the run had as a duplicate of it.
        private func dedupe(_ batch: inout [Pending]) {
            for k in batch.indices where batch[k].outcome == nil || batch[k].passedOver {
                // A lead without a dedupe key is known by its row, which comes twice only when
                // a file is given twice.
                let key = Pending.ledgerKey(batch[k].key, batch[k].lead.source)
                if let first = seenKeys[key] {
                    batch[k].passedOver = false
                    batch[k].outcome = .skipped
                    batch[k].reason = "duplicate of row \(first) (\(DedupeKey.reason(key, lead: batch[k].lead)))"
                    batch[k].stage = .dedupe
                } else {
                    seenKeys[key] = batch[k].lead.source.row
                }
            }
        }

        /// Keeps what the report needs of each row of a delivered batch, lets the batch go, and
        /// commits once enough rows have been written.
        private func settle(_ batch: consuming [Pending]) throws {
            for k in batch.indices {
                let outcome = batch[k].outcome ?? .failed
                let keeps = export != nil || (rejects != nil && outcome == .rejected)
                settled.append(Settled(source: batch[k].lead.source, outcome: outcome, remoteID: batch[k].remoteID, reason: batch[k].reason,
                                       stage: batch[k].stage, kept: keeps ? Kept(cells: batch[k].cells, lead: export != nil ? batch[k].lead : nil) : nil))
            }
            // Freeing a batch (some fifty strings a row) is left to another thread: this one
            // is the pipeline's narrowest.
            DispatchQueue.global().async { [batch] in _ = batch.count }
            if settled.count >= ImportRun.transactionRows(remaining: total.map { $0 - rows - settled.count }) {
                try commitSettled()
            }
        }

        /// Commits the store's open transaction, then counts and reports each row settled
        /// since the last commit.
        private func commitSettled() throws {
            let embedded = run.options.remote == nil
            do {
                try store.commit()
            } catch {
                if embedded { run.emit(.batch(BatchResult(destination: run.destination, size: written, status: "failed", attempt: 1, retryAfter: nil))) }
                store.rollback()
                settled.removeAll()
                written = 0
                throw error
            }
            if embedded && written > 0 {
                run.emit(.batch(BatchResult(destination: run.destination, size: written, status: "ok", attempt: 1, retryAfter: nil)))
            }
            written = 0
            var done: [Settled] = []
            swap(&done, &settled)
            try finish(done)
        }

        /// Counts and reports each row.
        private func finish(_ rows: [Settled]) throws {
            let destination = run.destination
            for row in rows {
                let (source, outcome) = (row.source, row.outcome)
                // A destination's reason may quote what its server said, secrets included.
                let reason = row.reason.map(KnownSecrets.redact)
                counts[outcome, default: 0] += 1
                self.rows += 1
                run.emit(.row(RowResult(location: source, destination: destination, outcome: outcome, remoteID: row.remoteID, reason: reason)))
                try report?.write([source.file, source.sheet ?? "", String(source.row), destination, outcome.rawValue, row.remoteID ?? "", reason ?? ""])
                if outcome == .rejected, let cells = row.kept?.cells {
                    try rejects?.write(run.fitted(cells, settledWidth) + [source.file, source.sheet ?? "", String(source.row),
                                                                         (row.stage ?? .destination).rawValue, reason ?? ""])
                }
                if let export, let cells = row.kept?.cells, let lead = row.kept?.lead {
                    try export.write(run.fitted(cells, settledWidth).map(SheetCell.text) + ExportColumns.values(lead)
                                     + [.text(outcome.rawValue), .text(reason ?? ""), .number(Double(source.row))])
                }
            }
        }

        func close() throws {
            try report?.close()
            try rejects?.close()
            try export?.close()
        }
    }
}
