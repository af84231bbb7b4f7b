import Foundation
import GRDB
import LeadTesting
import Testing

/// Every row's outcome and reason from a `--report` CSV, by row number.
private func report(_ url: URL) throws -> [Int: (outcome: String, reason: String)] {
    let rows = try CSVRows.read(url)
    var result: [Int: (String, String)] = [:]
    for cells in rows.dropFirst() {
        let row = try #require(Int(cells[2]))
        #expect(result[row] == nil, "row \(row) has two outcomes")
        result[row] = (cells[4], cells[6])
    }
    return result
}

@Suite struct PresetTests {
    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-preset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private func importing(_ file: String, preset: String, extra: [String] = [], in dir: URL) throws -> (Leadport.Result, [Int: (outcome: String, reason: String)], [[String]]) {
        let reportURL = dir.appendingPathComponent("report.csv")
        let exportURL = dir.appendingPathComponent("processed.csv")
        let result = try Leadport.run(["import", file, "--preset", preset, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path,
                                       "--report", reportURL.path, "--export", exportURL.path, "--progress", "none"] + extra)
        #expect(result.status == 0 || result.status == 3, "\(result.stderr)")
        return (result, try report(reportURL), try CSVRows.read(exportURL))
    }

    /// The processed row for a source row, as header → cell.
    private func processed(_ rows: [[String]], row: Int) throws -> [String: String] {
        let header = try #require(rows.first)
        let cells = try #require(rows.first { $0.last == String(row) })
        #expect(Set(header.map { $0.lowercased() }).count == header.count, "a header named twice: \(header)")
        // The cleaned columns by their own names (`address`), also where the source's own
        // `Address` made them `address (cleaned)`.
        var byName = Dictionary(zip(header, cells), uniquingKeysWith: { first, _ in first })
        for (name, cell) in zip(header, cells) where name.hasSuffix(" (cleaned)") { byName[String(name.dropLast(10))] = cell }
        return byName
    }

    @Test func ownerListKeepsPropertyAndMailingAddressesApartAndOneLeadPerProperty() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, outcomes, rows) = try importing("fixtures/presets/owner-list-xlsxwriter.xlsx", preset: "owner-list",
                                                     extra: ["--campaign", "Absentee owners"], in: dir)
        #expect(result.status == 3)
        #expect(outcomes.keys.sorted() == [4, 5, 6, 7, 8])
        #expect(outcomes[7]?.outcome == "skipped" && outcomes[7]?.reason == "duplicate of row 4 (same address and unit)")
        #expect(outcomes[8]?.outcome == "rejected" && outcomes[8]?.reason == "required address is empty (column \"Property Address\")")
        let john = try processed(rows, row: 4)
        #expect(john["full_name"] == "John McDonald")
        #expect(john["address"] == "12 BEACON ST UNIT 3, BOSTON, MA 02108")
        #expect(john["mailing_address"] == "PO BOX 77, NAPLES, FL 34102")
        #expect(john["date"] == "2019-06-14")
        #expect(john["Owner 2 First Name"] == "MARY")
        let ana = try processed(rows, row: 5)
        #expect(ana["last_name"] == "de la Cruz")
        #expect(ana["issues"] == "ZIP 2446 → 02446: leading zero restored; mailing ZIP 2446 → 02446: leading zero restored")
    }

    @Test func googleContactsExportTakesTheFirstOfJoinedValuesAndIgnoresLabels() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, outcomes, rows) = try importing("fixtures/presets/google-contacts-export.csv", preset: "google-contacts-csv", in: dir)
        // Row numbers are line numbers: Rosa's quoted address spans lines 2 and 3.
        #expect(outcomes.mapValues(\.outcome) == [2: "created", 4: "created", 5: "rejected"])
        let rosa = try processed(rows, row: 2)
        #expect(rosa["email"] == "rosa@alvarezrealty.example")
        #expect(rosa["phone"] == "'+16175550110")
        #expect(rosa["address"] == "20 PARK PLZ STE 500, BOSTON, MA 02116")
    }

    @Test func hubspotExportMapsStateNamesMobilesAndDedupesByEmail() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, outcomes, rows) = try importing("fixtures/presets/hubspot-contacts-export.csv", preset: "hubspot-export", in: dir)
        #expect(result.status == 0)
        #expect(outcomes[4]?.reason == "duplicate of row 2 (same email)")
        let grace = try processed(rows, row: 2)
        #expect(grace["mobile"] == "'+16175550150")
        #expect(grace["state"] == "MA")
        #expect(grace["date"] == "2024-03-05")
    }

    @Test func aPresetOnAFileWithNoIdentifyingColumnStopsWithTheFilesColumns() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("parcels.csv")
        try "Parcel,Bedrooms,Assessed Value\n12-004-118,3,412000\n12-004-119,2,289500\n".write(to: csv, atomically: true, encoding: .utf8)
        let result = try Leadport.run(["import", csv.path, "--preset", "owner-list",
                                       "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--progress", "none"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no column of this file holds a name, email, phone or address"), "\(result.stderr)")
        #expect(result.stderr.contains("\"Assessed Value\""))
    }

    @Test func anUnknownPresetListsTheShippedOnes() throws {
        let result = try Leadport.run(["import", "fixtures/presets/google-contacts-export.csv", "--preset", "salesforce"])
        #expect(result.status == 2)
        for name in ["flyr-contacts", "flyr-recipients", "followupboss-export", "generic-leads", "google-contacts-csv", "hubspot-export", "owner-list"] {
            #expect(result.stderr.contains(name))
        }
        #expect(result.stderr.contains("no preset \"salesforce\" in ") && result.stderr.contains("/mappings"), "\(result.stderr)")
    }

    /// A folder with no presets in it is named, with how to name another.
    @Test func anEmptyPresetFolderIsNamed() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-no-presets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try Leadport.run(["import", "fixtures/presets/google-contacts-export.csv", "--preset", "owner-list"], environment: ["LEADPORT_MAPPINGS": empty.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(empty.path) holds no presets") && result.stderr.contains("LEADPORT_MAPPINGS"), "\(result.stderr)")
        // A folder that is not there is said to be missing; an empty LEADPORT_MAPPINGS is not set.
        let missing = empty.appendingPathComponent("nope").path
        let gone = try Leadport.run(["import", "fixtures/presets/google-contacts-export.csv", "--preset", "owner-list"], environment: ["LEADPORT_MAPPINGS": missing])
        #expect(gone.status == 2 && gone.stderr.contains("there is no folder \(missing)"), "\(gone.stderr)")
        let unset = try Leadport.run(["import", "fixtures/presets/google-contacts-export.csv", "--preset", "salesforce"], environment: ["LEADPORT_MAPPINGS": ""])
        #expect(unset.status == 2 && unset.stderr.contains("/mappings; the presets are:"), "\(unset.stderr)")
    }

    @Test func flyrRecipientsNeedsACampaignAndFillsItsAddresses() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("recipients.csv")
        try "Address,City,State,Zip\n12 North Main Street Apt 4,Boston,MA,2134\n45 Elm Ave,Cambridge,MA,02139\n12 N Main St #4,Boston,MA,02134\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("l.db").path
        let without = try Leadport.run(["import", csv.path, "--preset", "flyr-recipients", "--to", "sqlite:" + db])
        #expect(without.status == 2 && without.stderr.contains("--campaign"))
        let with = try Leadport.run(["import", csv.path, "--preset", "flyr-recipients", "--campaign", "Spring farm", "--to", "sqlite:" + db,
                                     "--progress", "none"])
        #expect(with.status == 0)
        #expect(with.stderr.contains("created 2, updated 0, unchanged 0, skipped 1"))
    }

    // Issue 12: a preset names the headers of its source; every other column is mapped
    // automatically, exactly as without a preset. Each shipped preset on a realistic list of its
    // kind whose headers it mostly does not name (fixtures/presets/other-headers/).

    /// The issue's own case: an owner list with a title row and headers flyr-recipients does not
    /// name, into a campaign.
    @Test func flyrRecipientsReadsAnOwnerListWithHeadersItDoesNotName() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = "fixtures/presets/other-headers/flyr-recipients-owner-list.xlsx"
        let (result, outcomes, rows) = try importing(file, preset: "flyr-recipients", extra: ["--campaign", "Maple Heights"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(outcomes.mapValues(\.outcome) == [3: "created", 4: "created", 5: "created"])
        let karen = try processed(rows, row: 3)
        #expect(karen["full_name"] == "Karen Lindsay")
        #expect(karen["address"] == "41 MAPLE AVE APT 2, SPRINGFIELD, IL 62704")
        #expect(karen["mobile"] == "'+12175550142")
        #expect(karen["email"] == "karen.lindsay@example.com")
        // The ZIP openpyxl stored as a number.
        #expect(try processed(rows, row: 4)["address"] == "17 OAK ST, SPRINGFIELD, IL 62702")
        let db = try DatabaseQueue(path: dir.appendingPathComponent("l.db").path)
        let zips = try db.read { try String.fetchAll($0, sql: "SELECT postal_code FROM campaign_addresses ORDER BY seq") }
        #expect(zips == ["62704", "62702", "62629"])
        // inspect --preset shows the same plan, column by column.
        let inspect = try Leadport.run(["inspect", file, "--preset", "flyr-recipients", "--json"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let mapping = try #require(json["mapping"] as? [String: Any])
        #expect(mapping["target"] as? String == "campaign_addresses")
        let columns = try #require(mapping["columns"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: columns.map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["City"]?["by"] as? String == "mapping" && byName["City"]?["field"] as? String == "city")
        for (header, field) in [("Owner Name", "full_name"), ("Property Address", "address"), ("ST", "state"), ("Cell", "mobile"),
                                ("E-mail", "email"), ("Notes", "notes")] {
            #expect(byName[header]?["field"] as? String == field, "\(header)")
            #expect(byName[header]?["by"] as? String == "automatic", "\(header)")
        }
    }

    @Test(arguments: [
        // preset, file, the row to look at, what its processed columns must hold
        ("flyr-contacts", "flyr-contacts-crm-export.csv", 2,
         ["full_name": "Maria Gonzalez", "mobile": "'+13125550190", "email": "maria.g@example.com",
          "address": "2200 N LINCOLN AVE, CHICAGO, IL 60614"], ["Lead Status": "status", "Comments": "notes", "Town": "city"]),
        ("google-contacts-csv", "google-contacts-outlook-style.csv", 2,
         ["first_name": "Ellen", "last_name": "Ochoa", "email": "ellen.ochoa@example.com", "phone": "'+12815550123",
          "address": "2101 NASA PKWY, HOUSTON, TX 77058"], ["Home Postal Code": "zip", "Primary Phone": "phone"]),
        ("hubspot-export", "hubspot-renamed-properties.csv", 2,
         ["first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com", "phone": "'+12065550134",
          "mobile": "'+12065550135", "address": "1 ANALYTICAL WAY, SEATTLE, WA 98101"], ["Surname": "last_name", "Lifecycle Stage": "status"]),
        ("followupboss-export", "followupboss-custom-columns.csv", 2,
         ["first_name": "Nina", "last_name": "Simone", "email": "nina@example.com", "mobile": "'+19195550166",
          "address": "12 BRYON RD, TRYON, NC 28782"], ["Lead Source": "source", "Postal Code": "zip"]),
        ("generic-leads", "generic-leads-spanish-headers.csv", 3,
         ["full_name": "Diego Ramos", "email": "diego.ramos@example.com", "phone": "'+17865550199",
          "address": "77 NE 2ND AVE APT 5, MIAMI, FL 33132"], ["Nombre Completo": "full_name", "Código Postal": "zip"]),
        ("owner-list", "owner-list-assessor-export.csv", 2,
         // Issue 23: the preset reads the assessor's surname-first Owner(s) column in county order.
         ["address": "881 LAKE SHORE DR, MADISON, WI 53703", "mailing_address": "PO BOX 12, TAMPA, FL 33601",
          "first_name": "Robert", "last_name": "Henderson"],
         ["Owner(s)": "full_name", "Situs Zip": "zip"]),
    ] as [(String, String, Int, [String: String], [String: String])])
    func everyPresetMapsTheColumnsItDoesNotNameAutomatically(preset: String, file: String, row: Int, expected: [String: String],
                                                             automatic: [String: String]) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, outcomes, rows) = try importing("fixtures/presets/other-headers/" + file, preset: preset,
                                                     extra: preset == "owner-list" ? ["--campaign", "Assessor list"] : [], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!outcomes.isEmpty && outcomes.values.allSatisfy { $0.outcome == "created" }, "\(outcomes)")
        let cells = try processed(rows, row: row)
        for (column, value) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(cells[column] == value, "\(preset) \(column)")
        }
        // inspect --preset says which columns automatic mapping filled.
        let inspect = try Leadport.run(["inspect", "fixtures/presets/other-headers/" + file, "--preset", preset, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let columns = try #require((json["mapping"] as? [String: Any])?["columns"] as? [[String: Any]])
        for (header, field) in automatic {
            let column = columns.first { $0["name"] as? String == header }
            #expect(column?["field"] as? String == field && column?["by"] as? String == "automatic", "\(preset) \(header): \(String(describing: column))")
        }
    }
}
