import Foundation
import GRDB
import LeadTesting
import Testing

/// Latitude and longitude columns: recognised by their headers (their values alone are neither
/// phones nor dates), checked against their ranges, and written to FLYR's
/// `campaign_addresses.coordinate` (`{"lat": …, "lon": …}`) and the processed export.
@Suite(.serialized) struct CoordinateTests {
    private func list(_ t: RemoteImport) throws -> URL {
        let url = t.dir.appendingPathComponent("owners.csv")
        try """
            Owner Name,Site Address,Site City,Site State,Site Zip,Latitude,Longitude
            Ann Lee,12 Elm St,Sacramento,CA,95814,38.581572,-121.434879
            Bo Park,9 Oak Ave,Boston,MA,02134,42.36,71.06 W
            Cy Diaz,4 Pine Rd,Austin,TX,78701,95.123456,-97.743100
            Di Ng,7 Ash Ct,Denver,CO,80202,39.739200,

            """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Also with few decimals (`42.36`) and a hemisphere letter (`71.06 W`), which read as plain
    /// numbers or text by their values alone.
    @Test func inspectTypesAndMapsThemAsCoordinates() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let result = try Leadport.run(["inspect", try list(t).path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let latitude = try #require(lines.first { $0.contains("\"Latitude\"") })
        let longitude = try #require(lines.first { $0.contains("\"Longitude\"") })
        #expect(latitude.contains("coordinate") && latitude.contains("→ latitude"), "\(latitude)")
        #expect(longitude.contains("coordinate") && longitude.contains("→ longitude"), "\(longitude)")
    }

    @Test func theEmbeddedCampaignGetsThePositionAndBadOnesAreIssues() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let db = t.dir.appendingPathComponent("flyr.db").path
        let export = t.dir.appendingPathComponent("processed.csv")
        let run = try Leadport.run(["import", try list(t).path, "--to", "sqlite:" + db, "--campaign", "Farm", "--progress", "jsonl",
                                    "--export", export.path])
        #expect(run.status == 0, "\(run.stderr)")
        let stored = try DatabaseQueue(path: db).read { db in
            try Row.fetchAll(db, sql: "SELECT address, coordinate FROM campaign_addresses ORDER BY seq").map { [$0[0] as String?, $0[1] as String?] }
        }
        #expect(stored.count == 4)
        let ann = try #require(stored.first { $0[0]?.contains("12 ELM") == true })
        let position = try #require(try JSONSerialization.jsonObject(with: Data((ann[1] ?? "").utf8)) as? [String: Double])
        #expect(position == ["lat": 38.581572, "lon": -121.434879])
        // Out of range, or half a position: none kept, and said.
        #expect(stored.filter { $0[1] == nil }.count == 2, "\(stored)")
        let rows = try CSVRows.read(export)
        let header = rows[0]
        let issues = try #require(header.firstIndex(of: "issues"))
        // The list's own `Latitude` makes the cleaned one `latitude (cleaned)`.
        let lat = try #require(header.firstIndex(of: "latitude (cleaned)"))
        #expect(rows[1][lat] == "38.581572")
        #expect(rows[3][issues].contains("latitude \"95.123456\": outside -90…90 degrees"), "\(rows[3])")
        #expect(rows[4][issues].contains("a latitude without a longitude"), "\(rows[4])")
    }

    @Test func postgresGetsThePositionAsJSON() throws {
        let pg = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        let run = try t.run(try list(t), to: pg.url)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(try pg.int("SELECT count(*) FROM campaign_addresses WHERE (coordinate->>'lat')::float8 = 38.581572 AND (coordinate->>'lon')::float8 = -121.434879") == 1)
        #expect(try pg.int("SELECT count(*) FROM campaign_addresses WHERE coordinate IS NULL") == 2)
    }

    /// The same owners, first without their position, then with it: the rerun writes each
    /// position to the address it made (the embedded file, PostgreSQL, Supabase), and a third
    /// run writes nothing.
    @Test func coordinatesAddedLaterReachTheAddressesAlreadyMade() throws {
        let pg = try TestPostgres()
        let double = try LocalServer(script: "servers/postgrest_double.py", arguments: ["--db", pg.url])
        let token = (try JSONSerialization.jsonObject(with: Data(contentsOf: double.url("/_double/token?role=service_role"))) as! [String: Any])["token"] as! String
        let t = try RemoteImport()
        defer { t.remove() }
        let positioned = try list(t)
        let bare = t.dir.appendingPathComponent("bare.csv")
        try String(contentsOf: positioned, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(5).joined(separator: ",") }
            .joined(separator: "\n").write(to: bare, atomically: true, encoding: .utf8)
        let embedded = t.dir.appendingPathComponent("flyr.db").path
        let supabase = ["SUPABASE_URL": double.url("").absoluteString, "SUPABASE_SERVICE_ROLE_KEY": token]
        for (destination, environment, ledger) in [("sqlite:" + embedded, [String: String](), "a.db"), (pg.url, [:], "b.db"), ("supabase", supabase, "c.db")] {
            let first = try t.run(bare, to: destination, campaign: "Farm " + ledger, environment: environment, ledger: ledger)
            #expect(first.result.status == 0 && RemoteImport.count(first.outcomes, "created") == 4, "\(destination): \(first.result.stderr)")
            let second = try t.run(positioned, to: destination, campaign: "Farm " + ledger, environment: environment, ledger: ledger)
            #expect(second.result.status == 0, "\(destination): \(second.result.stderr)")
            // Ann and Bo have a position now; Cy's is out of range and Di's half of one.
            #expect(RemoteImport.count(second.outcomes, "updated") == 2 && RemoteImport.count(second.outcomes, "unchanged") == 2, "\(destination): \(second.outcomes)")
            let third = try t.run(positioned, to: destination, campaign: "Farm " + ledger, environment: environment, ledger: ledger)
            #expect(RemoteImport.count(third.outcomes, "unchanged") == 4, "\(destination): \(third.outcomes)")
        }
        let stored = try DatabaseQueue(path: embedded).read { db in
            try String.fetchAll(db, sql: "SELECT coordinate FROM campaign_addresses WHERE coordinate IS NOT NULL ORDER BY seq")
        }
        #expect(stored.count == 2)
        let ann = try #require(try JSONSerialization.jsonObject(with: Data((stored.first ?? "{}").utf8)) as? [String: Double])
        #expect(ann == ["lat": 38.581572, "lon": -121.434879])
        // PostgreSQL got it directly and through Supabase's REST API: two campaigns, jsonb objects.
        #expect(try pg.int("SELECT count(*) FROM campaign_addresses WHERE jsonb_typeof(coordinate) = 'object' AND (coordinate->>'lat')::float8 = 38.581572") == 2)
        #expect(try pg.int("SELECT count(*) FROM campaign_addresses WHERE coordinate IS NOT NULL") == 4)
    }
}
