import Foundation
import HTTPKit
import LeadEnrich
import LeadTesting
import Testing

/// The client against the OpenAI double (fixtures/servers/openai_double.py), over real HTTP:
/// structured answers, 429s and 5xx, a context too long, a refused key.
@Suite(.serialized) struct OpenAIClientTests {
    static let key = "sk-double-0000"
    let double: LocalServer
    let spec = try! EnrichSpec.parse("""
        model: gpt-4o-mini
        instructions: Classify each lead.
        fields:
          status: {enum: [hot, warm, cold, new]}
          score: integer
          email: {type: string, description: "the email, cleaned"}
        """, path: "spec.yaml")

    init() throws {
        double = try LocalServer(script: "servers/openai_double.py", arguments: ["--lifetime", "120", "--model", "gpt-4o-mini", "--rpm", "500", "--tpm", "200000"])
    }

    func client(key: String = key) throws -> OpenAIClient {
        OpenAIClient(config: try OpenAIConfig(environment: ["OPENAI_BASE_URL": double.url("/v1").absoluteString, "OPENAI_API_KEY": key], model: "gpt-4o-mini"),
                     backoff: BackoffPolicy(base: 0.05, cap: 0.2, maxAttempts: 6))
    }

    func request(_ rows: [[String: String]]) -> (ChatRequest, [(id: String, check: String)]) {
        let sent = rows.enumerated().map { ("r\($0.offset + 1)", "k\($0.offset + 1)x") }
        let payload = rows.enumerated().map { n, cells in cells.merging(["id": sent[n].0, "check": sent[n].1]) { $1 } }
        let json = String(decoding: try! JSONSerialization.data(withJSONObject: ["rows": payload], options: [.sortedKeys]), as: UTF8.self)
        return (ChatRequest(messages: [("system", spec.instructions), ("user", "Answer for each row. " + json)], responseFormat: spec.responseFormat, maxTokens: 400), sent)
    }

    @Test func aStructuredAnswerFillsEveryRow() throws {
        let (request, sent) = request([["Name": "Ada Lee", "Email": " ADA@Example.com "], ["Name": "Bo Ray", "Email": "bo@example.com"]])
        let answer = try client().complete(request)
        #expect(answer.finishReason == "stop" && answer.promptTokens > 0 && answer.completionTokens > 0)
        let rows = EnrichAnswer(content: answer.content, sent: sent, spec: spec)
        #expect(rows.retry.isEmpty, "\(rows.retry) \(answer.content)")
        #expect(rows.values["r1"]?["email"] == .text("ada@example.com"))
        guard case .text(let status)? = rows.values["r2"]?["status"] else { Issue.record("\(rows)"); return }
        #expect(["hot", "warm", "cold", "new"].contains(status))
    }

    /// A 429 (retry-after-ms) and a 503 storm are waited out; the answer still comes.
    @Test func rateLimitsAndServerErrorsAreWaitedOut() throws {
        try double.control("/_double/faults", ["program": [["status": 429, "retry_after_ms": 300], ["status": 503, "times": 3]]])
        let started = Date()
        let answer = try client().complete(request([["Name": "Ada"]]).0)
        #expect(!answer.content.isEmpty)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        let stats = try double.control("/_double/stats")
        #expect(stats["responses_429"] as? Int == 1)
        #expect((stats["by_status"] as? [String: Int])?["503"] == 3)
    }

    /// The swapped-ids fault is caught by the checks: no value lands in the wrong row.
    @Test func swappedIdsAreCaught() throws {
        try double.control("/_double/faults", ["program": ["swapped_ids"]])
        let (request, sent) = request([["Name": "Ada"], ["Name": "Bo"], ["Name": "Cy"]])
        let rows = EnrichAnswer(content: try client().complete(request).content, sent: sent, spec: spec)
        #expect(Set(rows.retry.keys) == ["r1", "r2"], "\(rows)")
        #expect(rows.values.keys.sorted() == ["r3"])
    }

    @Test func aPromptTooLongAndARefusedKeySayWhatToDo() throws {
        try double.control("/_double/config", ["context_window": 200])
        let long = request((1...40).map { ["Notes": "a long note about row \($0) that goes on"] }).0
        #expect { try client().complete(long) } throws: { ($0 as? OpenAIError)?.contextTooLong == true }
        do {
            _ = try client(key: "sk-wrong-1234567890abcdef").complete(request([["Name": "Ada"]]).0)
            Issue.record("a wrong key was accepted")
        } catch let error as OpenAIError {
            #expect(error.message.contains("OPENAI_API_KEY") && error.disposition == .usage, "\(error)")
            #expect(!error.message.contains("sk-wrong-1234567890abcdef"))
        }
    }
}
