import Foundation
import LeadTesting
import Testing

/// The mapping's field policies in FLYR's tables (issue 13, item 4), through PostgreSQL or
/// Supabase REST alike: each column is updated as its policy says, and a blank cell wipes none.
enum FlyrPolicyCheck {
    static func check(_ db: TestPostgres, _ t: RemoteImport, to destination: String, section: String, environment: [String: String] = [:]) throws {
        _ = try t.run(try t.list("leads.csv", count: 3), to: destination, environment: environment)
        let address = try #require(try db.connection.execute("SELECT address FROM contacts WHERE email = 'person3@example.com'").first?.first ?? nil)
        // An agent typed person 1's phone; person 2's was cleared.
        _ = try db.connection.execute("UPDATE contacts SET phone = '+16170000000' WHERE email = 'person1@example.com'")
        _ = try db.connection.execute("UPDATE contacts SET phone = '' WHERE email = 'person2@example.com'")
        let changed = try t.list("leads.csv", count: 3) { k, cells in
            cells[0] = "Renamed \(k) Lee"
            cells[2] = "617-555-070\(k)"
            if k == 1 { cells[3] = "11 Elm Street" }
            if k == 3 { (cells[3], cells[4], cells[5], cells[6]) = ("", "", "", "") }
        }
        let mapping = t.dir.appendingPathComponent("mapping.yaml")
        try """
            columns: {Name: full_name, Email: email, Phone: phone, Address: address, City: city, State: state, Zip: zip}
            target: both
            destinations:
              \(section): {update: {phone: fill_blank, full_name: never, address: fill_blank}}
            """.write(to: mapping, atomically: true, encoding: .utf8)
        let run = try t.run(changed, to: destination, extra: ["--mapping", mapping.path], environment: environment)
        #expect(run.result.status == 0, "\(run.result.stderr) \(run.outcomes)")
        #expect(RemoteImport.count(run.outcomes, "updated") == 3, "\(run.outcomes)")
        let rows = try db.connection.execute("SELECT full_name, phone, address FROM contacts ORDER BY full_name")
        #expect(rows.map { $0[0] } == ["Person 1 Lee", "Person 2 Lee", "Person 3 Lee"], "never: the names stay")
        #expect(rows[0][1] == "+16170000000", "fill_blank: the agent's phone stays")
        #expect(rows[1][1] == "+16175550702", "fill_blank: the empty phone is filled")
        #expect(rows[0][2]?.hasPrefix("1 MAIN ST") == true, "fill_blank: a filled address stays: \(rows[0])")
        #expect(rows[2][2] == address && !address.isEmpty, "the blank cells wipe nothing")
        let parts = try db.connection.execute("SELECT address, postal_code FROM campaign_addresses ORDER BY address")
        #expect(parts.map { $0[0] } == ["1 MAIN ST", "2 MAIN ST", "3 MAIN ST"] && parts.allSatisfy { $0[1] == "02134" }, "\(parts)")
    }
}

extension PostgresDestinationTests {
    @Test func fillBlankFillsOnlyEmptyColumnsNeverLeavesThemAndABlankCellWipesNothing() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        try FlyrPolicyCheck.check(db, t, to: db.url, section: "postgres")
    }
}

extension SupabaseDestinationTests {
    @Test func fillBlankFillsOnlyEmptyColumnsNeverLeavesThemAndABlankCellWipesNothing() throws {
        defer { t.remove() }
        try FlyrPolicyCheck.check(db, t, to: "supabase", section: "supabase", environment: try serviceRole)
    }
}

/// Rows the FLYR app made (ids of its own, not in LeadPort's ledger) that a lead is found to be
/// by its address and email: updated in place where they differ, never added again.
enum FlyrFoundCheck {
    static func check(_ db: TestPostgres, _ t: RemoteImport, to destination: String, environment: [String: String] = [:]) throws {
        let user = TestPostgres.user
        let campaign = try #require(try db.connection.execute("""
            INSERT INTO campaigns (owner_id, name, type, address_source, status) VALUES ($1::uuid, 'App farm', 'flyer', 'map', 'draft') RETURNING id
            """, [user]).first?.first ?? nil)
        let address = try #require(try db.connection.execute("""
            INSERT INTO campaign_addresses (campaign_id, address, house_number, street_name, postal_code, source) VALUES ($1::uuid, '1 Main St', '1', 'MAIN ST', '02134', 'map') RETURNING id
            """, [campaign]).first?.first ?? nil)
        let contact = try #require(try db.connection.execute("""
            INSERT INTO contacts (user_id, full_name, email, campaign_id, address_id) VALUES ($1::uuid, 'Person 1 Lee', 'person1@example.com', $2::uuid, $3::uuid) RETURNING id
            """, [user, campaign, address]).first?.first ?? nil)
        let run = try t.run(try t.list("leads.csv", count: 1), to: destination, campaign: campaign, environment: environment)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.outcomes[2]?[0] == "updated", "\(run.outcomes)")
        #expect(run.outcomes[2]?[2] == "\(contact)|a:\(address)")
        #expect(try db.int("SELECT count(*) FROM contacts") == 1)
        #expect(try db.int("SELECT count(*) FROM campaign_addresses") == 1)
        #expect(try db.int("SELECT count(*) FROM contacts WHERE id = $1::uuid AND phone = '+16175550001'", [contact]) == 1)
        // Run again with no ledger of it: the rows hold what the lead would write, so nothing is.
        let again = try t.run(try t.list("leads.csv", count: 1), to: destination, campaign: campaign, environment: environment, ledger: "other.db")
        #expect(again.outcomes[2]?[0] == "unchanged" && again.outcomes[2]?[1] == "already at the destination", "\(again.outcomes)")
    }
}

extension PostgresDestinationTests {
    @Test func rowsTheAppMadeAreUpdatedWhereTheyDiffer() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        try FlyrFoundCheck.check(db, t, to: db.url)
    }
}

extension SupabaseDestinationTests {
    @Test func rowsTheAppMadeAreUpdatedWhereTheyDiffer() throws {
        defer { t.remove() }
        try FlyrFoundCheck.check(db, t, to: "supabase", environment: try serviceRole)
    }
}
