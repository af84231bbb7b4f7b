import Foundation
import LeadTesting
import Testing

/// `leadport undo RUN_ID` (issue 15 item 5), the real binary: what a run created is deleted and
/// what it updated given back its values; a record a person (or a later run) changed since is
/// left alone and listed; a webhook is listed as not undoable; the undo is a run of its own.
@Suite(.serialized) struct UndoCommandTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-undo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Imports `rows` (CSV lines after the header) and returns the run's id from its events.
    func importRun(_ rows: [String], to destination: String, extra: [String] = [], environment: [String: String] = [:]) throws -> String {
        try ("Name,Email,Phone\n" + rows.joined(separator: "\n") + "\n").write(toFile: path("leads.csv"), atomically: true, encoding: .utf8)
        // Rows into a FLYR database on a server belong to its test user.
        let crms: Set<String> = ["hubspot", "followupboss", "google-contacts"]
        let user = destination.hasPrefix("sqlite:") || destination.hasPrefix("webhook:") || crms.contains(destination) ? [] : ["--user", TestPostgres.user]
        let result = try Leadport.run(["import", path("leads.csv"), "--to", destination, "--ledger", path("ledger.db"), "--progress", "jsonl"] + user + extra, in: dir, environment: environment)
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        let started = result.stderr.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.first { $0["event"] as? String == "run_started" }
        return started?["run_id"] as? String ?? ""
    }

    func undo(_ run: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> (result: Leadport.Result, records: [String: [String: Any]]) {
        let result = try Leadport.run(["undo", run, "--ledger", path("ledger.db"), "--json"] + extra, in: dir, environment: environment)
        let shown = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        var records: [String: [String: Any]] = [:]
        for d in shown?["destinations"] as? [[String: Any]] ?? [] {
            for r in d["records"] as? [[String: Any]] ?? [] { records[r["key"] as? String ?? ""] = r }
        }
        return (result, records)
    }

    static let first = ["Ann Lee,ann@example.com,6175550101", "Bo Diaz,bo@example.com,6175550102", "Cy Young,cy@example.com,6175550103"]
    static let second = ["Ann Lee,ann@example.com,6175550199", "Bo Diaz,bo@example.com,6175550102", "Cy Young,cy@example.com,6175550103", "Dee Dee,dee@example.com,6175550104"]

    /// Run A creates three contacts, run B updates Ann's phone and creates Dee, a person edits
    /// Cy. Undoing A leaves Ann (B updated it) and Cy (a person changed it) and deletes Bo;
    /// undoing B deletes Dee and gives Ann her first phone back; undoing A again deletes Ann.
    func undoesCreatesAndUpdates(to destination: String, environment: [String: String] = [:], query: (String) throws -> [String], edit: () throws -> Void) throws {
        let a = try importRun(Self.first, to: destination, environment: environment)
        let b = try importRun(Self.second, to: destination, environment: environment)
        try edit()
        let dry = try undo(a, ["--dry-run"], environment: environment)
        #expect(dry.result.status == 0 && dry.records["email:bo@example.com"]?["result"] as? String == "undone", "\(dry.result.stdout) \(dry.result.stderr)")
        #expect(try query("SELECT email FROM contacts ORDER BY email") == ["ann@example.com", "bo@example.com", "cy@example.com", "dee@example.com"], "a dry run changed something")

        let undoA = try undo(a, environment: environment)
        #expect(undoA.result.status == 0, "\(undoA.result.stderr)")
        #expect(undoA.records["email:bo@example.com"]?["result"] as? String == "undone")
        #expect(undoA.records["email:ann@example.com"]?["result"] as? String == "changed_since" && (undoA.records["email:ann@example.com"]?["detail"] as? String ?? "").contains(b))
        #expect(undoA.records["email:cy@example.com"]?["result"] as? String == "changed_since")
        #expect(try query("SELECT email FROM contacts ORDER BY email") == ["ann@example.com", "cy@example.com", "dee@example.com"])

        let undoB = try undo(b, environment: environment)
        #expect(undoB.result.status == 0, "\(undoB.result.stderr)")
        #expect(undoB.records["email:dee@example.com"]?["action"] as? String == "created" && undoB.records["email:dee@example.com"]?["result"] as? String == "undone")
        #expect(undoB.records["email:ann@example.com"]?["action"] as? String == "updated" && undoB.records["email:ann@example.com"]?["result"] as? String == "undone")
        #expect(try query("SELECT email || ' ' || phone FROM contacts ORDER BY email") == ["ann@example.com +16175550101", "cy@example.com +16175550000"])

        let again = try undo(a, environment: environment)
        #expect(again.records["email:ann@example.com"]?["result"] as? String == "undone", "\(again.result.stdout)")
        #expect(try query("SELECT email FROM contacts") == ["cy@example.com"])
        // The undo is a run of its own, and the next import sends what was taken back again.
        let runs = try Leadport.run(program: URL(fileURLWithPath: "sqlite3"), [path("ledger.db"), "SELECT count(*) FROM leadport_runs WHERE inputs LIKE 'undo %'"])
        #expect(runs.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
        _ = try importRun(Self.first, to: destination, environment: environment)
        #expect(try query("SELECT count(*) FROM contacts") == ["3"])
    }

    @Test func theEmbeddedDatabase() throws {
        let db = path("ledger.db")
        func query(_ sql: String) throws -> [String] {
            try Leadport.run(program: URL(fileURLWithPath: "sqlite3"), [db, sql]).stdout.split(separator: "\n").map(String.init)
        }
        try undoesCreatesAndUpdates(to: "sqlite:" + db, query: query) {
            _ = try query("UPDATE contacts SET phone = '+16175550000' WHERE email = 'cy@example.com'")
        }
    }

    @Test func postgreSQL() throws {
        let db = try TestPostgres()
        func query(_ sql: String) throws -> [String] { try db.connection.execute(sql).map { $0[0] ?? "" } }
        try undoesCreatesAndUpdates(to: db.url, query: query) {
            try db.connection.execute("UPDATE contacts SET phone = '+16175550000' WHERE email = 'cy@example.com'")
        }
    }

    /// Supabase's REST API (the PostgREST double over a real PostgreSQL): as for PostgreSQL.
    @Test func supabaseREST() throws {
        let db = try TestPostgres()
        let double = try LocalServer(script: "servers/postgrest_double.py", arguments: ["--db", db.url])
        let token = try JSONSerialization.jsonObject(with: Data(contentsOf: double.url("/_double/token?role=service_role"))) as? [String: Any]
        let environment = ["SUPABASE_URL": double.url("").absoluteString, "SUPABASE_SERVICE_ROLE_KEY": token?["token"] as? String ?? ""]
        func query(_ sql: String) throws -> [String] { try db.connection.execute(sql).map { $0[0] ?? "" } }
        try undoesCreatesAndUpdates(to: "supabase", environment: environment, query: query) {
            try db.connection.execute("UPDATE contacts SET phone = '+16175550000' WHERE email = 'cy@example.com'")
        }
    }

    /// HubSpot: a created contact is archived, an updated one given back its properties, each
    /// only while it holds what the run wrote (a person's edit through the API is left alone).
    @Test func hubSpot() throws {
        let double = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        let token = "pat-na1-00000000-0000-4000-8000-000000000000"
        let environment = ["HUBSPOT_TOKEN": token, "HUBSPOT_BASE_URL": "http://127.0.0.1:\(double.port)"]
        func live() throws -> [String] {
            let state = try double.control("/_double/state")
            return (state["contacts"] as? [[String: Any]] ?? []).compactMap { record in
                let properties = record["properties"] as? [String: Any] ?? [:]
                return "\(properties["email"] ?? "") \(properties["phone"] ?? "")"
            }.sorted()
        }
        let a = try importRun(Self.first, to: "hubspot", environment: environment)
        let b = try importRun(Self.second, to: "hubspot", environment: environment)
        #expect(try live().count == 4)
        // A person changes Cy's phone in HubSpot.
        let cy = (try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? []).first { ($0["properties"] as? [String: Any])?["email"] as? String == "cy@example.com" }
        let cyID = cy?["id"].map { "\($0)" } ?? ""
        let edit = try double.request("PATCH", "/crm/v3/objects/contacts/\(cyID)", headers: [("Authorization", "Bearer " + token)], json: ["properties": ["phone": "+16175550000"]])
        #expect(edit.status == 200, "\(String(describing: edit.body))")

        let undoA = try undo(a, environment: environment)
        #expect(undoA.result.status == 0, "\(undoA.result.stderr)")
        #expect(undoA.records["email:bo@example.com"]?["result"] as? String == "undone", "\(undoA.result.stdout)")
        #expect(undoA.records["email:cy@example.com"]?["result"] as? String == "changed_since")
        #expect(undoA.records["email:ann@example.com"]?["result"] as? String == "changed_since")
        let undoB = try undo(b, environment: environment)
        #expect(undoB.result.status == 0 && undoB.records["email:dee@example.com"]?["result"] as? String == "undone", "\(undoB.result.stdout) \(undoB.result.stderr)")
        #expect(undoB.records["email:ann@example.com"]?["result"] as? String == "undone", "\(undoB.result.stdout)")
        let left = try live()
        #expect(left == ["ann@example.com +16175550101", "cy@example.com +16175550000"], "\(left)")
        let archived = (try double.control("/_double/state")["archived"] as? [[String: Any]] ?? []).count
        #expect(archived == 2)
    }

    static let third = ["Ann Lee,ann@example.com,6175550199", "Bo Diaz,bo@example.com,6175550177", "Cy Young,cy@example.com,6175550103", "Dee Dee,dee@example.com,6175550104"]

    /// Issue 22 item 5, at a CRM: run B gives Ann a new phone (added to her list: phones are
    /// `append` at the CRMs that hold several) and creates Dee, run C gives Bo one, whose phones
    /// a person then changes (`edit`). Undoing C leaves Bo alone (changed since); undoing B
    /// gives Ann back her list as it was. `phones` reads a person's numbers in order. Returns
    /// the records of B's undo.
    func givesUpdatesBack(to destination: String, environment: [String: String], phones: (String) throws -> [String], edit: () throws -> Void) throws -> [String: [String: Any]] {
        _ = try importRun(Self.first, to: destination, environment: environment)
        let b = try importRun(Self.second, to: destination, environment: environment)
        let c = try importRun(Self.third, to: destination, environment: environment)
        #expect(try phones("ann@example.com") == ["+16175550101", "+16175550199"])
        #expect(try phones("bo@example.com") == ["+16175550102", "+16175550177"])
        try edit()
        let undoC = try undo(c, environment: environment)
        #expect(undoC.result.status == 0, "\(undoC.result.stderr)")
        #expect(undoC.records["email:bo@example.com"]?["result"] as? String == "changed_since", "\(undoC.result.stdout)")
        #expect(try phones("bo@example.com") == ["+16175550000"])
        let undoB = try undo(b, environment: environment)
        #expect(undoB.result.status == 0, "\(undoB.result.stderr)")
        #expect(undoB.records["email:ann@example.com"]?["action"] as? String == "updated" && undoB.records["email:ann@example.com"]?["result"] as? String == "undone",
                "\(undoB.result.stdout)")
        #expect(try phones("ann@example.com") == ["+16175550101"], "Ann's phones given back as they were")
        return undoB.records
    }

    /// Follow Up Boss: an update is given back with a PUT of the values it replaced, only while
    /// the person holds what the run wrote; a person the run created is listed, as the API
    /// deletes no one.
    @Test func followUpBoss() throws {
        let double = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "300"])
        let environment = ["FUB_API_KEY": "fub-test-key", "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": "fub-test-system-key",
                           "FUB_BASE_URL": "http://127.0.0.1:\(double.port)"]
        func people() throws -> [String: [String: Any]] {
            let all = try double.control("/_double/state")["people"] as? [[String: Any]] ?? []
            return Dictionary(all.compactMap { p in ((p["emails"] as? [[String: Any]])?.first?["value"] as? String).map { ($0, p) } }, uniquingKeysWith: { a, _ in a })
        }
        let records = try givesUpdatesBack(to: "followupboss", environment: environment,
                                           phones: { email in (try people()[email]?["phones"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String } }) {
            let bo = try #require(try people()["bo@example.com"]?["id"] as? Int)
            let auth = "Basic " + Data("fub-test-key:".utf8).base64EncodedString()
            let edit = try double.request("PUT", "/v1/people/\(bo)", headers: [("Authorization", auth), ("X-System", "LeadPort"), ("X-System-Key", "fub-test-system-key")],
                                          json: ["phones": [["value": "+16175550000"]]])
            #expect(edit.status == 200, "\(String(describing: edit.body))")
        }
        #expect(records["email:dee@example.com"]?["result"] as? String == "not_undoable")
        #expect(try people().count == 4)
    }

    static let google = (client: "undo-client.apps.googleusercontent.com", secret: "undo-client-secret-9a1", refresh: "1//undo-refresh-token-44c")

    /// The People API double for one account, and the environment that points LeadPort at it.
    static func googleDouble() throws -> (LocalServer, [String: String]) {
        let double = try LocalServer(script: "servers/google_people_double.py", arguments: [
            "--lifetime", "300", "--client-id", google.client, "--client-secret", google.secret, "--refresh-token", google.refresh])
        return (double, ["GOOGLE_CLIENT_ID": google.client, "GOOGLE_CLIENT_SECRET": google.secret, "GOOGLE_REFRESH_TOKEN": google.refresh,
                         "GOOGLE_PEOPLE_BASE_URL": double.url("").absoluteString, "GOOGLE_TOKEN_URL": double.url("/token").absoluteString])
    }

    /// Google Contacts: an update is given back by etag (only while the contact's etag is the
    /// one the run left), a create deleted.
    @Test func googleContacts() throws {
        let (double, environment) = try Self.googleDouble()
        func contacts() throws -> [String: [String: Any]] {
            let all = try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? []
            return Dictionary(all.compactMap { c in ((c["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String).map { ($0, c) } }, uniquingKeysWith: { a, _ in a })
        }
        let records = try givesUpdatesBack(to: "google-contacts", environment: environment,
                                           phones: { email in (try contacts()[email]?["phoneNumbers"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String } }) {
            let bo = try #require(try contacts()["bo@example.com"])
            let token = try double.request("POST", "/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                           raw: Data("grant_type=refresh_token&client_id=\(Self.google.client)&client_secret=\(Self.google.secret)&refresh_token=\(Self.google.refresh)".utf8))
            let access = try #require((token.body as? [String: Any])?["access_token"] as? String)
            let edit = try double.request("PATCH", "/v1/\(bo["resourceName"]!):updateContact?updatePersonFields=phoneNumbers", headers: [("Authorization", "Bearer " + access)],
                                          json: ["etag": bo["etag"]!, "phoneNumbers": [["value": "+16175550000"]]])
            #expect(edit.status == 200, "\(String(describing: edit.body))")
        }
        #expect(records["email:dee@example.com"]?["result"] as? String == "undone")
        #expect(try contacts().keys.sorted() == ["ann@example.com", "bo@example.com", "cy@example.com"])
    }

    /// Google Contacts: run B updates Ann and puts her in its campaign's label (an earlier run
    /// had none). Labelling moves her etag on, so the ledger keeps the etag she has after it:
    /// undoing B gives her phone back and takes the label off, rather than finding her changed.
    @Test func googleContactsLabelAddedByAnUpdateIsTakenOff() throws {
        let (double, environment) = try Self.googleDouble()
        func members() throws -> Int { (try double.control("/_double/state")["contactGroups"] as? [[String: Any]])?.first?["memberCount"] as? Int ?? 0 }
        _ = try importRun(Self.first, to: "google-contacts", environment: environment)
        let b = try importRun(["Ann Lee,ann@example.com,6175550199"], to: "google-contacts", extra: ["--campaign", "Spring farm"], environment: environment)
        #expect(try members() == 1)
        let undone = try undo(b, environment: environment)
        #expect(undone.result.status == 0, "\(undone.result.stderr)")
        let ann = undone.records["email:ann@example.com"]
        #expect(ann?["result"] as? String == "undone" && (ann?["detail"] as? String ?? "").contains("label \"Spring farm\" taken off"), "\(undone.result.stdout)")
        #expect(try members() == 0)
        let contacts = try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? []
        let phone = contacts.first { ($0["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String == "ann@example.com" }
            .flatMap { ($0["phoneNumbers"] as? [[String: Any]])?.first?["value"] as? String }
        #expect(phone == "+16175550101")
    }

    /// A column the run left empty that a person filled since counts as a change: the row stays.
    @Test func aColumnFilledSinceKeepsTheRow() throws {
        let db = path("ledger.db")
        let run = try importRun(["Ann Lee,ann@example.com,6175550101", "Bo Diaz,bo@example.com,6175550102"], to: "sqlite:" + db)
        _ = try Leadport.run(program: URL(fileURLWithPath: "sqlite3"), [db, "UPDATE contacts SET notes = 'met at the open house' WHERE email = 'bo@example.com'"])
        let undone = try undo(run)
        #expect(undone.records["email:ann@example.com"]?["result"] as? String == "undone")
        #expect(undone.records["email:bo@example.com"]?["result"] as? String == "changed_since", "\(undone.result.stdout)")
    }

    /// Undoing a sync's run through its configuration: the runs are found in the job's sqlite:
    /// destination, and the job's next run sends what was undone again.
    @Test func aSyncRunUndoneIsSentAgainByTheNextSync() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try "ledger: state.db\njobs:\n  - name: inbox\n    source: {files: inbox}\n    to: [sqlite:flyr.db]\n".write(toFile: path("sync.yaml"), atomically: true, encoding: .utf8)
        try "Name,Email\nAnn Lee,ann@example.com\n".write(toFile: path("inbox/a.csv"), atomically: true, encoding: .utf8)
        let first = try Leadport.run(["sync", "--config", path("sync.yaml"), "--summary-json", path("night.json")], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("night.json")))) as? [String: Any]
        let run = (summary?["jobs"] as? [[String: Any]])?.first?["run_id"] as? String ?? ""
        let undone = try Leadport.run(["undo", run, "--config", path("sync.yaml"), "--json"], in: dir)
        #expect(undone.status == 0 && undone.stdout.contains("\"sync_jobs_reset\":[\"inbox\"]"), "\(undone.stdout) \(undone.stderr)")
        let count = { try Leadport.run(program: URL(fileURLWithPath: "sqlite3"), [self.path("flyr.db"), "SELECT count(*) FROM contacts"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(try count() == "0")
        let again = try Leadport.run(["sync", "--config", path("sync.yaml")], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try count() == "1")
    }

    /// An undo done already changes nothing and records nothing; an undo is not itself undone.
    @Test func undoingTwiceChangesNothingAndAnUndoIsNotUndone() throws {
        let db = path("ledger.db")
        let run = try importRun(["Ann Lee,ann@example.com,6175550101"], to: "sqlite:" + db)
        let first = try undo(run)
        let undoRun = (try JSONSerialization.jsonObject(with: Data(first.result.stdout.utf8)) as? [String: Any])?["undo_run_id"] as? String ?? ""
        #expect(first.result.status == 0 && !undoRun.isEmpty)
        let second = try undo(run)
        let again = try JSONSerialization.jsonObject(with: Data(second.result.stdout.utf8)) as? [String: Any]
        #expect(second.result.status == 0 && again?["undo_run_id"] is NSNull, "\(second.result.stdout)")
        let ofUndo = try undo(undoRun)
        #expect(ofUndo.result.status == 2 && ofUndo.result.stderr.contains("is an undo"), "\(ofUndo.result.stderr)")
    }

    /// A webhook cannot take back what it was sent: listed, not an error.
    @Test func aWebhookRunIsListedAsNotUndoable() throws {
        let server = try LocalServer(script: "servers/scripted_http.py")
        let run = try importRun(Self.first, to: "webhook:" + server.url("/hook").absoluteString)
        let undone = try undo(run)
        #expect(undone.result.status == 0, "\(undone.result.stderr)")
        #expect(undone.records.count == 3 && undone.records.values.allSatisfy { $0["result"] as? String == "not_undoable" }, "\(undone.result.stdout)")
        let unknown = try undo("00000000-0000-4000-8000-000000000000")
        #expect(unknown.result.status == 2 && unknown.result.stderr.contains("no run"), "\(unknown.result.stderr)")
    }
}
