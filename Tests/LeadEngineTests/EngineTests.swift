import Foundation
import LeadConnectors
import LeadEngine
import LeadNormalize
import LeadStore
import Testing

/// The import engine against an in-memory destination: every row ends in exactly one outcome,
/// a rerun sends nothing, a changed field is an update, and a destination lost mid-run leaves
/// what it had confirmed recorded and the rest for the next run.
@Suite struct EngineTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-engine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func list(_ count: Int, edit: (Int, inout [String]) -> Void = { _, _ in }) throws -> String {
        var text = "Name,Email,Phone\n"
        for k in 1...count {
            var cells = ["Person \(k) Lee", "p\(k)@example.com", "617-555-\(String(format: "%04d", k))"]
            edit(k, &cells)
            text += cells.joined(separator: ",") + "\n"
        }
        let path = dir.appendingPathComponent("list-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func run(_ file: String, to destination: MemoryDestination, mapping: Mapping? = nil) throws -> (RunSummary, [Int: RowResult]) {
        let (summary, rows) = try run(file, embedded: false, to: [destination], mapping: mapping)
        return (summary, rows[destination.name] ?? [:])
    }

    /// Several destinations in one run (`--to` repeated): the embedded database first, then the others.
    func run(_ file: String, embedded: Bool, to destinations: [MemoryDestination], mapping: Mapping? = nil) throws -> (RunSummary, [String: [Int: RowResult]]) {
        var options = ImportOptions(files: [file])
        options.mapping = mapping
        options.embedded = embedded
        options.remotes = destinations
        options.databasePath = dir.appendingPathComponent("ledger.db").path
        let rows = Rows()
        let summary = try ImportRun(options: options) { event in
            if case .row(let row) = event { rows.add(row) }
        }.run()
        return (summary, rows.byDestination)
    }

    @Test func everyRowEndsInOneOutcomeAndARerunSendsNothing() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination(largestBatch: 40)
        let file = try list(250) { k, cells in
            if k == 7 { cells = ["", "", ""] }                       // blank: skipped
            if k == 9 { cells[1] = "p8@example.com" }                // duplicate of row 9's neighbour
            if k == 11 { cells = ["", "not-an-email", "call me"] }  // no name and nothing to reach them by
        }
        let (first, rows) = try run(file, to: memory)
        #expect(first.rows == 250 && rows.count == 250, "one outcome for every row")
        #expect(first.counts[.created] == 247 && first.counts[.skipped] == 2 && first.counts[.rejected] == 1, "\(first.counts)")
        #expect(memory.count == 247)
        #expect(memory.batches.allSatisfy { $0 <= 40 })
        let sent = memory.batches.count
        let (second, _) = try run(file, to: memory)
        #expect(second.counts[.unchanged] == 247 && memory.batches.count == sent, "a rerun sends nothing")
    }

    @Test func aChangedFieldTheDestinationSendsIsOneUpdate() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination()
        _ = try run(try list(30), to: memory)
        let (changed, rows) = try run(try list(30) { k, cells in if k == 5 { cells[2] = "617-555-9999" } }, to: memory)
        #expect(changed.counts[.updated] == 1 && changed.counts[.unchanged] == 29, "\(changed.counts)")
        #expect(rows[6]?.outcome == .updated)
        #expect(memory.count == 30)
    }

    /// A short list against a ledger many times its size (a nightly sync's changes against
    /// everything delivered before): the ledger is looked up batch by batch instead of read
    /// whole, and the rows it knows as they are still send nothing.
    @Test func aShortListAgainstALargeLedgerSendsOnlyItsChange() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination()
        _ = try run(try list(3_000), to: memory)
        let sent = memory.batches.count
        let (night, rows) = try run(try list(100) { k, cells in if k == 5 { cells[2] = "617-555-9999" } }, to: memory)
        #expect(night.counts[.updated] == 1 && night.counts[.unchanged] == 99, "\(night.counts)")
        #expect(rows[6]?.outcome == .updated)
        #expect(memory.batches.count == sent + 1 && memory.count == 3_000)
    }

    @Test func aRowTheDestinationRefusesIsRejectedWithItsReasonAndTheRestGo() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination()
        memory.refuse = ["p3@example.com": "email: domain refused by policy"]
        let (summary, rows) = try run(try list(10), to: memory)
        #expect(summary.counts[.created] == 9 && summary.counts[.rejected] == 1)
        #expect(rows[4]?.reason == "email: domain refused by policy")
    }

    @Test func aDestinationLostMidRunKeepsWhatItConfirmedAndTheRerunSendsTheRest() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination(largestBatch: 10)
        memory.failAfterBatches = 3
        let file = try list(3_000)
        let (lost, rows) = try run(file, to: memory)
        #expect(lost.stopped.count == 1 && lost.stopped.first?.error is DestinationError, "\(lost.stopped)")
        let confirmed = memory.count
        #expect(confirmed == 30, "three batches of ten were confirmed before the loss")
        // Those are reported; the rows read but never sent are pending, each with why. (With
        // every destination stopped, the reading stops: the rest of the file is not read.)
        let pending = lost.counts[.pending] ?? 0
        #expect(lost.counts[.created] == confirmed && pending > 0 && rows.count == confirmed + pending && lost.rows == rows.count, "\(lost.counts)")
        #expect(rows.values.filter { $0.outcome == .pending }.allSatisfy { $0.reason?.hasPrefix("not sent: memory stopped") == true }, "\(rows.values.first { $0.outcome == .pending }?.reason ?? "")")
        let ledger = try LeadStore(path: dir.appendingPathComponent("ledger.db").path)
        #expect(try ledger.count("leadport_ledger") == confirmed, "what the destination confirmed is in the ledger")
        try ledger.close()
        memory.failAfterBatches = nil
        let (rerun, _) = try run(file, to: memory)
        #expect(rerun.counts[.unchanged] == confirmed && rerun.counts[.created] == 3_000 - confirmed, "\(rerun.counts), \(confirmed) confirmed")
        #expect(memory.count == 3_000)
    }

    /// Issue 13 item 3: the file is read once; every row gets one outcome at each destination;
    /// one destination stopping leaves the others going, and its rows for the next run.
    @Test func severalDestinationsEachGetEveryRowAndOneStoppingLeavesTheOthersGoing() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let (a, b) = (MemoryDestination(name: "a", largestBatch: 10), MemoryDestination(name: "b", largestBatch: 10))
        b.failAfterBatches = 2
        let file = try list(2_500)
        let (first, rows) = try run(file, embedded: true, to: [a, b])
        #expect(first.destinations.map(\.name).count == 3 && first.destinations.dropFirst().map(\.name) == ["a", "b"])
        #expect(rows.keys.count == 3)
        let embedded = first.destinations[0].name
        #expect(rows[embedded]?.count == 2_500 && rows["a"]?.count == 2_500, "\(rows.mapValues(\.count))")
        #expect(a.count == 2_500 && b.count == 20)
        #expect(rows["b"]?.count == 2_500 && rows["b"]?.values.filter { $0.outcome == .created }.count == 20, "\(rows["b"]?.count ?? 0)")
        #expect(rows["b"]?.values.filter { $0.outcome == .pending }.count == 2_480)
        #expect(first.destinations[2].stopped is DestinationError && first.destinations[0].stopped == nil && first.destinations[1].stopped == nil)
        #expect(first.destinations[1].counts[.created] == 2_500 && first.counts[.created] == 2 * 2_500 + 20)
        #expect(first.rows == 2_500)

        b.failAfterBatches = nil
        let (rerun, again) = try run(file, embedded: true, to: [a, b])
        #expect(rerun.destinations[0].counts[.unchanged] == 2_500 && rerun.destinations[1].counts[.unchanged] == 2_500)
        #expect(rerun.destinations[2].counts[.unchanged] == 20 && rerun.destinations[2].counts[.created] == 2_480, "\(rerun.destinations[2].counts)")
        #expect(again["b"]?.count == 2_500 && b.count == 2_500 && a.batches.count == 250)
    }

    /// Each destination hashes what it is sent: a phone changed is an update where the phone
    /// goes, and nothing where it does not.
    @Test func aChangeIsAnUpdateOnlyWhereTheChangedFieldIsSent() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let (phones, names) = (MemoryDestination(name: "phones"), MemoryDestination(name: "names", sendsPhone: false))
        _ = try run(try list(20), embedded: false, to: [phones, names])
        let (changed, rows) = try run(try list(20) { k, cells in if k == 7 { cells[2] = "617-555-9999" } }, embedded: false, to: [phones, names])
        #expect(changed.destinations.map(\.name) == ["phones", "names"])
        #expect(rows["phones"]?[8]?.outcome == .updated && changed.destinations[0].counts[.updated] == 1)
        #expect(rows["names"]?[8]?.outcome == .unchanged && changed.destinations[1].counts[.unchanged] == 20)
    }
}

/// Row events, collected from the delivery threads.
final class Rows: @unchecked Sendable {
    private let lock = NSLock()
    private var each: [String: [Int: RowResult]] = [:]
    private var repeated = 0
    func add(_ row: RowResult) {
        lock.withLock {
            if each[row.destination, default: [:]].updateValue(row, forKey: row.location.row) != nil { repeated += 1 }
        }
    }
    /// Each destination's rows; a row reported twice to one destination is a failure.
    var byDestination: [String: [Int: RowResult]] {
        lock.withLock {
            precondition(repeated == 0, "\(repeated) rows were reported twice to one destination")
            return each
        }
    }
}
