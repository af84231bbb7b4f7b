import Foundation
import HTTPKit
import LeadConnectors
import LeadTesting
import Testing

/// The webhook against a real catch-hook double on this machine, which checks the signature
/// with Python's own hmac.
@Suite(.serialized) struct WebhookTests {
    let server: LocalServer
    init() throws { server = try LocalServer(script: "servers/scripted_http.py") }

    private func webhook(_ path: String, secret: String?) -> Webhook {
        Webhook(url: server.url(path), secret: secret,
                client: HTTPClient(transport: CurlTransport(), [Retry(policy: BackoffPolicy(base: 0.02, cap: 0.05, maxAttempts: 3))]))
    }

    private func recorded() throws -> [[String: Any]] {
        let body = try CurlTransport().send(HTTPRequest(url: server.url("/hooks"))).body
        return try JSONSerialization.jsonObject(with: body) as? [[String: Any]] ?? []
    }

    @Test func eachLeadIsOneSignedDocumentWithItsIdempotencyKey() throws {
        let document = Data(#"{"email":"ann@example.com","full_name":"Ann Lee"}"#.utf8)
        let result = try webhook("/hook?secret=hook-secret-1", secret: "hook-secret-1").send(document, idempotencyKey: "email:ann@example.com|run-1")
        #expect(result == .created(remoteID: "1"), "the receiver's id")
        let hooks = try recorded()
        #expect(hooks.count == 1)
        let sent = try #require(hooks.first?["headers"] as? [String: String])
        let headers = HTTPHeaders(sent.map { ($0.key, $0.value) })  // looked up whatever the case
        #expect(headers["Idempotency-Key"] == "email:ann@example.com|run-1")
        #expect(hooks.first?["body"] as? String == String(decoding: document, as: UTF8.self))
        #expect(headers["X-LeadPort-Signature"]?.hasPrefix("sha256=") == true)
    }

    /// Issue 13 item 5: a hook that refuses the signature refuses every document, so the
    /// refusal stops the destination instead of rejecting each row in turn.
    @Test func aWrongSecretIsARefusalOfTheHookNotOfTheLead() throws {
        #expect {
            try webhook("/hook?secret=the-right-one", secret: "a-wrong-one").send(Data("{}".utf8), idempotencyKey: "k")
        } throws: { error in
            let text = "\(error)"
            return error is Webhook.Refused && text.contains("401") && text.contains("LEADPORT_WEBHOOK_SECRET") && !text.contains("a-wrong-one")
        }
        #expect(try recorded().count == 1, "not retried")
    }

    @Test func aReceiverThatKeepsFailingLeavesTheLeadForARerun() throws {
        let result = try webhook("/hook?status=503", secret: nil).send(Data("{}".utf8), idempotencyKey: "k")
        guard case .failed = result else { Issue.record("\(result)"); return }
        #expect(try recorded().count == 3, "three attempts, each with the same key")
        let keys = try recorded().compactMap { ($0["headers"] as? [String: String]).flatMap { HTTPHeaders($0.map { ($0.key, $0.value) })["Idempotency-Key"] } }
        #expect(keys == ["k", "k", "k"])
    }

    @Test func theSignatureIsHMACSHA256OfTimestampDotBodyAsPythonComputesIt() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import hmac,hashlib;print(hmac.new(b'Jefe',b'1700000000.{\\\"a\\\":1}',hashlib.sha256).hexdigest())"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let expected = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(expected.count == 64)
        #expect(Webhook.signature(body: Data(#"{"a":1}"#.utf8), timestamp: "1700000000", secret: "Jefe") == "sha256=" + expected)
    }
}
