import Foundation
import GRDB
import LeadStore
import LeadTesting
import Testing

@Suite struct ImportBehaviourTests {
    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-behaviour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Outcome and reason by row from a report file.
    private func outcomes(_ url: URL) throws -> [Int: [String]] {
        var result: [Int: [String]] = [:]
        for cells in try CSVRows.read(url).dropFirst() { result[Int(cells[2])!] = [cells[4], cells[6]] }
        return result
    }

    @Test func inFileDuplicatesNameTheirRowAndWhy() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("dupes.csv")
        try """
            Name,Email,Phone,Address,City,State,Zip
            Ann Lee,ann@example.com,,,,,
            Ann Lee,ANN@Example.com ,,,,,
            Bob Stone,,(617) 555-0101,,,,
            Robert Stone,,617.555.0101,,,,
            Bob Other,,617-555-0101,,,,
            Cy Park,,,12 North Main Street Apt 4,Boston,MA,02134
            C Park,,,12 N Main St #4,Boston,MA,2134
            Dee Park,,,12 N Main St #5,Boston,MA,02134
            """.write(to: csv, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("report.csv")
        let result = try Leadport.run(["import", csv.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path,
                                       "--report", report.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let o = try outcomes(report)
        #expect(o[3] == ["skipped", "duplicate of row 2 (same email)"])
        #expect(o[5] == ["skipped", "duplicate of row 4 (same phone and family name)"])
        #expect(o[6]?[0] == "created")  // same phone, another family
        #expect(o[8] == ["skipped", "duplicate of row 7 (same address and unit)"])
        #expect(o[9]?[0] == "created")  // another unit
    }

    @Test func aTitleRowDoesNotMakeEveryRowRaggedAndWideRowsLineUp() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("titled.csv")
        var text = "Spring farm list\nName,Email\nAnn Lee,ann@example.com\nBob Stone,bob@example.com,extra\n,not-an-email\n"
        // Past the rows read ahead to plan the columns, a row wider still.
        for k in 0..<250 { text += "Person \(k),p\(k)@example.com\n" }
        text += "Cy Park,cy@example.com,x,y,z\n"
        try text.write(to: csv, atomically: true, encoding: .utf8)
        let export = dir.appendingPathComponent("out.csv")
        let rejects = dir.appendingPathComponent("rejects.csv")
        _ = try Leadport.run(["import", csv.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--export", export.path,
                              "--rejects", rejects.path, "--progress", "none"])
        let rows = try CSVRows.read(export)
        // The sampled rows are three wide: the unnamed third column is called C.
        #expect(Array(rows[0].prefix(4)) == ["Name", "Email", "C", "full_name"])
        let issues = try #require(rows[0].firstIndex(of: "issues"))
        let byRow = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0.last!, $0) })
        #expect(byRow["3"]?[issues] == "")
        #expect(byRow["4"]?[2] == "extra" && byRow["4"]?[3] == "Bob Stone" && byRow["4"]?[issues] == "")
        let cy = try #require(byRow["256"])
        #expect(cy.count == rows[0].count)
        #expect(cy[2] == "x" && cy[3] == "Cy Park")
        #expect(cy[issues] == "row has 5 cells where the list has 3 columns; beyond them: \"y\", \"z\"")
        // The rejected row's reason is what is wrong with it, not the title row's width.
        let rejected = try CSVRows.read(rejects)
        #expect(rejected.count == 2)
        #expect(rejected[1].last == "email \"not-an-email\": no @ in the address")
        #expect(rejected[1][rejected[1].count - 2] == "normalize")
    }

    @Test func anOutputOverAnInputIsRefusedBeforeAnythingIsWritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("list.csv")
        let original = "Name,Email\nAnn Lee,ann@example.com\n"
        try original.write(to: csv, atomically: true, encoding: .utf8)
        let db = "sqlite:" + dir.appendingPathComponent("l.db").path
        for args in [["--export", csv.path], ["--rejects", dir.path + "/./list.csv"], ["--report", dir.appendingPathComponent("r.csv").path,
                                                                                        "--rejects", dir.appendingPathComponent("r.csv").path]] {
            let result = try Leadport.run(["import", csv.path, "--to", db, "--progress", "none"] + args)
            #expect(result.status == 2, "\(args): \(result.stderr)")
        }
        #expect(try String(contentsOf: csv, encoding: .utf8) == original)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("l.db").path))
    }

    @Test func aFileGivenTwiceIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("list.csv")
        try "Name,Email\nAnn Lee,\n".write(to: csv, atomically: true, encoding: .utf8)
        let result = try Leadport.run(["import", csv.path, dir.path + "/./list.csv", "--to", "sqlite:" + dir.appendingPathComponent("l.db").path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is given twice"), "\(result.stderr)")
    }

    @Test func theLedgerFollowsTheDatabaseNotThePathItWasOpenedBy() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("list.csv")
        try "Name,Email\nAnn Lee,ann@example.com\nBob Stone,\n".write(to: csv, atomically: true, encoding: .utf8)
        func run(_ db: String) throws -> Leadport.Result { try Leadport.run(["import", csv.path, "--campaign", "C", "--to", "sqlite:" + db, "--progress", "none"]) }
        let first = try run(dir.path + "/l.db")
        #expect(first.stderr.contains("created 2,"), "\(first.stderr)")
        // The store is closed as the run ends: its write-ahead log is folded back into the
        // file, which is then whole on its own (a log left behind made the move below lose
        // the first run, now and then).
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/l.db-wal"), "\(first.stderr)")
        // Another spelling of the same path, then the file moved elsewhere.
        let again = try run(dir.path + "/./l.db")
        #expect(again.stderr.contains("created 0, updated 0, unchanged 2"), "\(again.stderr)")
        try FileManager.default.moveItem(at: dir.appendingPathComponent("l.db"), to: dir.appendingPathComponent("moved.db"))
        let moved = try run(dir.path + "/moved.db")
        #expect(moved.stderr.contains("created 0, updated 0, unchanged 2"), "\(moved.stderr)")
        #expect(try LeadStore(path: dir.path + "/moved.db").count("contacts") == 2)
    }

    @Test func aChangedLeadIsUpdatedInPlaceAndThenUnchanged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("list.csv")
        let path = dir.appendingPathComponent("l.db").path
        let args = ["import", csv.path, "--campaign", "C", "--to", "sqlite:" + path, "--progress", "none"]
        try "Name,Email,Phone,Address\nAnn Lee,ann@example.com,617-555-0100,1 Main St Boston MA 02134\nBob Stone,bob@example.com,,\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        let first = try Leadport.run(args)
        #expect(first.stderr.contains("created 2, updated 0, unchanged 0"), "\(first.stderr)")
        try "Name,Email,Phone,Address\nAnn Lee,ann@example.com,617-555-0199,2 Main St Boston MA 02134\nBob Stone,bob@example.com,,\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        let second = try Leadport.run(args)
        #expect(second.stderr.contains("created 0, updated 1, unchanged 1"), "\(second.stderr)")
        let third = try Leadport.run(args)
        #expect(third.stderr.contains("created 0, updated 0, unchanged 2"), "\(third.stderr)")
        let store = try LeadStore(path: path)
        #expect(try store.count("contacts") == 2)
        #expect(try store.count("campaign_addresses") == 1)
        #expect(try store.foreignKeyViolations() == 0)
        let ann = try DatabaseQueue(path: path).read { db in try Row.fetchOne(db, sql: "SELECT phone, address FROM contacts WHERE full_name = 'Ann Lee'") }
        #expect(ann?["phone"] as String? == "+16175550199")
        #expect((ann?["address"] as String?)?.hasPrefix("2 MAIN ST") == true)
    }

    @Test func addressKeysIgnoreTheAddressStyle() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("written.csv")
        try "Address,City,State,Zip\n45 Elm Avenue Apartment 2,Boston,MA,02134\n45 ELM AVE #2,Boston,MA,02134\n".write(to: csv, atomically: true, encoding: .utf8)
        let mapping = dir.appendingPathComponent("m.yaml")
        try """
            target: campaign_addresses
            columns: {Address: address, City: city, State: state, Zip: zip}
            defaults: {address_style: as-written}
            dedupe: [address]
            """.write(to: mapping, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("report.csv")
        let result = try Leadport.run(["import", csv.path, "--mapping", mapping.path, "--campaign", "C", "--to", "sqlite:" + dir.appendingPathComponent("l.db").path,
                                       "--report", report.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try outcomes(report)[3] == ["skipped", "duplicate of row 2 (same address and unit)"])
    }

    @Test func regionAndDateOrderApplyToEveryFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for (k, (name, phone, date)) in [("Ann Lee", "020 7946 0958", "03/04/2024"), ("Bob Stone", "020 7946 0959", "05/06/2024")].enumerated() {
            let csv = dir.appendingPathComponent("list\(k).csv")
            try "Name,Phone,Date\n\(name),\(phone),\(date)\n".write(to: csv, atomically: true, encoding: .utf8)
            files.append(csv.path)
        }
        let export = dir.appendingPathComponent("out.csv")
        let result = try Leadport.run(["import"] + files + ["--region", "GB", "--date-order", "dmy", "--to", "sqlite:" + dir.appendingPathComponent("l.db").path,
                                                            "--export", export.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CSVRows.read(export)
        let header = rows[0]
        // The list's own `Phone` makes the cleaned one `phone (cleaned)`.
        let phone = try #require(header.firstIndex(of: "phone (cleaned)"))
        let date = try #require(header.firstIndex(of: "date (cleaned)"))
        let data = rows.filter { $0 != header }
        #expect(data.map { $0[phone] } == ["'+442079460958", "'+442079460959"])
        #expect(data.map { $0[date] } == ["2024-04-03", "2024-06-05"])
    }

    @Test func runStartedCountsDataRowsAndBatchesAreReported() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Leadport.run(["import", "fixtures/xlsx/messy-open-house-leads.xlsx", "--to", "sqlite:" + dir.appendingPathComponent("l.db").path,
                                       "--progress", "jsonl"])
        let events = try result.stderr.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let started = try #require(events.first)
        #expect(started["event"] as? String == "run_started")
        // Rows 5-13: the title rows and the header are not rows of the list.
        #expect(started["total"] as? Int == 9)
        #expect(events.filter { $0["event"] as? String == "row" }.count == 9)
        let batches = events.filter { $0["event"] as? String == "batch" }
        #expect(batches.count == 1)
        #expect(batches.first?["size"] as? Int == 6 && batches.first?["status"] as? String == "ok" && batches.first?["attempt"] as? Int == 1)
        let times = events.compactMap { $0["t"] as? Double }
        #expect(times == times.sorted() && times.count == events.count)
    }

    /// A list longer than one transaction (10,000 rows) is written in several, each reported
    /// as a batch once committed; every row gets exactly one outcome, in the report and in the
    /// row events, whichever transaction it fell in.
    @Test func aListLongerThanATransactionIsCommittedInPartsAndEveryRowReportedOnce() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("long.csv")
        var text = "Name,Email,Phone\n"
        // 25,000 rows: every 1,000th repeats the row before it (a duplicate), every 1,000th
        // after that has nothing to import (rejected).
        for k in 0..<25_000 {
            if k % 1000 == 999 { text += "Person \(k - 1),p\(k - 1)@example.com,\n" } else if k % 1000 == 500 { text += ",not an email,\n" } else {
                text += "Person \(k),p\(k)@example.com,\n"
            }
        }
        try text.write(to: csv, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("report.csv")
        let result = try Leadport.run(["import", csv.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--report", report.path,
                                       "--progress", "jsonl"])
        #expect(result.status == 3, "\(result.stderr.suffix(300))")
        let events = try result.stderr.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let rows = events.filter { $0["event"] as? String == "row" }.compactMap { $0["row"] as? Int }
        #expect(rows == Array(2...25_001))
        let batches: [Int] = events.filter { $0["event"] as? String == "batch" }.compactMap { $0["size"] as? Int }
        let largest: Int = batches.max() ?? 0
        let written: Int = batches.reduce(0, +)
        #expect(batches.count >= 3 && largest <= 10_000, "\(batches)")
        #expect(written == 24_950)
        let finished = try #require(events.last)
        let counts: [Int?] = ["created", "skipped", "rejected"].map { finished[$0] as? Int }
        #expect(counts == [24_950, 25, 25])
        let reported = try outcomes(report)
        #expect(reported.count == 25_000 && reported.keys.sorted() == Array(2...25_001))
        #expect(reported.values.filter { $0[0] == "created" }.count == 24_950)
        let db = try DatabaseQueue(path: dir.appendingPathComponent("l.db").path)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM contacts") } == 24_950)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM leadport_ledger") } == 24_950)
    }

    @Test func theBarRedrawsAtMostTenTimesASecond() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("many.csv")
        var text = "Name,Email,Phone\n"
        for k in 0..<20_000 { text += "Person \(k),p\(k)@example.com,617555\(String(format: "%04d", k % 10_000))\n" }
        try text.write(to: csv, atomically: true, encoding: .utf8)
        let result = try Leadport.run(["import", csv.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--progress", "bar"])
        #expect(result.status == 0, "\(result.stderr.suffix(300))")
        let redraws = result.stderr.components(separatedBy: "\r\u{1B}[K").count - 1
        // (The summary is followed by the run's id.)
        let summary = try #require(result.stderr.split(separator: "\n").first { $0.contains(" rows in ") })
        let seconds = try #require(Double(summary.split(separator: " ")[3]))
        // At most one redraw per 100 ms, plus the final one; and it does draw.
        #expect(redraws >= 1)
        #expect(Double(redraws) <= seconds * 10 + 1, "\(redraws) redraws in \(seconds) s")
        #expect(summary.hasPrefix("20000 rows in "))
        #expect(result.stderr.contains("20000/20000 rows"))
    }

    @Test func theProcessedWorkbookKeepsPhonesAndZipsAsTextAndDatesAsDates() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = dir.appendingPathComponent("processed.xlsx")
        let result = try Leadport.run(["import", "fixtures/presets/owner-list-xlsxwriter.xlsx", "--preset", "owner-list",
                                       "--to", "sqlite:" + dir.appendingPathComponent("l.db").path, "--export", export.path, "--progress", "none"])
        #expect(result.status == 3, "\(result.stderr)")
        let dump = try Leadport.run(program: URL(fileURLWithPath: "python3"), [Fixture.url("verify/openpyxl_dump.py").path, export.path])
        #expect(dump.status == 0, "\(dump.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        #expect(json["sheets"] as? [String] == ["owner-list-xlsxwriter"])
        let sheet = try #require((json["content"] as? [String: Any])?["owner-list-xlsxwriter"] as? [String: Any])
        let rows = try #require(sheet["rows"] as? [[[Any]]])
        let header = rows[0].map { $0[0] as? String ?? "" }
        let john = rows[1]
        func cell(_ name: String) throws -> [Any] { john[try #require(header.firstIndex(of: name))] }
        #expect(try cell("phone")[0] as? String == "+16175550142")
        #expect(try cell("phone")[1] as? String == "s")
        #expect(try cell("zip")[0] as? String == "02108")
        #expect(try cell("date")[0] as? String == "2019-06-14")
        #expect(try cell("date")[1] as? String == "d")
        #expect(try cell("_source_row")[0] as? Int == 4)
        #expect(try cell("_status")[0] as? String == "created")
        // The original cells as read: the ZIP Excel stored as a number stays the number it was
        // (the cleaned `zip` beside it is the text 02108).
        #expect(try cell("Property Zip")[0] as? Int == 2108)
        #expect(try cell("Property Zip")[1] as? String == "n")
    }

    /// An ambiguous date names the option of the command in use: normalize's --order, import's --date-order.
    @Test func ambiguousDateNamesTheCommandsOwnOption() throws {
        let normalize = try Leadport.run(["normalize", "date"], stdin: Data("03/04/2024\n".utf8))
        #expect(normalize.status == 0, "\(normalize.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(normalize.stdout.utf8)) as? [String: Any]
        #expect(object?["ambiguous"] as? Bool == true)
        #expect(object?["problem"] as? String == "day and month could be either way round; give --order mdy or dmy", "\(normalize.stdout)")
        let ordered = try Leadport.run(["normalize", "date", "--order", "dmy"], stdin: Data("03/04/2024\n".utf8))
        #expect(ordered.stdout.contains("\"iso\":\"2024-04-03\""), "\(ordered.stdout) \(ordered.stderr)")
    }

    /// Several CSV inputs whose columns differ go into a CSV --export or --rejects under one
    /// header, the union of their columns in first-seen order; each row's cells under its own
    /// column names, and no input's header among the rows.
    @Test func severalInputsWithOtherColumnsShareOneCSVHeader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.csv"), b = dir.appendingPathComponent("b.csv")
        try "Name,Email\nAnn Lee,ann@example.com\n".write(to: a, atomically: true, encoding: .utf8)
        try "Email,Note,Name\nbob@example.com,hi,Bob Ray\n,just a note,\n".write(to: b, atomically: true, encoding: .utf8)
        let export = dir.appendingPathComponent("out.csv"), rejects = dir.appendingPathComponent("rejects.csv")
        let result = try Leadport.run(["import", a.path, b.path, "--to", "sqlite:" + dir.appendingPathComponent("l.db").path,
                                       "--export", export.path, "--rejects", rejects.path, "--progress", "none"])
        #expect(result.status == 3, "\(result.stderr)")
        let rows = try CSVRows.read(export)
        #expect(Array(rows[0].prefix(4)) == ["Name", "Email", "Note", "full_name"])
        let headers = rows.filter { row in ["Name", "Email"].contains(row.first ?? "") }
        #expect(headers.count == 1, "\(rows)")
        #expect(rows.contains { Array($0.prefix(3)) == ["Ann Lee", "ann@example.com", ""] })
        #expect(rows.contains { Array($0.prefix(3)) == ["Bob Ray", "bob@example.com", "hi"] })
        #expect(rows.allSatisfy { $0.count == rows[0].count })
        let rejected = try CSVRows.read(rejects)
        #expect(rejected.count == 2, "\(rejected)")
        #expect(Array(rejected[0].prefix(4)) == ["Name", "Email", "Note", "_source_file"])
        #expect(Array(rejected[1].prefix(3)) == ["", "", "just a note"] && rejected[1][3].hasSuffix("b.csv"), "\(rejected)")
    }
}

@Suite struct PhoneLibraryTests {
    /// Issue 12: a binary built without the separate phone library answered every phone with
    /// "cannot load the phone library" and imported contacts without their phones. The phone
    /// rule is now part of the binary: a copy of it alone, in a folder of its own, parses
    /// phones and stores them.
    @Test func aCopyOfTheBinaryAloneParsesAndStoresPhones() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("leadport")
        try FileManager.default.copyItem(at: Leadport.binary, to: alone)
        let phone = try Leadport.run(program: alone, ["normalize", "phone"], stdin: Data("617-555-0100\n".utf8))
        #expect(phone.stdout.contains("\"e164\":\"+16175550100\""), "\(phone.stdout)")
        let list = dir.appendingPathComponent("list.csv")
        try Data("Name,Phone\nAnn Lee,(617) 555-0100\n".utf8).write(to: list)
        let db = dir.appendingPathComponent("out.db")
        let run = try Leadport.run(program: alone, ["import", list.path, "--to", "sqlite:" + db.path, "--progress", "none"])
        #expect(run.status == 0, "\(run.stderr)")
        let phones = try DatabaseQueue(path: db.path).read { try String.fetchAll($0, sql: "SELECT phone FROM contacts") }
        #expect(phones == ["+16175550100"])
    }
}

/// Issue 12, in the embedded database: `--campaign ID` uses the campaign with that id whoever
/// owns it (its contacts are the owner's when no --user is given); an unknown id is an error.
@Suite struct CampaignByIDTests {
    @Test func anExistingCampaignIdIsUsedAndAnUnknownOneIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-campaign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("flyr.db").path
        try LeadStore(path: path).close()
        let owner = "7d0c3a52-1f6b-4e8a-9c1d-2b3e4f5a6b7c", id = "2c9f1e7a-5b3d-4a6c-8e0f-1a2b3c4d5e6f"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO campaigns (id, owner_id, name, type, address_source, status) VALUES (?, ?, 'Made in FLYR', 'flyer', 'import_list', 'active')",
                           arguments: [id, owner])
        }
        let list = dir.appendingPathComponent("list.csv")
        try Data("Name,Email,Address,City,State,Zip\nAnn Lee,ann@example.com,12 Oak St,Salem,MA,01970\nBo Park,bo@example.com,14 Oak St,Salem,MA,01970\n".utf8).write(to: list)
        let run = try Leadport.run(["import", list.path, "--to", "sqlite:" + path, "--campaign", id.uppercased(), "--progress", "none"])
        #expect(run.status == 0, "\(run.stderr)")
        let (campaigns, addresses, users) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM campaigns"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM campaign_addresses WHERE campaign_id = ?", arguments: [id]),
             try String.fetchAll(db, sql: "SELECT DISTINCT user_id FROM contacts WHERE campaign_id = ?", arguments: [id]))
        }
        #expect(campaigns == 1 && addresses == 2)
        #expect(users == [owner])
        let missing = "2c9f1e7a-5b3d-4a6c-8e0f-000000000000"
        let unknown = try Leadport.run(["import", list.path, "--to", "sqlite:" + path, "--campaign", missing, "--progress", "none"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no campaign with the id \(missing)"), "\(unknown.stderr)")
        #expect(try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM campaigns") } == 1)
    }
}

/// A sheet thousands of columns wide is planned on a bounded sample (as `inspect` surveys it)
/// and still maps its columns by header and by value.
@Suite struct WideSheetPlanTests {
    @Test func aVeryWideListStillMapsItsColumns() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-wide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let filler = (0..<3_000).map { "Field \($0)" }
        var text = (["Name", "Contact info"] + filler).joined(separator: ",") + "\n"
        for k in 1...30 {
            text += (["Person \(k) Lee", "person\(k)@example.com"] + filler.indices.map { "\($0 % 7)" }).joined(separator: ",") + "\n"
        }
        let list = dir.appendingPathComponent("wide.csv")
        try Data(text.utf8).write(to: list)
        let db = dir.appendingPathComponent("out.db")
        let run = try Leadport.run(["import", list.path, "--to", "sqlite:" + db.path, "--progress", "none"])
        #expect(run.status == 0, "\(run.stderr)")
        let emails = try DatabaseQueue(path: db.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM contacts WHERE email LIKE 'person%@example.com'") }
        #expect(emails == 30)
    }
}
