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
}
