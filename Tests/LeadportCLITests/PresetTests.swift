import Foundation
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
        return Dictionary(zip(header, cells), uniquingKeysWith: { first, _ in first })
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

    @Test func aPresetThatMatchesNoIdentifyingColumnStopsWithTheFilesColumns() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Leadport.run(["import", "fixtures/presets/google-contacts-export.csv", "--preset", "owner-list",
                                       "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--progress", "none"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("none of the mapping's name, email, phone or address columns is in this file"))
        #expect(result.stderr.contains("\"E-mail 1 - Value\""))
    }

    @Test func anUnknownPresetListsTheShippedOnes() throws {
        let result = try Leadport.run(["import", "fixtures/presets/google-contacts-export.csv", "--preset", "salesforce"])
        #expect(result.status == 2)
        for name in ["flyr-contacts", "flyr-recipients", "followupboss-export", "generic-leads", "google-contacts-csv", "hubspot-export", "owner-list"] {
            #expect(result.stderr.contains(name))
        }
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
}
