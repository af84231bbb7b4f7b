import Foundation
import LeadTesting
import Testing

@Suite struct InspectCommandTests {
    @Test(arguments: ["fixtures/csv/title-rows-above-header.csv", "fixtures/xlsx/title-rows-above-header.xlsx"])
    func findsTheHeaderBelowTitleRowsAndSuggestsFields(file: String) throws {
        let result = try Leadport.run(["inspect", file, "--json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["header_row"] as? Int == 4)
        let columns = try #require(json["columns"] as? [[String: Any]])
        let fields = columns.map { $0["suggested_field"] as? String }
        #expect(fields.prefix(2) == ["full_name", file.hasSuffix(".csv") ? "email" : "phone"])
        #expect(columns.allSatisfy { ($0["confidence"] as? Double ?? -1) >= 0 })
    }

    /// An export that leaves forty blank rows above its title and header: inspect finds the
    /// header, and an import plans from it and creates both contacts.
    @Test func aHeaderBelowManyBlankRowsIsFound() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-blank-top-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("export.csv").path
        try (String(repeating: ",,\n", count: 40) + "Owner roll,,\nName,Email,Phone\nAnn Lee,ann@example.com,617-555-0100\nBo Diaz,bo@example.com,617-555-0101\n")
            .write(toFile: list, atomically: true, encoding: .utf8)
        let inspected = try Leadport.run(["inspect", list, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
        #expect(json["header_row"] as? Int == 42, "\(inspected.stdout)")
        let imported = try Leadport.run(["import", list, "--to", "sqlite:" + dir.appendingPathComponent("out.db").path, "--progress", "jsonl"])
        let rows = imported.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "row" }
        #expect(imported.status == 0 && rows.map { $0["outcome"] as? String } == ["created", "created"] && rows.map { $0["row"] as? Int } == [43, 44],
                "\(imported.stderr.suffix(600))")
    }

    @Test func reportsEncodingDelimiterAndSource() throws {
        let result = try Leadport.run(["inspect", "fixtures/csv/excel-sep-line-semicolon.csv", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["encoding"] as? String == "utf-8")
        #expect(json["delimiter"] as? String == ";")
        #expect(json["delimiter_source"] as? String == "sep= line")
        #expect(json["header_row"] as? Int == 2)
    }

    @Test func listsEverySheetWithSizeAndVisibility() throws {
        let result = try Leadport.run(["inspect", "fixtures/xlsx/hidden-and-chart-sheets.xlsx", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sheets = try #require(json["sheets"] as? [[String: Any]])
        #expect(sheets.map { $0["name"] as? String } == ["Visible", "Secret", "Chart", "Last"])
        #expect(sheets.map { $0["hidden"] as? Bool } == [false, true, false, false])
        #expect(sheets.map { $0["kind"] as? String } == ["worksheet", "worksheet", "chartsheet", "worksheet"])
        #expect(sheets.map { $0["rows"] as? Int } == [1, 3, 0, 2])
        #expect(sheets.map { $0["columns"] as? Int } == [1, 3, 0, 2])
    }

    @Test func unreadableFileIsOneLineAndFailure() throws {
        let result = try Leadport.run(["inspect", "fixtures/bad/legacy-excel-97.xls"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("leadport: fixtures/bad/legacy-excel-97.xls: this is a legacy Excel 97-2003 workbook"))
    }

    @Test func mappingOutWritesAnEditableMappingThatImportsLikeTheAutoMapper() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let yaml = dir.appendingPathComponent("owners.yaml")
        let file = "fixtures/presets/owner-list-xlsxwriter.xlsx"
        let inspect = try Leadport.run(["inspect", file, "--mapping-out", yaml.path])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        // The confidence and its reason, on screen and in the file.
        #expect(inspect.stdout.contains("→ date (0.99, header and values agree)"))
        let text = try String(contentsOf: yaml, encoding: .utf8)
        #expect(text.contains("header_row: 3"))
        #expect(text.contains("\"Last Sale Date\": date   # 0.99: header and values agree"))
        #expect(text.contains("# \"Owner 2 First Name\": first_name   # 0.75: header; not mapped: \"Owner 1 First Name\" is surer"))
        #expect(text.contains("# \"Bedrooms\": ignore"))

        let again = try Leadport.run(["inspect", file, "--mapping-out", yaml.path])
        #expect(again.status == 2 && again.stderr.contains("--force"))

        let db = dir.appendingPathComponent("l.db").path
        let mapped = try Leadport.run(["import", file, "--mapping", yaml.path, "--to", "sqlite:" + db, "--progress", "none", "--dry-run"])
        let auto = try Leadport.run(["import", file, "--to", "sqlite:" + db, "--progress", "none", "--dry-run"])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stderr.components(separatedBy: ": ").last == auto.stderr.components(separatedBy: ": ").last)
    }

    /// A workbook of the kind fuzzing corpora hold: 54 sheets, cells at column XFD and at
    /// XFD1048576. `cat` read its first sheet at once while `inspect`, which sizes every
    /// sheet, never finished (issue 12 item 4).
    @Test func sizesEverySheetOfAHostileWorkbookInSeconds() throws {
        let started = Date()
        let result = try Leadport.run(["inspect", "fixtures/xlsx/many-sheets-cells-far-apart.xlsx", "--json"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sheets = try #require(json["sheets"] as? [[String: Any]])
        #expect(sheets.count == 54)
        #expect(sheets.first?["rows"] as? Int == 4)
        #expect(json["data_rows"] as? Int == 3)
        #expect(json["data_rows_complete"] as? Bool == true)
        // Each sheet is sized, or says it was not (the survey's time for the workbook ran out).
        for sheet in sheets where sheet["rows"] is Int {
            if sheet["complete"] as? Bool == true, (sheet["name"] as? String ?? "").hasPrefix("Corners") {
                #expect(sheet["rows"] as? Int == 1_048_576 && sheet["columns"] as? Int == 16_384)
            }
        }
    }

    @Test func csvTextNamedAsAWorkbookIsInspectedAsCSVWithANoteOnStderr() throws {
        let result = try Leadport.run(["inspect", "fixtures/xlsx/csv-text-named.xlsx"])
        #expect(result.status == 0)
        #expect(result.stderr == "leadport: fixtures/xlsx/csv-text-named.xlsx is not a workbook but CSV text; reading it as CSV\n")
        #expect(result.stdout.contains("format:     csv"))
        let cat = try Leadport.run(["cat", "fixtures/xlsx/csv-text-named.xlsx"])
        #expect(cat.stderr == result.stderr)
        #expect(cat.stdout == "[\"Name\",\"Email\"]\n[\"Ann\",\"ann@example.com\"]\n[\"Bob\",\"bob@example.com\"]\n")
    }
}

extension InspectCommandTests {
    /// A guess below the threshold is not shown as mapped: import leaves that column out (new-user
    /// trial: a street address column shown "→ address" was dropped).
    @Test func aGuessBelowTheThresholdIsShownAsNotMapped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("list.csv")
        try "Name,Property,Email\nAnn Lee,12 Main St Boston,ann@example.com\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Leadport.run(["inspect", file.path])
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("\"Property\"") })
        #expect(line.contains("(not mapped: address?") && line.contains("is below 0.70") && !line.contains("→ address ("), "\(line)")
    }
}
