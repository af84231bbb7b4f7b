import Foundation
import HTTPKit
import LeadTesting
import Testing

/// `import --dry-run`, `--plan FILE.json` and `leadport apply` (issue 13 item 10): the real
/// binary against the embedded database, a real PostgreSQL and the HubSpot double. Each check
/// reads the row events, the plan file, the report or the destination itself.
@Suite(.serialized) struct PlanApplyTests {
    let t: RemoteImport

    init() throws { t = try RemoteImport() }

    /// `leadport ARGUMENTS…` in the test's folder, with JSON-lines progress: the result, and the
    /// row events by source row.
    func leadport(_ arguments: [String], environment: [String: String] = [:]) throws -> (result: Leadport.Result, rows: [Int: [String: Any]]) {
        let result = try Leadport.run(arguments + ["--progress", "jsonl"], in: t.dir, environment: environment)
        var rows: [Int: [String: Any]] = [:]
        for line in result.stderr.split(separator: "\n") where line.contains("\"event\":\"row\"") {
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let row = event["row"] as? Int else { continue }
            rows[row] = event
        }
        return (result, rows)
    }

    static func change(_ event: [String: Any]?, _ field: String) -> (old: String?, new: String?)? {
        guard let change = (event?["changes"] as? [String: Any])?[field] as? [String: Any] else { return nil }
        return (change["old"] as? String, change["new"] as? String)
    }

    func plan(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: t.dir.appendingPathComponent(path))) as? [String: Any])
    }

    /// The old value a plan shows is the one the database holds (typed there by an agent), not
    /// what LeadPort sent last; a rerun-unchanged row is not in the plan; nothing is written.
    @Test func aDryRunShowsEachFieldThatWouldChangeAsTheDatabaseHoldsIt() throws {
        let db = try TestPostgres()
        defer { t.remove() }
        #expect(try t.run(try t.list("leads.csv", count: 5), to: db.url).result.status == 0)
        try db.connection.execute("UPDATE contacts SET phone = '+16175559999' WHERE email = 'person3@example.com'")
        // Person 3 (row 4) gets a new phone in the file; person 6 (row 7) is new.
        _ = try t.list("leads.csv", count: 6) { k, cells in if k == 3 { cells[2] = "617-555-0333" } }
        let dry = try leadport(["import", "leads.csv", "--to", db.url, "--ledger", "ledger.db", "--campaign", "Spring farm", "--user", TestPostgres.user, "--dry-run"])
        #expect(dry.result.status == 0, "\(dry.result.stderr)")
        #expect(Self.change(dry.rows[4], "contacts.phone")?.old == "+16175559999")
        #expect(Self.change(dry.rows[4], "contacts.phone")?.new == "+16175550333")
        #expect((dry.rows[4]?["changes"] as? [String: Any])?.count == 1, "\(dry.rows[4] ?? [:])")
        #expect(dry.rows[2]?["outcome"] as? String == "unchanged" && dry.rows[2]?["changes"] == nil)
        #expect(dry.rows[7]?["outcome"] as? String == "created")
        #expect(Self.change(dry.rows[7], "contacts.email")?.new == "person6@example.com")
        #expect(Self.change(dry.rows[7], "contacts.email")?.old == nil)
        #expect(Self.change(dry.rows[7], "campaign_addresses.postal_code")?.new == "02134")
        // For people, on stdout.
        #expect(dry.result.stdout.contains("contacts.phone: \"+16175559999\" → \"+16175550333\""), "\(dry.result.stdout)")
        #expect(try db.int("SELECT count(*) FROM contacts") == 5)
        #expect(try db.int("SELECT count(*) FROM contacts WHERE phone = '+16175559999'") == 1)
    }

    /// The plan is carried out row by row: what it planned is written, a row whose database
    /// record moved since is refused naming the field, and the agent's value stays.
    @Test func applyWritesThePlanAndRefusesARowChangedAtTheDestinationSince() throws {
        let db = try TestPostgres()
        defer { t.remove() }
        #expect(try t.run(try t.list("leads.csv", count: 5), to: db.url).result.status == 0)
        _ = try t.list("leads.csv", count: 6) { k, cells in if k == 3 || k == 4 { cells[2] = "617-555-0\(k)\(k)\(k)" } }
        let made = try leadport(["import", "leads.csv", "--to", db.url, "--ledger", "ledger.db", "--campaign", "Spring farm", "--user", TestPostgres.user,
                                 "--plan", "plan.json"])
        #expect(made.result.status == 0, "\(made.result.stderr)")
        #expect(made.result.stdout.isEmpty)
        let plan = try plan("plan.json")
        let rows = try #require(plan["rows"] as? [[String: Any]])
        #expect(rows.map { $0["row"] as? Int } == [4, 5, 7])
        #expect(rows.map { $0["action"] as? String } == ["update", "update", "create"])
        // The plan names no password (the test server's URL may hold one).
        #expect(!(plan["arguments"] as? [String] ?? []).contains { $0.contains(":@") })
        let csv = try CSVRows.read(t.dir.appendingPathComponent("plan.csv"))
        #expect(csv.contains { $0[2] == "4" && $0[6] == "contacts.phone" && $0[7].hasSuffix("+16175550003") && $0[8].hasSuffix("+16175550333") }, "\(csv)")
        #expect(try db.int("SELECT count(*) FROM contacts") == 5)

        // An agent changes person 4 after the plan was made.
        try db.connection.execute("UPDATE contacts SET phone = '+16175558888' WHERE email = 'person4@example.com'")
        let applied = try leadport(["apply", "plan.json", "--report", "applied.csv"])
        #expect(applied.result.status == 3, "\(applied.result.stderr)")
        #expect(applied.rows[4]?["outcome"] as? String == "updated")
        #expect(applied.rows[5]?["outcome"] as? String == "rejected")
        // Read before #expect: given `(x?[…] as? String ?? "").contains(…)` whole, it passed whatever x held (so do the reasons below).
        let appliedReason5 = applied.rows[5]?["reason"] as? String ?? ""
        #expect(appliedReason5.contains("contacts.phone was \"+16175550004\", now \"+16175558888\""), "\(applied.rows[5] ?? [:])")
        #expect(applied.rows[7]?["outcome"] as? String == "created")
        #expect(applied.rows[2]?["outcome"] as? String == "unchanged")
        #expect(try db.int("SELECT count(*) FROM contacts") == 6)
        #expect(try db.int("SELECT count(*) FROM contacts WHERE email = 'person3@example.com' AND phone = '+16175550333'") == 1)
        #expect(try db.int("SELECT count(*) FROM contacts WHERE email = 'person4@example.com' AND phone = '+16175558888'") == 1)
        #expect(FileManager.default.fileExists(atPath: t.dir.appendingPathComponent("applied.csv").path))
        // Carried out again, the plan finds its rows written: nothing more is.
        let again = try leadport(["apply", "plan.json"])
        #expect(again.rows[4]?["outcome"] as? String == "unchanged" && again.rows[7]?["outcome"] as? String == "unchanged")
        #expect(try db.int("SELECT count(*) FROM contacts") == 6)
    }

    /// Rows the destination holds already as they would be written (another machine's import)
    /// are not in the plan, and applying it records them as unchanged, not as unplanned.
    @Test func applyRecordsRowsAlreadyAtTheDestinationAsUnchanged() throws {
        let db = try TestPostgres()
        defer { t.remove() }
        #expect(try t.run(try t.list("leads.csv", count: 2), to: db.url, ledger: "elsewhere.db").result.status == 0)
        _ = try t.list("leads.csv", count: 3)
        let arguments = ["--to", db.url, "--ledger", "ledger.db", "--campaign", "Spring farm", "--user", TestPostgres.user]
        let made = try leadport(["import", "leads.csv", "--plan", "plan.json"] + arguments)
        #expect(made.rows[2]?["outcome"] as? String == "unchanged" && made.rows[4]?["outcome"] as? String == "created", "\(made.rows)")
        #expect((try plan("plan.json")["rows"] as? [[String: Any]])?.count == 1)
        let applied = try leadport(["apply", "plan.json"])
        #expect(applied.result.status == 0, "\(applied.result.stderr)")
        #expect(applied.rows[2]?["outcome"] as? String == "unchanged" && applied.rows[3]?["outcome"] as? String == "unchanged", "\(applied.rows)")
        #expect(applied.rows[4]?["outcome"] as? String == "created")
        #expect(try db.int("SELECT count(*) FROM contacts") == 3)
    }

    /// Into the embedded database: a row edited in the file after the plan is refused, the
    /// others go as planned.
    @Test func applyRefusesARowChangedInTheFileSinceThePlan() throws {
        defer { t.remove() }
        _ = try t.list("leads.csv", count: 3)
        #expect(try leadport(["import", "leads.csv", "--plan", "plan.json"]).result.status == 0)
        _ = try t.list("leads.csv", count: 3) { k, cells in if k == 2 { cells[0] = "Someone Else" } }
        let applied = try leadport(["apply", "plan.json"])
        #expect(applied.result.status == 3, "\(applied.result.stderr)")
        #expect(applied.rows[2]?["outcome"] as? String == "created")
        #expect(applied.rows[3]?["outcome"] as? String == "rejected")
        let appliedReason3 = applied.rows[3]?["reason"] as? String ?? ""
        #expect(appliedReason3.contains("changed in the file since the plan"))
        #expect(applied.rows[4]?["outcome"] as? String == "created")
    }

    /// A plan someone edited: an output slipped into its arguments is refused as a whole, a
    /// value changed in it refuses its row; a plan made while a destination was stopped is
    /// marked incomplete and cannot be applied; the CSV beside it is its owner's alone.
    @Test func editedOrIncompletePlansAreRefused() throws {
        defer { t.remove() }
        _ = try t.list("leads.csv", count: 2)
        #expect(try leadport(["import", "leads.csv", "--plan", "plan.json"]).result.status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: t.dir.appendingPathComponent("plan.csv").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let original = try String(contentsOf: t.dir.appendingPathComponent("plan.json"), encoding: .utf8)
        try original.replacingOccurrences(of: "\"--ledger\"", with: "\"--export\",\"/tmp/leak.csv\",\"--ledger\"")
            .write(to: t.dir.appendingPathComponent("plan.json"), atomically: true, encoding: .utf8)
        let slipped = try leadport(["apply", "plan.json"])
        #expect(slipped.result.status == 2 && slipped.result.stderr.contains("--export, which no plan carries"), "\(slipped.result.stderr)")
        try original.replacingOccurrences(of: "\"contacts.full_name\":\"Person 2 Lee\"", with: "\"contacts.full_name\":\"HACKED\"")
            .write(to: t.dir.appendingPathComponent("plan.json"), atomically: true, encoding: .utf8)
        let edited = try leadport(["apply", "plan.json"])
        #expect(edited.result.status == 3, "\(edited.result.stderr)")
        #expect(edited.rows[2]?["outcome"] as? String == "created")
        let editedReason3 = edited.rows[3]?["reason"] as? String ?? ""
        #expect(editedReason3.contains("was the plan edited?"), "\(edited.rows)")

        let stopped = try leadport(["import", "leads.csv", "--to", "hubspot", "--ledger", "other.db", "--plan", "stopped.json"],
                                   environment: ["HUBSPOT_TOKEN": "pat-x", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(LocalServer.closedPort())"])
        #expect(stopped.result.stderr.contains("is incomplete"), "\(stopped.result.stderr)")
        let refused = try leadport(["apply", "stopped.json"])
        #expect(refused.result.status == 2 && refused.result.stderr.contains("hubspot stopped while it was made"), "\(refused.result.stderr)")
    }

    /// Rows of the plan the file no longer has where the plan saw them are named, and the exit
    /// status says so, rather than nothing being said.
    @Test func plannedRowsMissingFromTheFileAreReported() throws {
        defer { t.remove() }
        _ = try t.list("leads.csv", count: 3)
        #expect(try leadport(["import", "leads.csv", "--plan", "plan.json"]).result.status == 0)
        _ = try t.list("leads.csv", count: 2)
        let applied = try leadport(["apply", "plan.json"])
        #expect(applied.result.status == 3, "\(applied.result.stderr)")
        #expect(applied.result.stderr.contains("1 row of the plan was not found in the file (the first: row 4 of leads.csv"), "\(applied.result.stderr)")
        #expect(applied.rows[2]?["outcome"] as? String == "created" && applied.rows[3]?["outcome"] as? String == "created")
    }

    @Test func applyExplainsAFileThatIsNotAPlan() throws {
        defer { t.remove() }
        try "{\"rows\": []}".write(to: t.dir.appendingPathComponent("x.json"), atomically: true, encoding: .utf8)
        let result = try Leadport.run(["apply", "x.json"], in: t.dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("x.json is not a LeadPort plan"), "\(result.stderr)")
        try "{\"leadport_plan\":1,\"made_at\":\"x\",\"rows\":[\n{\"file\"".write(to: t.dir.appendingPathComponent("cut.json"), atomically: true, encoding: .utf8)
        let cut = try Leadport.run(["apply", "cut.json"], in: t.dir)
        #expect(cut.status == 2 && cut.stderr.contains("cut.json is a plan cut short"), "\(cut.stderr)")
        let missing = try Leadport.run(["apply", "nothing.json"], in: t.dir)
        #expect(missing.status == 2 && missing.stderr.hasPrefix("leadport: ") && missing.stderr.contains("nothing.json: no such plan"), "\(missing.stderr)")
    }

    /// HubSpot: a lead new to the ledger whose email HubSpot has is planned as an update of
    /// that contact, with the old values read from HubSpot; applied, it is written; a contact
    /// changed in HubSpot after the plan is refused.
    @Test func hubSpotPlansAreReadFromTheContactAndCheckedBeforeApplying() throws {
        let double = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        let token = "pat-na1-00000000-0000-4000-8000-000000000000"
        let environment = ["HUBSPOT_TOKEN": token, "HUBSPOT_BASE_URL": "http://127.0.0.1:\(double.port)"]
        defer { t.remove() }
        let seeded = try double.control("/_double/state", ["contacts": [["properties": ["email": "person1@example.com", "phone": "+16170000001", "firstname": "Person 1"]],
                                                                       ["properties": ["email": "person2@example.com", "phone": "+16170000002", "firstname": "Person 2"]]]])
        let ids = try #require(seeded["ids"] as? [String])
        _ = try t.list("leads.csv", count: 3)
        let made = try leadport(["import", "leads.csv", "--to", "hubspot", "--ledger", "ledger.db", "--plan", "plan.json"], environment: environment)
        #expect(made.result.status == 0, "\(made.result.stderr)")
        let rows = try #require(try plan("plan.json")["rows"] as? [[String: Any]])
        #expect(rows.map { $0["action"] as? String } == ["update", "update", "create"])
        let first = try #require((rows[0]["changes"] as? [String: Any])?["phone"] as? [String: Any])
        #expect(first["old"] as? String == "+16170000001" && first["new"] as? String == "+16175550001")
        #expect((try double.control("/_double/stats")["writes"] as? Int) == 0)

        // Someone edits person 2 in HubSpot after the plan.
        var request = HTTPRequest(method: "PATCH", url: double.url("/crm/v3/objects/contacts/\(ids[1])"),
                                  headers: HTTPHeaders([("Authorization", "Bearer " + token), ("Content-Type", "application/json")]),
                                  body: Data("{\"properties\":{\"phone\":\"+16179999999\"}}".utf8))
        request.timeout = 10
        #expect(try CurlTransport().send(request).status == 200)
        let applied = try leadport(["apply", "plan.json"], environment: environment)
        #expect(applied.result.status == 3, "\(applied.result.stderr)")
        #expect(applied.rows[2]?["outcome"] as? String == "updated")
        #expect(applied.rows[3]?["outcome"] as? String == "rejected")
        let appliedReason3 = applied.rows[3]?["reason"] as? String ?? ""
        #expect(appliedReason3.contains("phone was \"+16170000002\", now \"+16179999999\""), "\(applied.rows[3] ?? [:])")
        #expect(applied.rows[4]?["outcome"] as? String == "created")
        let contacts = try #require(try double.control("/_double/state")["contacts"] as? [[String: Any]])
        let phones = Dictionary(uniqueKeysWithValues: contacts.compactMap { c -> (String, String)? in
            guard let p = c["properties"] as? [String: Any], let email = p["email"] as? String else { return nil }
            return (email, p["phone"] as? String ?? "")
        })
        #expect(phones == ["person1@example.com": "+16175550001", "person2@example.com": "+16179999999", "person3@example.com": "+16175550003"])
    }

    /// Follow Up Boss and Google Contacts: a person the CRM has by email (not in the ledger) is
    /// planned as an update with the phone read from the CRM; the plan writes nothing, and
    /// applied, it is carried out.
    @Test(arguments: ["followupboss", "google-contacts"])
    func crmPlansReadThePersonAndApplyCarriesThemOut(_ destination: String) throws {
        defer { t.remove() }
        let fub = destination == "followupboss"
        let double = try fub ? LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "300"])
                              : LocalServer(script: "servers/google_people_double.py", arguments: ["--lifetime", "300", "--client-id", "c.apps.googleusercontent.com",
                                                                                                    "--client-secret", "s", "--refresh-token", "1//r"])
        let environment = fub
            ? ["FUB_API_KEY": FollowUpBossDestinationTests.key, "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": FollowUpBossDestinationTests.systemKey, "FUB_BASE_URL": "http://127.0.0.1:\(double.port)"]
            : ["GOOGLE_CLIENT_ID": "c.apps.googleusercontent.com", "GOOGLE_CLIENT_SECRET": "s", "GOOGLE_REFRESH_TOKEN": "1//r",
               "GOOGLE_PEOPLE_BASE_URL": double.url("").absoluteString, "GOOGLE_TOKEN_URL": double.url("/token").absoluteString]
        if fub {
            try double.control("/_double/seed", ["people": [["firstName": "Person 1", "lastName": "Lee", "emails": [["value": "person1@example.com"]],
                                                             "phones": [["value": "+16170000001"]]]]])
        } else {
            try double.control("/_double/seed", ["contacts": [["names": [["givenName": "Person 1", "familyName": "Lee"]], "emailAddresses": [["value": "person1@example.com"]],
                                                               "phoneNumbers": [["value": "+16170000001"]]]]])
        }
        _ = try t.list("leads.csv", count: 2)
        let made = try leadport(["import", "leads.csv", "--to", destination, "--ledger", "ledger.db", "--plan", "plan.json"], environment: environment)
        #expect(made.result.status == 0, "\(made.result.stderr)")
        let rows = try #require(try plan("plan.json")["rows"] as? [[String: Any]])
        #expect(rows.map { $0["action"] as? String } == ["update", "create"], "\(rows)")
        let field = fub ? "phones" : "phoneNumbers"
        let phone = try #require((rows.first?["changes"] as? [String: Any])?[field] as? [String: Any], "\(rows)")
        #expect((phone["old"] as? String)?.contains("+16170000001") == true && (phone["new"] as? String)?.contains("+16175550001") == true, "\(phone)")
        let state = { try double.control("/_double/state")[fub ? "people" : "contacts"] as? [[String: Any]] ?? [] }
        #expect(try state().count == 1)

        let applied = try leadport(["apply", "plan.json"], environment: environment)
        #expect(applied.result.status == 0, "\(applied.result.stderr)")
        #expect(applied.rows[2]?["outcome"] as? String == "updated" && applied.rows[3]?["outcome"] as? String == "created", "\(applied.rows)")
        let people = try state()
        #expect(people.count == 2)
        let phones = people.flatMap { ($0[field] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String } }
        #expect(phones.contains { $0.filter(\.isNumber).hasSuffix("6175550001") } && phones.contains { $0.filter(\.isNumber).hasSuffix("6175550002") }, "\(people)")
    }
}
