import Foundation
import GRDB
import LeadTesting
import Testing

/// A row the embedded database itself refuses (a trigger or constraint a user added to their
/// file) is rejected alone with SQLite's message; every other row is written, and the ledger
/// records exactly the rows the file holds, across batches and commits.
@Suite struct EmbeddedRefusalTests {
    @Test func aRefusedRowIsRejectedAloneAndTheLedgerAgreesWithTheRows() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let path = t.dir.appendingPathComponent("leads.db").path
        let list = try t.list("leads.csv", count: 2_500)
        // The file first, as LeadPort makes it, then the user's own rule.
        #expect(try t.run(list, to: "sqlite:" + path, campaign: nil, user: nil, extra: ["--dry-run"]).result.status == 0)
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TRIGGER no_test_people BEFORE INSERT ON contacts
                WHEN NEW.email IN ('person7@example.com', 'person1500@example.com', 'person2499@example.com')
                BEGIN SELECT RAISE(ABORT, 'this person asked not to be kept'); END;
                """)
        }
        let run = try t.run(list, to: "sqlite:" + path, campaign: nil, user: nil)
        #expect(run.result.status == 3, "\(run.result.stderr.suffix(500))")
        #expect(RemoteImport.count(run.outcomes, "created") == 2_497)
        #expect([8, 1501, 2500].allSatisfy { run.outcomes[$0]?[0] == "rejected" && run.outcomes[$0]?[1] == "this person asked not to be kept" }, "\(run.outcomes[8] ?? [])")
        let (contacts, ledger, orphans) = try database.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM leadport_ledger")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM leadport_ledger l WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = l.remote_id)")!)
        }
        #expect(contacts == 2_497 && ledger == 2_497 && orphans == 0, "\(contacts) \(ledger) \(orphans)")
        // The rerun passes over what was written and is refused the same three again.
        let again = try t.run(list, to: "sqlite:" + path, campaign: nil, user: nil)
        #expect(RemoteImport.count(again.outcomes, "unchanged") == 2_497 && RemoteImport.count(again.outcomes, "rejected") == 3)
    }
}
