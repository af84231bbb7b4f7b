import Foundation
import HTTPKit
import LeadEnrich
import LeadTesting
import Testing

/// The enrichment stage against the OpenAI double: every row ends with values, a rejection with
/// its reason, or pending; nothing lands in the wrong row (issue 14 items 3, 4, 6).
@Suite(.serialized) struct EnricherTests {
    let double: LocalServer

    init() throws {
        double = try LocalServer(script: "servers/openai_double.py", arguments: ["--lifetime", "120", "--model", "gpt-4o-mini", "--rpm", "500", "--tpm", "200000"])
    }

    func spec(_ extra: String = "") throws -> EnrichSpec {
        try EnrichSpec.parse("""
            model: gpt-4o-mini
            instructions: Classify each lead.
            fields:
              status: {enum: [hot, warm, cold, new]}
              email: {type: string, description: "the email, cleaned"}
            rows_per_request: 10
            \(extra)
            """, path: "spec.yaml")
    }

    func client() throws -> OpenAIClient {
        OpenAIClient(config: try OpenAIConfig(environment: ["OPENAI_BASE_URL": double.url("/v1").absoluteString, "OPENAI_API_KEY": "sk-double-0000"], model: "gpt-4o-mini"),
                     backoff: BackoffPolicy(base: 0.05, cap: 0.2, maxAttempts: 6))
    }

    static func rows(_ count: Int) -> [EnrichRow] {
        (1...count).map { EnrichRow(id: "r\($0)", cells: [("Name", "Person \($0)"), ("Email", " P\($0)@Example.com ")]) }
    }

    final class Outcomes: @unchecked Sendable {
        let lock = NSLock()
        var byID: [String: EnrichOutcome] = [:]
        var reports = 0
        func add(_ id: String, _ outcome: EnrichOutcome) { lock.withLock { byID[id] = outcome; reports += 1 } }
    }

    /// Faults in some requests (a swapped pair, a missing row, a wrong type, a 503 and a 429):
    /// every row is reported once, with its own email, or rejected after it was asked alone.
    @Test func everyRowEndsOnceWithItsOwnValues() throws {
        try double.control("/_double/faults", ["program": ["swapped_ids", "missing_row", "wrong_type", ["status": 503, "times": 2], ["status": 429, "retry_after_ms": 200]]])
        let outcomes = Outcomes()
        let summary = Enricher(spec: try spec(), client: try client(), concurrency: 3).run(Self.rows(100), report: outcomes.add)
        #expect(outcomes.reports == 100 && outcomes.byID.count == 100, "\(outcomes.reports)")
        for k in 1...100 {
            guard case .values(let values)? = outcomes.byID["r\(k)"] else { Issue.record("r\(k): \(String(describing: outcomes.byID["r\(k)"]))"); continue }
            #expect(values["email"] == .text("p\(k)@example.com"), "r\(k): \(values)")
        }
        #expect(summary.stopped == nil && summary.requests >= 10 && summary.promptTokens > 0)
        let injected = try double.control("/_double/stats")["injected"] as? [String: Int] ?? [:]
        #expect(["swapped_ids", "missing_row", "wrong_type"].allSatisfy { (injected[$0] ?? 0) == 1 }, "\(injected)")
        #expect((summary.cost ?? 0) > 0)
    }

    /// A budget reached stops the run cleanly: what was done is kept, the rest pending, naming it.
    @Test func aBudgetReachedLeavesTheRestPending() throws {
        let outcomes = Outcomes()
        let summary = Enricher(spec: try spec("max_cost: 0.002\nprices: {input: 1.0, output: 1.0}"), client: try client(), concurrency: 3).run(Self.rows(60), report: outcomes.add)
        #expect(outcomes.byID.count == 60)
        let pending = outcomes.byID.values.filter { if case .pending = $0 { return true }; return false }
        #expect(!pending.isEmpty && pending.count < 60, "\(pending.count)")
        #expect(summary.stopped?.contains("budget of $0.002") == true, "\(String(describing: summary.stopped))")
        // Never past it: a request is sent only when even its longest answer stays within it.
        #expect((summary.cost ?? 1) <= 0.002, "\(String(describing: summary.cost))")
    }

    /// A request longer than the model's context is split in halves until its rows fit, as
    /// OpenAI says it and as llama.cpp's server does.
    @Test(arguments: ["openai", "llamacpp"]) func aContextTooSmallForTheBatchSplitsIt(_ style: String) throws {
        try double.control("/_double/config", ["context_window": 720, "context_error": style])
        let outcomes = Outcomes()
        _ = Enricher(spec: try spec(), client: try client(), concurrency: 2).run(Self.rows(20), report: outcomes.add)
        #expect(outcomes.byID.count == 20)
        #expect(outcomes.byID.values.allSatisfy { if case .values = $0 { return true }; return false }, "\(outcomes.byID)")
        // The ten-row requests were refused for their length, and their halves answered.
        let stats = try double.control("/_double/stats")
        #expect(((stats["by_status"] as? [String: Int])?["400"] ?? 0) >= 2, "\(stats)")
    }
}
