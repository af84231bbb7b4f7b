import Foundation
import GRDB
import LeadTesting
import Testing

/// Issue 23 item 1 through the binary: `normalize name --order`, and an assessor's owner list
/// (fixtures/presets/owner-list-county-order.csv) imported with the owner-list preset into the
/// embedded SQLite tables, the webhook double and the HubSpot double.
@Suite(.serialized) struct OwnerNamesTests {
    static let countyList = "fixtures/presets/owner-list-county-order.csv"

    func lines(_ kind: String, _ arguments: [String], _ input: String) throws -> [[String: Any]] {
        let result = try Leadport.run(["normalize", kind] + arguments, stdin: Data(input.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// The export's cells, by the row's first cell (its parcel number) and the column's header.
    static func cells(_ export: URL) throws -> (String, String) -> String? {
        let rows = try CSVRows.read(export)
        let header = try #require(rows.first)
        return { apn, column in
            guard let row = rows.first(where: { $0.first == apn }), let k = header.firstIndex(of: column) else { return nil }
            return row[k]
        }
    }

    @Test func normalizeNameReadsTheOrderItIsGiven() throws {
        let county = try lines("name", ["--order", "last-first"], "SMITH JOHN & MARY\nJOHNSON ROBERT TR\nACME PROPERTIES LLC\nSMITH JOHN & JONES MARY\n")
        #expect(county[0]["given"] as? String == "John" && county[0]["family"] as? String == "Smith")
        #expect(county[0]["salutation"] as? String == "John & Mary Smith")
        #expect(county[1]["family"] as? String == "Johnson" && county[1]["designation"] as? String == "TR")
        #expect(county[2]["organization"] as? String == "Acme Properties LLC")
        #expect(county[2]["given"] is NSNull && county[2]["family"] is NSNull)
        #expect(county[3]["salutation"] as? String == "John Smith & Mary Jones")
        // The default reads given name first; auto decides for all the lines, as for a column.
        #expect(try lines("name", [], "John Smith\n")[0]["family"] as? String == "Smith")
        let auto = try lines("name", ["--order", "auto"], "SMITH JOHN A\nGARCIA MARIA\nWILLIAMS DAVID\n")
        #expect(auto.map { $0["given"] as? String } == ["John", "Maria", "David"])
        let ordinary = try lines("name", ["--order", "auto"], "JOHN SMITH\nMARY GARCIA\nDAVID WILLIAMS\n")
        #expect(ordinary.map { $0["given"] as? String } == ["John", "Mary", "David"])
        let refused = try Leadport.run(["normalize", "name", "--order", "mdy"], stdin: Data("x\n".utf8))
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("first-last, last-first or auto"))
    }

    /// A third owner and more: in `other_owners`, and named by the salutation.
    @Test func normalizeNameKeepsEveryOwner() throws {
        let out = try lines("name", ["--order", "last-first"], "SMITH JOHN & MARY & ROBERT\nSMITH JOHN & JONES MARY & DOE PAT\nSMITH JOHN & MARY\n")
        #expect(out[0]["salutation"] as? String == "John, Mary & Robert Smith")
        let others = try #require(out[0]["other_owners"] as? [[String: Any]])
        #expect(others.count == 1 && others[0]["given"] as? String == "Robert" && others[0]["family"] as? String == "Smith")
        #expect(out[1]["salutation"] as? String == "John Smith, Mary Jones & Pat Doe")
        #expect((out[1]["other_owners"] as? [[String: Any]])?.first?["family"] as? String == "Doe")
        #expect(out[2]["other_owners"] == nil)
    }

    @Test func normalizeEmailAndDateSayWhatTheyDid() throws {
        let email = try lines("email", [], "bob@example.com;\n")[0]
        #expect(email["valid"] as? Bool == true && email["normalized"] as? String == "bob@example.com")
        #expect(email["repair"] as? String == "trailing \";\" removed")
        let date = try lines("date", [], "60\n")[0]
        #expect(date["valid"] as? Bool == false && date["iso"] is NSNull)
    }

    /// The preset reads county order by itself: contacts named by their people or entity, the
    /// export's columns, and the rows' issues.
    @Test func anAssessorsListIntoTheEmbeddedTables() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-owners-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("l.db").path
        let export = dir.appendingPathComponent("out.csv")
        let result = try Leadport.run(["import", Self.countyList, "--preset", "owner-list", "--campaign", "Oak St", "--to", "sqlite:" + db,
                                       "--export", export.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try DatabaseQueue(path: db).read { try String.fetchAll($0, sql: "SELECT full_name FROM contacts ORDER BY address") }
        #expect(names == ["John & Mary Smith", "Robert Johnson", "Acme Properties LLC", "Estate of Mary Jones", "Luis A Garcia & Anna Jones",
                          "Federal National Mortgage Association", "David Williams", "First Baptist Church of Springfield", "An Van Nguyen",
                          "James L Brown"])
        let cell = try Self.cells(export)
        #expect(cell("14-27-101-001-0000", "first_name") == "John" && cell("14-27-101-001-0000", "last_name") == "Smith")
        #expect(cell("14-27-101-001-0000", "salutation") == "John & Mary Smith")
        #expect(cell("14-27-101-002-0000", "designation") == "TR" && cell("14-27-101-002-0000", "last_name") == "Johnson")
        #expect(cell("14-27-101-003-0000", "organization") == "Acme Properties LLC")
        #expect(cell("14-27-101-003-0000", "first_name") == "" && cell("14-27-101-003-0000", "last_name") == "")
        #expect(cell("14-27-101-003-0000", "salutation") == "Acme Properties LLC")
        #expect(cell("14-27-101-005-0000", "salutation") == "Luis Garcia & Anna Jones")
        #expect(cell("14-27-101-006-0000", "organization") == "Federal National Mortgage Association")
        #expect(cell("14-27-101-007-0000", "designation") == "ETUX" && cell("14-27-101-007-0000", "salutation") == "David Williams")
        #expect(cell("14-27-101-010-0000", "salutation") == "James Brown Jr")
    }

    /// Without a preset or mapping, the automatic mapping reads the owner column in the order
    /// its values show: the same people as with the preset, and an ordinary list as written.
    @Test func withoutAPresetTheNameColumnIsReadInTheOrderItsValuesShow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-owners-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("l.db").path
        let result = try Leadport.run(["import", Self.countyList, "--campaign", "Oak St", "--to", "sqlite:" + db, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try DatabaseQueue(path: db).read { try String.fetchAll($0, sql: "SELECT full_name FROM contacts ORDER BY address") }
        #expect(names.prefix(4) == ["John & Mary Smith", "Robert Johnson", "Acme Properties LLC", "Estate of Mary Jones"])
        let inspected = try Leadport.run(["inspect", Self.countyList, "--mapping-out", dir.appendingPathComponent("m.yaml").path])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("m.yaml"), encoding: .utf8).contains("order: auto"))

        let plain = dir.appendingPathComponent("plain.csv")
        try "Owner Name,Email\nJOHN SMITH,js@example.com\nMARY JONES,mj@example.com\nROBERT BROWN,rb@example.com\n".write(to: plain, atomically: true, encoding: .utf8)
        let db2 = dir.appendingPathComponent("p.db").path
        #expect(try Leadport.run(["import", plain.path, "--to", "sqlite:" + db2, "--progress", "none"]).status == 0)
        let plainNames = try DatabaseQueue(path: db2).read { try String.fetchAll($0, sql: "SELECT full_name FROM contacts ORDER BY email") }
        #expect(plainNames == ["John Smith", "Mary Jones", "Robert Brown"])
    }

    /// Property-data exports put an entity owner in the last-name column with no first name.
    @Test func anEntityInTheLastNameColumnIsAnOrganization() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let list = t.dir.appendingPathComponent("propstream-style.csv")
        try """
            Owner 1 First Name,Owner 1 Last Name,Property Address,Property City,Property State,Property Zip
            ,ACME PROPERTIES LLC,16 OAK ST,SPRINGFIELD,IL,62704
            JOHN,SMITH,12 OAK ST,SPRINGFIELD,IL,62704
            ,SMITH,14 OAK ST,SPRINGFIELD,IL,62704

            """.write(to: list, atomically: true, encoding: .utf8)
        let export = t.dir.appendingPathComponent("out.csv")
        let result = try Leadport.run(["import", list.path, "--preset", "owner-list", "--to", "sqlite:" + t.dir.appendingPathComponent("l.db").path,
                                       "--export", export.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CSVRows.read(export)
        let header = try #require(rows.first)
        func cell(_ row: Int, _ column: String) -> String? { header.firstIndex(of: column).map { rows[row][$0] } }
        #expect(cell(1, "organization") == "Acme Properties LLC" && cell(1, "last_name") == "" && cell(1, "full_name") == "Acme Properties LLC")
        #expect(cell(2, "organization") == "" && cell(2, "last_name") == "Smith" && cell(2, "salutation") == "John Smith")
        #expect(cell(3, "last_name") == "Smith" && cell(3, "salutation") == "The Smith Family")
    }

    /// A new user's owner list (issue 23 items 1 and 8): three owners on one row, a church, an
    /// LLC with initials, a bank, a government, mailing-only addresses and phone extensions,
    /// into the embedded tables and the export.
    @Test func threeOwnersChurchesAndInitialsIntoTheEmbeddedTables() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let list = t.dir.appendingPathComponent("owners.csv")
        try """
            APN,Owner Name,Mailing Address,Mailing City,Mailing State,Mailing Zip,Phone
            101-001,SMITH JOHN & MARY & ROBERT,123 MAIN ST,SPRINGFIELD,IL,62701,217-555-0101 x22
            101-002,GRACE CHURCH,PO BOX 44,SPRINGFIELD,IL,62705,
            101-003,ABC REALTY LLC,500 N STATE ST STE 200,CHICAGO,IL,60610,(312) 555-0199 ext. 5
            101-004,SMITH JOHN & JONES MARY & DOE PAT,9 ELM CT,URBANA,IL,61801,
            101-005,WELLS FARGO BANK N A,1 HOME CAMPUS,DES MOINES,IA,50328,
            101-006,AUSTIN CITY OF,PO BOX 1088,AUSTIN,TX,78767,

            """.write(to: list, atomically: true, encoding: .utf8)
        let db = t.dir.appendingPathComponent("l.db").path
        let export = t.dir.appendingPathComponent("out.csv")
        let result = try Leadport.run(["import", list.path, "--preset", "owner-list", "--campaign", "Trial", "--to", "sqlite:" + db,
                                       "--export", export.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let contacts = try DatabaseQueue(path: db).read { try Row.fetchAll($0, sql: "SELECT full_name, phone FROM contacts ORDER BY address") }
        #expect(Set(contacts.map { $0["full_name"] as String }) == ["John, Mary & Robert Smith", "Grace Church", "ABC Realty LLC",
                                                                    "John Smith, Mary Jones & Pat Doe", "Wells Fargo Bank N A", "City of Austin"])
        // FLYR's phone is the number alone (docs/destinations.md), the extension in the export.
        #expect(contacts.compactMap { $0["phone"] as String? }.sorted() == ["+12175550101", "+13125550199"])
        let cell = try Self.cells(export)
        #expect(cell("101-001", "salutation") == "John, Mary & Robert Smith" && cell("101-001", "first_name") == "John")
        #expect(cell("101-001", "phone_extension") == "22" && cell("101-003", "phone_extension") == "5")
        for apn in ["101-002", "101-003", "101-005", "101-006"] {
            #expect(cell(apn, "first_name") == "" && cell(apn, "last_name") == "" && cell(apn, "organization") == cell(apn, "salutation"), "\(apn)")
        }
        #expect(cell("101-002", "organization") == "Grace Church" && cell("101-003", "organization") == "ABC Realty LLC")
        #expect(cell("101-004", "salutation") == "John Smith, Mary Jones & Pat Doe")
    }

    /// `inspect --preset` says how the preset reads the file's name column.
    @Test func inspectSaysTheNameOrder() throws {
        func order(_ file: String, _ preset: String, _ header: String) throws -> String? {
            let result = try Leadport.run(["inspect", file, "--preset", preset, "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let columns = try #require((json["mapping"] as? [String: Any])?["columns"] as? [[String: Any]])
            return columns.first { $0["name"] as? String == header }?["name_order"] as? String
        }
        #expect(try order(Self.countyList, "owner-list", "Owner Name") == "last-first")
        #expect(try order("fixtures/presets/other-headers/owner-list-assessor-export.csv", "owner-list", "Owner(s)") == "last-first")
        #expect(try order("fixtures/presets/other-headers/generic-leads-spanish-headers.csv", "generic-leads", "Nombre Completo") == "first-last")
        let text = try Leadport.run(["inspect", Self.countyList, "--preset", "owner-list"]).stdout
        #expect(text.contains("full_name (preset owner-list), names read surname first"), "\(text)")
    }

    /// PostgreSQL's FLYR contacts are named by the entity, as the embedded tables are.
    @Test func anAssessorsListIntoPostgres() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        let run = try t.run(URL(fileURLWithPath: Self.countyList), to: db.url, extra: ["--preset", "owner-list"])
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(try db.int("SELECT count(*) FROM contacts") == 10)
        for name in ["Acme Properties LLC", "Estate of Mary Jones", "Federal National Mortgage Association", "John & Mary Smith", "Robert Johnson"] {
            #expect(try db.int("SELECT count(*) FROM contacts WHERE full_name = $1", [name]) == 1, "\(name)")
        }
    }

    /// The webhook's documents carry the organisation, the designation and the salutation.
    @Test func theWebhookGetsOrganizationAndSalutation() throws {
        let server = try LocalServer(script: "servers/scripted_http.py")
        let t = try RemoteImport()
        defer { t.remove() }
        let run = try t.run(URL(fileURLWithPath: Self.countyList), to: "webhook:" + server.url("/hook").absoluteString, extra: ["--preset", "owner-list"])
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let hooks = try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("/hooks"))) as! [[String: Any]]
        let documents = try hooks.map { try #require(try JSONSerialization.jsonObject(with: Data(($0["body"] as! String).utf8)) as? [String: Any]) }
        let acme = try #require(documents.first { $0["organization"] as? String == "Acme Properties LLC" })
        #expect(acme["full_name"] as? String == "Acme Properties LLC")
        #expect(acme["first_name"] is NSNull && acme["last_name"] is NSNull)
        #expect(acme["salutation"] as? String == "Acme Properties LLC")
        let smith = try #require(documents.first { ($0["address"] as? [String: Any])?["line"] as? String == "12 OAK ST" })
        #expect(smith["first_name"] as? String == "John" && smith["last_name"] as? String == "Smith")
        #expect(smith["salutation"] as? String == "John & Mary Smith")
        #expect(smith["organization"] is NSNull)
        let johnson = try #require(documents.first { $0["last_name"] as? String == "Johnson" })
        #expect(johnson["designation"] as? String == "TR")
    }

    /// HubSpot gets an entity as its company, with no first or last name.
    @Test func hubSpotGetsTheEntityAsItsCompany() throws {
        let double = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        let t = try RemoteImport()
        defer { t.remove() }
        let list = t.dir.appendingPathComponent("skip-traced.csv")
        try """
            Owner Name,Email,Phone,Property Address,Property City,Property State,Property Zip
            ACME PROPERTIES LLC,leasing@acme-properties.example,217-555-0103,16 OAK ST,SPRINGFIELD,IL,62704
            SMITH JOHN & MARY,jmsmith@example.com,217-555-0101,12 OAK ST,SPRINGFIELD,IL,62704
            JOHNSON ROBERT TR,rjohnson@example.com,217-555-0102,14 OAK ST,SPRINGFIELD,IL,62704

            """.write(to: list, atomically: true, encoding: .utf8)
        let environment = ["HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(double.port)"]
        let run = try t.run(list, to: "hubspot", campaign: nil, user: nil, extra: ["--preset", "owner-list"], environment: environment)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let state = try JSONSerialization.jsonObject(with: Data(contentsOf: double.url("/_double/state"))) as? [String: Any]
        let contacts = (state?["contacts"] as? [[String: Any]] ?? []).map { $0["properties"] as? [String: String] ?? [:] }
        let acme = try #require(contacts.first { $0["email"] == "leasing@acme-properties.example" })
        #expect(acme["company"] == "Acme Properties LLC")
        #expect((acme["firstname"] ?? "").isEmpty && (acme["lastname"] ?? "").isEmpty)
        let smith = try #require(contacts.first { $0["email"] == "jmsmith@example.com" })
        #expect(smith["firstname"] == "John & Mary" && smith["lastname"] == "Smith")
        #expect(smith["company"] == nil)
        let johnson = try #require(contacts.first { $0["email"] == "rjohnson@example.com" })
        #expect(johnson["firstname"] == "Robert" && johnson["lastname"] == "Johnson")
    }
}
