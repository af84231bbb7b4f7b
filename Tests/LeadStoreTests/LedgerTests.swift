import Foundation
import GRDB
import LeadCore
import LeadStore
import LeadTesting
import Testing

/// Every ledger answers alike: the SQLite file's and the in-memory twin; the SQLite file's
/// migrations end at the columns `LedgerSchema` lists (which PostgreSQL's table is made from).
@Suite struct LedgerTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-ledger-\(UUID().uuidString).db").path

    let rows = [
        LedgerRow(destination: "hubspot", dedupeKey: "email:ann@example.com", remoteID: "101", contentHash: "h1", runID: "r1", sourceFile: "a.csv",
                  sourceRow: 2, updatedAt: "2026-11-27T02:00:00.000Z", rowHash: "ff01", createdRun: "r1"),
        LedgerRow(destination: "hubspot", dedupeKey: "email:bo@example.com", remoteID: "102", contentHash: "h2", runID: "r1", sourceFile: "a.xlsx",
                  sourceSheet: "Leads", sourceRow: 3, updatedAt: "2026-11-27T02:00:00.000Z", remoteVersion: "etag-2"),
        LedgerRow(destination: "webhook", dedupeKey: "email:ann@example.com", remoteID: "w1", contentHash: "h3", runID: "r2"),
    ]

    @Test func theSQLiteLedgerAndTheInMemoryOneAnswerAlike() throws {
        let store = try LeadStore(path: path)
        defer { try? store.close() }
        let memory = InMemoryLedger()
        for ledger in [store, memory] as [any Ledger] {
            try ledger.loadLedger(rows)
            // A second load of a key replaces it.
            try ledger.loadLedger([LedgerRow(destination: "webhook", dedupeKey: "email:ann@example.com", remoteID: "w1", contentHash: "h4", runID: "r3")])
        }
        for destination in ["hubspot", "webhook", "google"] {
            #expect(try store.ledgerRows(destination: destination).sorted { $0.dedupeKey < $1.dedupeKey } == memory.ledgerRows(destination: destination))
            let keys = ["email:ann@example.com", "email:bo@example.com", "email:nobody@example.com"]
            #expect(try store.ledger(destination: destination, keys: keys) == memory.ledger(destination: destination, keys: keys))
        }
        #expect(try memory.ledger(destination: "webhook", keys: ["email:ann@example.com"])["email:ann@example.com"]?.contentHash == "h4")
    }

    @Test func theMigrationsEndAtTheSchemasColumns() throws {
        let store = try LeadStore(path: path)
        try store.close()
        let columns = try DatabaseQueue(path: path).read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(leadport_ledger)") }
        #expect(columns.map { $0["name"] as String } == LedgerSchema.names)
        #expect(columns.filter { ($0["notnull"] as Int) == 1 }.map { $0["name"] as String } == LedgerSchema.columns.filter(\.isRequired).map(\.name))
        #expect(LedgerSchema.postgresTable.contains("source_row integer, updated_at text"))
    }

    @Test func aRowsTextIsItsColumnsInOrder() {
        for row in rows { #expect(LedgerRow(texts: row.texts) == row) }
        #expect(LedgerRow(texts: Array(repeating: nil, count: LedgerSchema.names.count)) == nil)
    }
}
