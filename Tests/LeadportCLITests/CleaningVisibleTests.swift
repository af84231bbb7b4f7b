import Foundation
import GRDB
import LeadTesting
import Testing

/// What cleaning decided is visible without `--export`: each row's JSON event carries its
/// issues, the summary names the columns nobody mapped and the rows without a name or a way to
/// reach them, and a list of mailing addresses alone still gives its leads an address.
@Suite struct CleaningVisibleTests {
    private func events(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// A French export (headers LeadPort was not written against), with a bad email, a phone
    /// that is words, a ZIP that lost its zero and a phone extension.
    @Test func aFrenchListIsMappedAndEveryDecisionIsInTheRowEvents() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let file = t.dir.appendingPathComponent("contacts.csv")
        try """
            Nom,Prénom,Adresse,Ville,Code postal,Téléphone,Courriel,Budget,Remarque interne
            Lee,Ann,12 Elm St,Boston,2452,617-555-0100 x22,not-an-email,5000,rappeler
            Park,Bo,9 Oak Ave,Waltham,02451,call me,bo@example.com,7000,
            ,,,,,,,,note seule

            """.write(to: file, atomically: true, encoding: .utf8)
        let export = t.dir.appendingPathComponent("processed.csv")
        let run = try Leadport.run(["import", file.path, "--to", "sqlite:" + t.dir.appendingPathComponent("l.db").path,
                                    "--progress", "jsonl", "--export", export.path])
        let all = events(run.stderr)
        let rows = Dictionary(all.filter { $0["event"] as? String == "row" }.map { ($0["row"] as! Int, $0) }) { a, _ in a }
        let ann = try #require(rows[2])
        let annIssues = (ann["issues"] as? [[String: Any]]) ?? []
        #expect(annIssues.contains { $0["code"] as? String == "invalid_email" && $0["column"] as? String == "Courriel" }, "\(annIssues)")
        #expect(annIssues.contains { ($0["message"] as? String)?.contains("2452") == true }, "\(annIssues)")
        let bo = try #require(rows[3])
        #expect((bo["issues"] as? [[String: Any]])?.contains { $0["code"] as? String == "invalid_phone" } == true, "\(bo)")
        let finished = try #require(all.first { $0["event"] as? String == "run_finished" })
        #expect(finished["unmapped_columns"] as? [String] == ["Budget", "Remarque interne"], "\(finished)")
        let plain = try Leadport.run(["import", file.path, "--to", "sqlite:" + t.dir.appendingPathComponent("m.db").path, "--progress", "plain"])
        #expect(plain.stderr.contains("2 columns not mapped to any field: \"Budget\", \"Remarque interne\""), "\(plain.stderr)")
        // The French headers were read: Ann Lee has her name, and her phone its extension.
        let processed = try CSVRows.read(export)
        let header = processed[0]
        let first = processed[1]
        #expect(first[header.firstIndex(of: "full_name")!] == "Ann Lee")
        #expect(first[header.firstIndex(of: "phone_extension")!] == "22")
    }

    @Test func rowsWithoutANameOrAWayToReachThemAreNamed() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let file = t.dir.appendingPathComponent("leads.csv")
        try """
            Name,Email,Phone,Notes
            Ann Lee,ann@example.com,,
            ,cy@example.com,,no name
            Di Ng,,,met at the open house

            """.write(to: file, atomically: true, encoding: .utf8)
        let run = try Leadport.run(["import", file.path, "--to", "sqlite:" + t.dir.appendingPathComponent("l.db").path, "--progress", "jsonl"])
        let finished = try #require(events(run.stderr).first { $0["event"] as? String == "run_finished" })
        #expect(finished["without_name"] as? Int == 1 && finished["without_contact"] as? Int == 1, "\(finished)")
        let plain = try Leadport.run(["import", file.path, "--to", "sqlite:" + t.dir.appendingPathComponent("m.db").path, "--progress", "plain"])
        #expect(plain.stderr.contains("1 row delivered without a usable name (row 3)"), "\(plain.stderr)")
        #expect(plain.stderr.contains("1 row delivered without an email, phone or address (row 4)"), "\(plain.stderr)")
    }

    /// An owner list with mailing columns alone: the campaign and the contacts get that address.
    /// Also when the headers are spelt otherwise (`Mailing Street Address`, `Mail Zipcode`): a
    /// mailing header is never the property's.
    @Test(arguments: ["Owner Name,Mailing Address,Mailing City,Mailing State,Mailing Zip",
                      "Owner Name,Mailing Street Address,Mail City,MAIL_STATE,Mailing Zipcode"])
    func aListOfMailingAddressesAloneFillsTheCampaign(header: String) throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let file = t.dir.appendingPathComponent("owners.csv")
        try """
            \(header)
            John Smith,12 Elm St,Boston,MA,02134
            Mary Jones,PO Box 12,Tampa,FL,33601

            """.write(to: file, atomically: true, encoding: .utf8)
        let db = t.dir.appendingPathComponent("flyr.db").path
        let run = try Leadport.run(["import", file.path, "--to", "sqlite:" + db, "--campaign", "Absentee owners", "--progress", "jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        let finished = try #require(events(run.stderr).first { $0["event"] as? String == "run_finished" })
        #expect((finished["mailing_as_address"] as? [String])?.count == 1, "\(finished)")
        let (addresses, contacts) = try DatabaseQueue(path: db).read { db in
            (try String.fetchAll(db, sql: "SELECT address FROM campaign_addresses ORDER BY seq"),
             try String.fetchAll(db, sql: "SELECT address FROM contacts ORDER BY full_name"))
        }
        #expect(addresses == ["12 ELM ST", "PO BOX 12"], "\(addresses)")
        #expect(contacts == ["12 ELM ST, BOSTON, MA 02134", "PO BOX 12, TAMPA, FL 33601"], "\(contacts)")
    }

    /// `00000` (an export's "no ZIP") and the other numbers below 00501 are no one's ZIP code: the
    /// row says so in its issues and its address goes without one, in the ZIP column or the
    /// address line alike; 00501, the first ZIP, is taken.
    @Test func zipsBelowTheFirstAreNamedNotTaken() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let file = t.dir.appendingPathComponent("owners.csv")
        try """
            Owner,Site Address,City,St,Zip
            Ann Lee,12 Elm St,Albany,NY,00000
            Bo Park,9 Oak Ave,Holtsville,NY,00501
            Cy Dunn,"4 Pine Rd, Troy, NY 00042",,,

            """.write(to: file, atomically: true, encoding: .utf8)
        let db = t.dir.appendingPathComponent("z.db").path
        let run = try Leadport.run(["import", file.path, "--to", "sqlite:" + db, "--campaign", "Zips", "--progress", "jsonl"])
        let rows = Dictionary(events(run.stderr).filter { $0["event"] as? String == "row" }.map { ($0["row"] as! Int, $0) }) { a, _ in a }
        func issues(_ row: Int) -> [[String: Any]] { (rows[row]?["issues"] as? [[String: Any]]) ?? [] }
        #expect(issues(2).contains { $0["code"] as? String == "invalid_address" && $0["column"] as? String == "Zip"
                && ($0["message"] as? String)?.contains("numbered from 00501") == true }, "\(issues(2))")
        #expect(!issues(3).contains { $0["code"] as? String == "invalid_address" }, "\(issues(3))")
        #expect(issues(4).contains { $0["code"] as? String == "invalid_address" && $0["column"] as? String == "Site Address"
                && ($0["message"] as? String)?.contains("00042 is not a ZIP code") == true }, "\(issues(4))")
        let postal = try DatabaseQueue(path: db).read { db in
            try Dictionary(Row.fetchAll(db, sql: "SELECT house_number, postal_code FROM campaign_addresses").map { ($0[0] as String, $0[1] as String?) }) { a, _ in a }
        }
        #expect(postal["12"] == .some(nil) && postal["9"] == "00501" && postal["4"] == .some(nil), "\(postal)")
    }
}
