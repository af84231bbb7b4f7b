import Foundation
import LeadEngine
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

    func run(_ file: String, to destination: MemoryDestination) throws -> (RunSummary, [Int: RowResult]) {
        var options = ImportOptions(files: [file])
        options.remote = destination
        options.databasePath = dir.appendingPathComponent("ledger.db").path
        let rows = Rows()
        let summary = try ImportRun(options: options) { event in
            if case .row(let row) = event { rows.add(row) }
        }.run()
        return (summary, rows.byRow)
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
        #expect(throws: DestinationError.self) { try run(file, to: memory) }
        let confirmed = memory.count
        #expect(confirmed == 30, "three batches of ten were confirmed before the loss")
        let ledger = try LeadStore(path: dir.appendingPathComponent("ledger.db").path)
        #expect(try ledger.count("leadport_ledger") == confirmed, "what the destination confirmed is in the ledger")
        try ledger.close()
        memory.failAfterBatches = nil
        let (rerun, _) = try run(file, to: memory)
        #expect(rerun.counts[.unchanged] == confirmed && rerun.counts[.created] == 3_000 - confirmed, "\(rerun.counts), \(confirmed) confirmed")
        #expect(memory.count == 3_000)
    }
}

/// Row events, collected from the delivery threads.
final class Rows: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [Int: RowResult] = [:]
    func add(_ row: RowResult) { lock.withLock { rows[row.location.row] = row } }
    var byRow: [Int: RowResult] { lock.withLock { rows } }
    var count: Int { byRow.count }
}
