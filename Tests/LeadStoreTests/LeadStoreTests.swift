import Foundation
import GRDB
import LeadCore
import LeadStore
import Testing

@Suite struct LeadStoreTests {
    func temporaryStore() throws -> (LeadStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (try LeadStore(path: dir.appendingPathComponent("l.db").path), dir)
    }

    let owner = "00000000-0000-0000-0000-000000000000"

    @Test func aCampaignIsFoundByIdOrNameAndCreatedOnlyWhenAsked() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try store.campaign("Spring farm", owner: owner, create: false) == nil)
        let made = try #require(try store.campaign("Spring farm", owner: owner, create: true))
        #expect(made.created)
        let byName = try #require(try store.campaign("Spring farm", owner: owner, create: true))
        #expect(byName.id == made.id && !byName.created)
        let byID = try #require(try store.campaign(made.id, owner: owner, create: false))
        #expect(byID.id == made.id)
        #expect(try store.count("campaigns") == 1)
    }

    @Test func theLedgerRemembersTheLastRemoteIdAndHashPerDestinationAndKey() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = SourceLocation(file: "a.csv", row: 2)
        try store.transaction { tx in
            try tx.record(destination: "sqlite:x", key: "email:a@b.example", remoteID: "c1", hash: "h1", run: "r1", source: source)
            try tx.record(destination: "sqlite:y", key: "email:a@b.example", remoteID: "c9", hash: "h9", run: "r1", source: source)
        }
        try store.transaction { tx in
            try tx.record(destination: "sqlite:x", key: "email:a@b.example", remoteID: "c1", hash: "h2", run: "r2", source: source)
        }
        // More keys than one IN (…) list holds, to cross the 500-key chunks.
        let keys = ["email:a@b.example", "email:none@b.example"] + (0..<1200).map { "k\($0)" }
        let found = try store.ledger(destination: "sqlite:x", keys: keys)
        #expect(found.keys.sorted() == ["email:a@b.example"])
        #expect(found["email:a@b.example"]?.remoteID == "c1" && found["email:a@b.example"]?.contentHash == "h2")
        #expect(try store.ledger(destination: "sqlite:y", keys: keys)["email:a@b.example"]?.remoteID == "c9")
    }

    @Test func rowHashesAreFoundBatchByBatchOrReadWholeUpToALimit() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = SourceLocation(file: "a.csv", row: 2)
        // Row hashes are 64-bit numbers kept as lower-case hexadecimal: some with all 16 digits
        // and the top bit set, some short.
        func hash(_ i: Int) -> UInt64 { i % 2 == 0 ? 0xF000_0000_0000_0000 | UInt64(i) : UInt64(i) }
        // 1,201 entries: the batch look-up crosses two full lists of 500 and pads the third.
        try store.transaction { tx in
            try tx.record((0...1200).map { LedgerRecord(destination: "pg", key: "k\($0)", remoteID: "r\($0)", hash: "h", run: "r", source: source,
                                                        rowHash: String(hash($0), radix: 16)) }
                          + [LedgerRecord(destination: "pg", key: "no-hash", remoteID: "r", hash: "h", run: "r", source: source),
                             LedgerRecord(destination: "pg", key: "not-hex", remoteID: "r", hash: "h", run: "r", source: source, rowHash: "x1"),
                             LedgerRecord(destination: "other", key: "k0", remoteID: "o0", hash: "h", run: "r", source: source, rowHash: String(hash(0), radix: 16))])
        }
        let asked = (0...1200).map(hash) + [0xDEAD_BEEF]
        let byBatch = try store.ledger(destination: "pg", rowHashes: asked)
        #expect(byBatch.count == 1201)
        #expect(byBatch[hash(700)]?.key == "k700" && byBatch[hash(700)]?.remoteID == "r700" && byBatch[hash(1199)]?.remoteID == "r1199")
        let whole = try #require(try store.ledgerByRowHash(destination: "pg", limit: 1203))
        #expect(whole.count == 1201 && whole[hash(0)]?.remoteID == "r0" && whole[hash(1200)]?.key == "k1200" && whole[hash(1)]?.key == "k1")
        #expect(try store.ledgerByRowHash(destination: "other", limit: 10)?[hash(0)]?.remoteID == "o0")
        // Counted with the entries that have no usable row hash: 1,203 entries are over a limit of 1,202.
        #expect(try store.ledgerByRowHash(destination: "pg", limit: 1202) == nil)
    }

    @Test func aFailedTransactionLeavesNeitherRowsNorLedgerEntries() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let campaign = try #require(try store.campaign("C", owner: owner, create: true)).id
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.transaction { tx in
                try tx.insertContact(id: "c1", user: owner, ContactRecord(fullName: "Ann Lee", phone: "+16175550100", email: nil, address: nil, notes: nil),
                                     campaign: campaign, addressID: nil)
                try tx.record(destination: "d", key: "k", remoteID: "c1", hash: "h", run: "r", source: SourceLocation(file: "f", row: 1))
                throw Boom()
            }
        }
        #expect(try store.count("contacts") == 0)
        #expect(try store.count("leadport_ledger") == 0)
    }

    @Test func aNewLedgerEntryForAKnownKeyFailsTheWholeBatchAndAReplacingOneUpdates() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = SourceLocation(file: "a.csv", row: 2)
        func entry(_ key: String, _ hash: String) -> LedgerRecord {
            LedgerRecord(destination: "d", key: key, remoteID: "c-" + key, hash: hash, run: "r", source: source)
        }
        try store.transaction { tx in try tx.record((0..<100).map { entry("k\($0)", "h1") }) }
        // Row 70 of a 100-row batch is already known: nothing of the batch stays, not even the
        // 64 rows of the statement before the one that failed.
        #expect(throws: (any Error).self) {
            try store.transaction { tx in try tx.record((30..<130).map { entry("n\($0)", "h1") } + [entry("k5", "h1")]) }
        }
        #expect(try store.count("leadport_ledger") == 100)
        try store.transaction { tx in try tx.record([entry("k5", "h2")], replacing: true) }
        #expect(try store.ledger(destination: "d", keys: ["k5"])["k5"]?.contentHash == "h2")
        #expect(try store.count("leadport_ledger") == 100)
    }

    @Test func ledgerEntriesRecordedUnderTheFilesOldPathNamesAreMovedToItsOwnName() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = SourceLocation(file: "a.csv", row: 2)
        try store.transaction { tx in
            try tx.record([LedgerRecord(destination: "sqlite:/old/l.db", key: "k1", remoteID: "c1", hash: "h1", run: "r", source: source),
                           LedgerRecord(destination: "sqlite:./l.db", key: "k1", remoteID: "c9", hash: "h9", run: "r", source: source),
                           LedgerRecord(destination: "sqlite:./l.db", key: "k2", remoteID: "c2", hash: "h2", run: "r", source: source),
                           LedgerRecord(destination: "webhook:https://example.com/h", key: "k1", remoteID: "w1", hash: "h", run: "r", source: source)])
        }
        // As a database written before the migration: it has not run yet.
        let path = dir.appendingPathComponent("l.db").path
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'ledger-own-destination'") }
        let reopened = try LeadStore(path: path)
        let own = try reopened.ledger(destination: LeadStore.ownLedger, keys: ["k1", "k2"])
        #expect(own.keys.sorted() == ["k1", "k2"])
        #expect(try reopened.ledger(destination: "webhook:https://example.com/h", keys: ["k1"])["k1"]?.remoteID == "w1")
        #expect(try reopened.count("leadport_ledger") == 3)
    }

    @Test func referencesAreCheckedAfterTheWritesNotRowByRow() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let campaign = try #require(try store.campaign("C", owner: owner, create: true)).id
        let contact = ContactRecord(fullName: "Ann Lee", phone: nil, email: nil, address: nil, notes: nil)
        try store.transaction { tx in
            try tx.insertAddress(id: "a1", campaign: campaign, AddressRecord(PostalAddress()), seq: 1)
            try tx.insertContact(id: "c1", user: owner, contact, campaign: campaign, addressID: "a1")
        }
        #expect(try store.foreignKeyViolations() == 0)
        // A contact pointing at an address that does not exist is written, and found.
        try store.transaction { tx in try tx.insertContact(id: "c2", user: owner, contact, campaign: campaign, addressID: "a-missing") }
        #expect(try store.foreignKeyViolations() == 1)
    }

    @Test func addressesGetTheNextSequenceNumberOfTheirCampaignInFLYRsColumns() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try #require(try store.campaign("A", owner: owner, create: true)).id
        let b = try #require(try store.campaign("B", owner: owner, create: true)).id
        var address = PostalAddress()
        address.houseNumber = "12"
        address.streetPredirectional = "N"
        address.streetName = "MAIN"
        address.streetSuffix = "ST"
        address.unitType = "APT"
        address.unitID = "4"
        address.city = "BOSTON"
        address.state = "MA"
        address.postalCode = "02134"
        address.zip4 = "1234"
        let seqs = try store.transaction { tx -> [Int] in
            var seqs: [Int] = []
            for (k, campaign) in [a, a, b].enumerated() {
                let seq = try tx.nextSeq(campaign: campaign)
                try tx.insertAddress(id: "addr\(k)", campaign: campaign, AddressRecord(address), seq: seq)
                seqs.append(seq)
            }
            return seqs
        }
        #expect(seqs == [1, 2, 1])
        let db = try DatabaseQueue(path: store.path)
        let row = try #require(try db.read { try Row.fetchOne($0, sql: "SELECT * FROM campaign_addresses WHERE id = 'addr0'") })
        #expect(row["street_name"] as String? == "N MAIN ST APT 4")
        #expect(row["postal_code"] as String? == "02134-1234")
        #expect(row["region"] as String? == "MA")
        #expect(row["source"] as String? == "import_list")
        #expect(row["formatted"] as String? == "12 N MAIN ST APT 4, BOSTON, MA 02134-1234")
        #expect(row["address"] as String? == "12 N MAIN ST APT 4")
    }

    @Test func runsRecordTheirCounts() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.startRun(id: "r1", inputs: ["a.csv", "b.xlsx"])
        try store.finishRun(id: "r1", counts: [.created: 3, .rejected: 1], rows: 4)
        let db = try DatabaseQueue(path: store.path)
        let row = try #require(try db.read { try Row.fetchOne($0, sql: "SELECT * FROM leadport_runs") })
        #expect(row["rows"] as Int? == 4 && row["created"] as Int? == 3 && row["rejected"] as Int? == 1 && row["updated"] as Int? == 0)
        #expect(row["finished_at"] as String? != nil)
    }

    @Test func anUnopenableDatabaseIsAStoreErrorNamingThePath() {
        #expect(throws: StoreError.self) { _ = try LeadStore(path: "/nonexistent-dir/l.db") }
    }

    /// A ledger entry of the store's own, keyed `k<k>`.
    private func entry(_ k: Int) -> LedgerRecord {
        LedgerRecord(destination: "sqlite", key: "k\(k)", remoteID: "r\(k)", hash: "h", run: "r", source: SourceLocation(file: "a.csv", row: 2))
    }

    /// The rows a second connection sees in the ledger (committed ones only).
    private func committedEntries(_ dir: URL) throws -> Int {
        let other = try DatabaseQueue(path: dir.appendingPathComponent("l.db").path)
        return try other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM leadport_ledger") ?? 0 }
    }

    @Test func writesStayInOneOpenTransactionUntilCommitted() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.write { tx in try tx.record([entry(1)]) }
        try store.write { tx in try tx.record([entry(2), entry(3)]) }
        #expect(store.isWriting)
        // The store's own connection sees its uncommitted rows; another does not, until the commit.
        #expect(try store.ledger(destination: "sqlite", keys: ["k1", "k2", "k3"]).count == 3)
        #expect(try committedEntries(dir) == 0)
        try store.commit()
        #expect(!store.isWriting)
        #expect(try committedEntries(dir) == 3)
        try store.commit()  // nothing open: nothing to do
        #expect(try committedEntries(dir) == 3)
    }

    @Test func aFailedWriteUndoesEverythingSinceTheLastCommitAndRollbackUndoesTheRest() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.write { tx in try tx.record([entry(1)]) }
        try store.commit()
        try store.write { tx in try tx.record([entry(2)]) }
        // A key the ledger has, as a plain insert: the statement fails after its first row.
        #expect(throws: (any Error).self) { try store.write { tx in try tx.record([entry(3), entry(1)]) } }
        #expect(!store.isWriting)
        #expect(try store.ledger(destination: "sqlite", keys: ["k1", "k2", "k3"]).keys.sorted() == ["k1"])
        try store.write { tx in try tx.record([entry(4)]) }
        store.rollback()
        #expect(!store.isWriting)
        try store.close()
        #expect(try committedEntries(dir) == 1)
    }
}
