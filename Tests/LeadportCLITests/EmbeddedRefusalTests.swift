import Foundation
import GRDB
import LeadStore
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
        try LeadStore(path: path).close()
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

/// A lead whose rows were deleted at the destination since LeadPort wrote them (in the FLYR app,
/// or by hand) and that changed in the file is written again, under its id, not reported as
/// updated while nothing is written (found by a new-user trial).
enum GoneRowsCheck {
    static func check(_ t: RemoteImport, to destination: String, delete: (String) throws -> Void, count: (String) throws -> Int) throws {
        #expect(try t.run(try t.list("leads.csv", count: 3), to: destination).result.status == 0)
        try delete("person2@example.com")
        #expect(try count("person2@example.com") == 0)
        let changed = try t.run(try t.list("leads.csv", count: 3) { k, cells in if k == 2 { cells[2] = "617-555-0222" } }, to: destination)
        #expect(changed.result.status == 0, "\(changed.result.stderr)")
        #expect(changed.outcomes[3]?[0] == "updated", "\(changed.outcomes)")
        #expect(try count("person2@example.com") == 1)
        let again = try t.run(try t.list("leads.csv", count: 3) { k, cells in if k == 2 { cells[2] = "617-555-0222" } }, to: destination)
        #expect(again.outcomes[3]?[0] == "unchanged")
    }
}

extension EmbeddedRefusalTests {
    @Test func aContactDeletedFromTheFileIsWrittenAgainWhenItChanges() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let path = t.dir.appendingPathComponent("leads.db").path
        try GoneRowsCheck.check(t, to: "sqlite:" + path, delete: { email in
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: "DELETE FROM campaign_addresses WHERE id IN (SELECT address_id FROM contacts WHERE email = ?)", arguments: [email])
                try db.execute(sql: "DELETE FROM contacts WHERE email = ?", arguments: [email])
            }
        }, count: { email in
            try DatabaseQueue(path: path).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts c JOIN campaign_addresses a ON a.id = c.address_id WHERE c.email = ? AND c.phone = '+16175550222'", arguments: [email]) ?? -1
                    + (try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts WHERE email = ? AND phone <> '+16175550222'", arguments: [email]) ?? -1)
            }
        })
    }
}

extension PostgresDestinationTests {
    @Test func aContactDeletedInTheDatabaseIsWrittenAgainWhenItChanges() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        try GoneRowsCheck.check(t, to: db.url, delete: { email in
            try db.connection.execute("DELETE FROM campaign_addresses WHERE id IN (SELECT address_id FROM contacts WHERE email = $1)", [email])
            try db.connection.execute("DELETE FROM contacts WHERE email = $1", [email])
        }, count: { email in
            try db.int("SELECT count(*) FROM contacts c JOIN campaign_addresses a ON a.id = c.address_id WHERE c.email = $1 AND c.phone = '+16175550222'", [email])
                + db.int("SELECT count(*) FROM contacts WHERE email = $1 AND phone <> '+16175550222'", [email])
        })
    }
}

/// The lead's status reaches FLYR's `contacts.status` (hot, warm, cold or new, in any case; any
/// other word leaves the table's default), on a create and on a change (found by a new-user
/// trial: every contact was `new`).
enum StatusCheck {
    static func check(_ t: RemoteImport, to destination: String, statuses: () throws -> [String: String]) throws {
        let file = t.dir.appendingPathComponent("status.csv")
        try "Name,Email,Status\nA One,a1@example.com,HOT\nB Two,b2@example.com, Warm \nC Three,c3@example.com,cold\nD Four,d4@example.com,Open\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let first = try t.run(file, to: destination, extra: ["--preset", "flyr-contacts"])
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(try statuses() == ["a1@example.com": "hot", "b2@example.com": "warm", "c3@example.com": "cold", "d4@example.com": "new"])
        try "Name,Email,Status\nA One,a1@example.com,cold\nB Two,b2@example.com, Warm \nC Three,c3@example.com,\nD Four,d4@example.com,Open\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let second = try t.run(file, to: destination, extra: ["--preset", "flyr-contacts"])
        #expect(second.outcomes[2]?[0] == "updated" && second.outcomes[3]?[0] == "unchanged" && second.outcomes[5]?[0] == "unchanged", "\(second.outcomes)")
        // A blank status wipes nothing.
        #expect(try statuses() == ["a1@example.com": "cold", "b2@example.com": "warm", "c3@example.com": "cold", "d4@example.com": "new"])
    }
}

extension EmbeddedRefusalTests {
    @Test func theStatusReachesTheEmbeddedContacts() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let path = t.dir.appendingPathComponent("leads.db").path
        try StatusCheck.check(t, to: "sqlite:" + path) {
            try DatabaseQueue(path: path).read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT email, status FROM contacts").map { ($0[0] as String, $0[1] as String) })
            }
        }
    }
}

extension PostgresDestinationTests {
    @Test func theStatusReachesPostgresContacts() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        try StatusCheck.check(t, to: db.url) {
            Dictionary(uniqueKeysWithValues: try db.connection.execute("SELECT email, status FROM contacts").map { ($0[0]!, $0[1]!) })
        }
    }
}

extension EmbeddedRefusalTests {
    /// A dry run writes nothing, not even an empty database; a row of spaces is a blank row,
    /// skipped, not rejected (found by a new-user trial).
    @Test func aDryRunLeavesNoFileAndARowOfSpacesIsBlank() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let file = t.dir.appendingPathComponent("spaces.csv")
        try "Name,Email\nAnn Lee,ann@example.com\n   ,  \nBo Ray,bo@example.com\n".write(to: file, atomically: true, encoding: .utf8)
        let path = t.dir.appendingPathComponent("never.db").path
        let dry = try t.run(file, to: "sqlite:" + path, campaign: nil, user: nil, extra: ["--dry-run"])
        #expect(dry.result.status == 0, "\(dry.result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(dry.outcomes[3]?[0] == "skipped" && dry.outcomes[3]?[1] == "blank row", "\(dry.outcomes)")
        #expect(dry.outcomes[2]?[0] == "created" && dry.outcomes[4]?[0] == "created")
    }
}

/// The same list imported into a second campaign fills that campaign too, and a rerun into
/// either sends nothing (found by a new-user trial: campaign B stayed empty).
enum SecondCampaignCheck {
    static func check(_ t: RemoteImport, to destination: String, count: (String) throws -> Int) throws {
        let list = try t.list("leads.csv", count: 4)
        #expect(try t.run(list, to: destination, campaign: "Spring farm").result.status == 0)
        let second = try t.run(list, to: destination, campaign: "Fall farm")
        #expect(second.result.status == 0, "\(second.result.stderr)")
        #expect(RemoteImport.count(second.outcomes, "created") == 4, "\(second.outcomes)")
        #expect(try count("Spring farm") == 4 && count("Fall farm") == 4)
        #expect(RemoteImport.count(try t.run(list, to: destination, campaign: "Spring farm").outcomes, "unchanged") == 4)
        #expect(RemoteImport.count(try t.run(list, to: destination, campaign: "Fall farm").outcomes, "unchanged") == 4)
        #expect(try count("Spring farm") == 4 && count("Fall farm") == 4)
    }
}

extension EmbeddedRefusalTests {
    @Test func theSameListFillsASecondCampaignOfTheEmbeddedDatabase() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let path = t.dir.appendingPathComponent("leads.db").path
        try SecondCampaignCheck.check(t, to: "sqlite:" + path) { name in
            try DatabaseQueue(path: path).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM campaign_addresses a JOIN campaigns c ON c.id = a.campaign_id WHERE c.name = ?", arguments: [name]) ?? -1
            }
        }
    }
}

extension PostgresDestinationTests {
    @Test func theSameListFillsASecondCampaignInPostgres() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        try SecondCampaignCheck.check(t, to: db.url) { name in
            try db.int("SELECT count(*) FROM campaign_addresses a JOIN campaigns c ON c.id = a.campaign_id WHERE c.name = $1", [name])
        }
    }
}

extension EmbeddedRefusalTests {
    /// A ledger written before keys carried their campaign still knows its leads: a rerun into
    /// the same campaign adds nothing, and the list goes into another campaign whole.
    @Test func aLedgerOfKeysWithoutTheirCampaignStillKnowsItsLeads() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let path = t.dir.appendingPathComponent("leads.db").path
        let list = try t.list("leads.csv", count: 5)
        #expect(try t.run(list, to: "sqlite:" + path).result.status == 0)
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: "UPDATE leadport_ledger SET dedupe_key = substr(dedupe_key, 1, instr(dedupe_key, '@campaign:') - 1), row_hash = NULL WHERE dedupe_key LIKE '%@campaign:%'")
        }
        let again = try t.run(list, to: "sqlite:" + path)
        #expect(RemoteImport.count(again.outcomes, "unchanged") == 5, "\(again.outcomes)")
        let other = try t.run(list, to: "sqlite:" + path, campaign: "Fall farm")
        #expect(RemoteImport.count(other.outcomes, "created") == 5, "\(other.outcomes)")
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM contacts") } == 10)
    }
}

extension EmbeddedRefusalTests {
    /// Rows a campaign of the embedded database has already (added by hand, not in the ledger)
    /// are found by address and email, as at every FLYR destination: not added twice.
    @Test func rowsAlreadyInTheEmbeddedCampaignAreFoundNotAddedTwice() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let path = t.dir.appendingPathComponent("leads.db").path
        #expect(try t.run(try t.list("first.csv", count: 1), to: "sqlite:" + path).result.status == 0)
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            let campaign: String = try String.fetchOne(db, sql: "SELECT id FROM campaigns")!
            try db.execute(sql: "INSERT INTO campaign_addresses (id, campaign_id, address, house_number, street_name, postal_code, source) VALUES ('a-hand', ?, '2 MAIN ST', '2', 'MAIN ST', '02134', 'map')",
                           arguments: [campaign])
            try db.execute(sql: "INSERT INTO contacts (id, user_id, full_name, email, campaign_id, address_id) VALUES ('c-hand', ?, 'Person 2 Lee', 'person2@example.com', ?, 'a-hand')",
                           arguments: [TestPostgres.user, campaign])
        }
        let run = try t.run(try t.list("leads.csv", count: 3), to: "sqlite:" + path, ledger: "other.db")
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.outcomes[3]?[0] == "updated" && run.outcomes[3]?[2] == "c-hand|a:a-hand", "\(run.outcomes)")
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM contacts WHERE email = 'person2@example.com'") } == 1)
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM campaign_addresses WHERE house_number = '2'") } == 1)
        #expect(try database.read { try String.fetchOne($0, sql: "SELECT phone FROM contacts WHERE id = 'c-hand'") } == "+16175550002")
    }
}

extension PostgresDestinationTests {
    /// A rerun passes over the rows the ledger has as they are; a row added with the email of
    /// one of them is still that row's duplicate, though the first was passed over unbuilt (its
    /// key, read from the ledger, carries the campaign's part).
    @Test func aDuplicateOfARowARerunPassedOverIsStillItsDuplicate() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        #expect(try t.run(try t.list("leads.csv", count: 3), to: db.url).result.status == 0)
        let file = t.dir.appendingPathComponent("leads.csv")
        try (String(contentsOf: file, encoding: .utf8) + "Someone Else,person2@example.com,617-555-0999,9 Elm Street,Boston,MA,02134\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let again = try t.run(file, to: db.url)
        #expect(again.outcomes[3]?[0] == "unchanged" && again.outcomes[5]?[0] == "skipped", "\(again.outcomes)")
        #expect(again.outcomes[5]?[1] == "duplicate of row 3 (same email)", "\(again.outcomes)")
        #expect(try db.int("SELECT count(*) FROM contacts") == 3)
    }
}
