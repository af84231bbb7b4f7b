import Foundation
import LeadTesting
import Testing

/// `--to webhook:URL` against the catch-hook double (fixtures/servers/scripted_http.py /hook),
/// which checks the signature with Python's hmac.
@Suite(.serialized) struct WebhookDestinationTests {
    let server: LocalServer
    let t: RemoteImport
    init() throws {
        server = try LocalServer(script: "servers/scripted_http.py")
        t = try RemoteImport()
    }

    func hooks() throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("/hooks"))) as! [[String: Any]]
    }

    @Test func oneSignedDocumentPerLeadAndARerunSendsNothing() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 12)
        let hook = "webhook:" + server.url("/hook?secret=shh-its-a-secret").absoluteString
        let run = try t.run(list, to: hook, environment: ["LEADPORT_WEBHOOK_SECRET": "shh-its-a-secret"])
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(RemoteImport.count(run.outcomes, "created") == 12)
        // The receiver's own ids are the remote ids.
        #expect(run.outcomes[2]?[2] == "1")
        let received = try hooks()
        #expect(received.count == 12)
        let keys = Set(received.compactMap { ($0["headers"] as? [String: String])?["Idempotency-Key"] })
        #expect(keys.count == 12)
        let document = try JSONSerialization.jsonObject(with: Data((received[0]["body"] as! String).utf8)) as! [String: Any]
        #expect(document["email"] as? String == "person1@example.com")
        #expect(document["campaign"] as? String == "Spring farm")
        #expect((document["address"] as? [String: Any])?["postal_code"] as? String == "02134")
        #expect((document["source"] as? [String: Any])?["row"] as? Int == 2)
        // The secret in the hook's URL is not written to the report or the events.
        #expect(!run.result.stderr.contains("shh-its-a-secret"))

        let rerun = try t.run(list, to: hook, environment: ["LEADPORT_WEBHOOK_SECRET": "shh-its-a-secret"])
        #expect(RemoteImport.count(rerun.outcomes, "unchanged") == 12)
        #expect(try hooks().count == 12)
        // A changed lead is sent again under a new key.
        let edited = try t.list("leads.csv", count: 12) { k, cells in if k == 4 { cells[0] = "Quentin Lee" } }
        let third = try t.run(edited, to: hook, environment: ["LEADPORT_WEBHOOK_SECRET": "shh-its-a-secret"])
        #expect(third.outcomes[5]?[0] == "updated")
        let all = try hooks()
        #expect(all.count == 13)
        #expect(!keys.contains(((all[12]["headers"] as? [String: String])?["Idempotency-Key"]) ?? ""))
    }

    @Test func aWrongSignatureOrARefusalRejectsTheRowsWithTheAnswer() throws {
        defer { t.remove() }
        let list = try t.list("leads.csv", count: 3)
        let run = try t.run(list, to: "webhook:" + server.url("/hook?secret=right").absoluteString, environment: ["LEADPORT_WEBHOOK_SECRET": "wrong"])
        #expect(run.result.status == 3)
        #expect(RemoteImport.count(run.outcomes, "rejected") == 3)
        #expect(run.outcomes[2]?[1].contains("401") == true, "\(run.outcomes)")
        let bad = try Leadport.run(["import", list.path, "--to", "webhook:ftp://example.com/x"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("http(s) URL"))
        // Two destinations in one run are refused, not one of them silently dropped.
        let before = try hooks().count
        let two = try Leadport.run(["import", list.path, "--to", "sqlite:" + t.dir.appendingPathComponent("a.db").path, "--to", "webhook:" + server.url("/hook").absoluteString])
        #expect(two.status == 2)
        #expect(two.stderr.contains("one --to per run"), "\(two.stderr)")
        #expect(try hooks().count == before)
    }
}
