import Foundation
import GRDB
import LeadCore
@testable import LeadStore
import Testing

/// `leadport undo` finds the records a run created from where its records begin in the ledger
/// (`ledger_floor`), with no index on `created_run`; a file written before is given its runs'
/// floors as it is opened.
@Suite struct RunFloorTests {
    let dir: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-floor-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()
    let source = SourceLocation(file: "a.csv", row: 2)

    func created(_ key: String, by run: String) -> LedgerRecord {
        LedgerRecord(destination: "sqlite", key: key, remoteID: "id-" + key, hash: "h", run: run, source: source, remoteVersion: "v-" + key, created: true)
    }

    @Test func aRunsCreatedRecordsAreFoundAfterItsFloor() throws {
        let store = try LeadStore(path: dir.appendingPathComponent("l.db").path)
        defer { try? store.close(); try? FileManager.default.removeItem(at: dir) }
        // Records of no run the log knows, before the runs.
        try store.transaction { tx in try tx.record([created("k0", by: "r0")]) }
        try store.startRun(id: "r1", inputs: ["a.csv"])
        try store.transaction { tx in try tx.record([created("k1", by: "r1"), created("k2", by: "r1")]) }
        try store.transaction { tx in try tx.record([created("k3", by: "r1")]) }
        try store.startRun(id: "r2", inputs: ["b.csv"])
        try store.transaction { tx in
            try tx.record([created("k4", by: "r2")])
            // r2 updates one of r1's records: still r1's creation, last written by r2.
            try tx.record([LedgerRecord(destination: "sqlite", key: "k1", remoteID: "id-k1", hash: "h2", run: "r2", source: source)], replacing: true)
        }
        try store.startRun(id: "r3", inputs: ["c.csv"])
        try store.transaction { tx in
            try tx.record([LedgerRecord(destination: "sqlite", key: "k2", remoteID: "id-k2", hash: "h3", run: "r3", source: source)], replacing: true)
        }

        let r1 = try #require(try store.changes(run: "r1")["sqlite"])
        #expect(r1.created.map(\.key).sorted() == ["k1", "k2", "k3"])
        #expect(r1.created.first { $0.key == "k1" }?.lastRun == "r2" && r1.created.first { $0.key == "k3" }?.version == "v-k3")
        #expect(try store.changes(run: "r2")["sqlite"]?.created.map(\.key) == ["k4"])
        // A run that created nothing has no floor and no created records.
        #expect(try store.changes(run: "r3")["sqlite"] == nil)
        // A run the log does not know is looked for through the whole ledger.
        #expect(try store.changes(run: "r0")["sqlite"]?.created.map(\.key) == ["k0"])
        let floors = try store.db.read { db in try Row.fetchAll(db, sql: "SELECT id, ledger_floor FROM leadport_runs ORDER BY id").map { [$0["id"] as String, ($0["ledger_floor"] as Int64?).map { String($0) }] } }
        #expect(floors == [["r1", "1"], ["r2", "4"], ["r3", nil]])
        let indexes = try store.db.read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('leadport_ledger')") }
        #expect(!indexes.contains("idx_ledger_created_run"))
    }

    @Test func aFileWrittenBeforeGetsItsRunsFloorsFromTheIndexItDrops() throws {
        let path = dir.appendingPathComponent("old.db").path
        defer { try? FileManager.default.removeItem(at: dir) }
        // The file as the migration before this one left it: the index, no floors.
        do {
            let queue = try DatabaseQueue(path: path)
            try LeadStore.migrator.migrate(queue, upTo: "run-destination-counts")
            try queue.write { db in
                for run in ["r1", "r2", "r3"] {
                    try db.execute(sql: "INSERT INTO leadport_runs (id, started_at, inputs) VALUES (?, '2026-11-20T00:00:00.000Z', 'a.csv')", arguments: [run])
                }
                for (key, run) in [("k1", "r1"), ("k2", "r2"), ("k3", "r1"), ("k4", "r2")] {
                    try db.execute(sql: """
                        INSERT INTO leadport_ledger (destination, dedupe_key, remote_id, content_hash, run_id, created_run)
                        VALUES ('sqlite', ?, ?, 'h', ?, ?)
                        """, arguments: [key, "id-" + key, run, run])
                }
                #expect(try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('leadport_ledger')").contains("idx_ledger_created_run"))
            }
        }
        let store = try LeadStore(path: path)
        defer { try? store.close() }
        // r1's records are interleaved with r2's: its floor is before its first.
        #expect(try store.changes(run: "r1")["sqlite"]?.created.map(\.key).sorted() == ["k1", "k3"])
        #expect(try store.changes(run: "r2")["sqlite"]?.created.map(\.key).sorted() == ["k2", "k4"])
        #expect(try store.changes(run: "r3")["sqlite"] == nil)
        let floors = try store.db.read { db in try Row.fetchAll(db, sql: "SELECT id, ledger_floor FROM leadport_runs ORDER BY id").map { [$0["id"] as String, ($0["ledger_floor"] as Int64?).map { String($0) }] } }
        #expect(floors == [["r1", "0"], ["r2", "1"], ["r3", nil]])
        #expect(try !store.db.read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('leadport_ledger')") }.contains("idx_ledger_created_run"))
    }
}
