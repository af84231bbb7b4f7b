import Foundation
import HTTPKit
import LeadCore

/// One row to enrich: the id LeadPort gives it and the cells sent, by column header.
public struct EnrichRow: Sendable {
    public var id: String
    public var cells: [(header: String, value: String)]

    public init(id: String, cells: [(header: String, value: String)]) { (self.id, self.cells) = (id, cells) }

    /// A short token the answer must copy back with the row's id (`EnrichAnswer`): fixed by
    /// the row, so the same row is asked the same way every time.
    var check: String {
        var h = FNV64()
        h.mix(id)
        for cell in cells { h.mix(cell.header); h.mix(cell.value) }
        return String(String(h.value, radix: 36).suffix(6))
    }
}

/// What became of one row.
public enum EnrichOutcome: Sendable, Equatable {
    case values([String: EnrichValue])
    /// The model's answers for it could not be used, even asked alone: the reason.
    case rejected(String)
    /// Not processed: the budget was reached, or the endpoint stopped; the next run does it.
    case pending(String)
}

/// Sends rows to the model `rowsPerRequest` at a time, several requests in flight (each paced by
/// the client's `RateLimit`), and gives every row an outcome: a row
/// whose answer was missing, doubled or mistyped is asked for again alone, once, and then
/// rejected with the reason; a request too long for the model's context is split in halves; a
/// budget reached leaves the rows not yet sent pending.
public final class Enricher: @unchecked Sendable {
    public struct Summary: Sendable, Equatable {
        public var requests = 0
        public var promptTokens = 0
        public var completionTokens = 0
        /// Dollars, at the spec's prices (nil: unknown).
        public var cost: Double?
        /// Why the run stopped early (the budget, or an error of the endpoint), if it did.
        public var stopped: String?
        /// Whether what stopped it was the endpoint refusing the key, the model or the request
        /// (a usage problem, not one a rerun helps).
        public var refused = false

        public init() {}
    }

    private let spec: EnrichSpec
    private let client: OpenAIClient
    private let concurrency: Int
    private let prices: EnrichSpec.Prices?
    private let lock = NSCondition()
    private var queue: [(rows: [EnrichRow], alone: Bool)] = []
    private var busy = 0
    private var summary = Summary()
    /// The cost the requests in flight may still add, at most (their `max_tokens` answered in full).
    private var reserved = 0.0
    /// Told the summary so far after each request (on any thread, one call at a time).
    public var onUsage: (@Sendable (Summary) -> Void)?

    public init(spec: EnrichSpec, client: OpenAIClient, concurrency: Int = 4) {
        (self.spec, self.client, self.concurrency) = (spec, client, max(1, concurrency))
        prices = spec.prices(for: client.config.model)
        // With prices, nothing sent yet costs $0 (not "unknown").
        if prices != nil { summary.cost = 0 }
    }

    /// The request for `rows`: the spec's instructions, then the rows as `{"rows": [...]}` in the
    /// last user message, and the strict schema of the answer.
    func request(_ rows: [EnrichRow]) -> ChatRequest {
        let system = spec.instructions + "\n\nAnswer with one JSON object {\"rows\": [...]} holding one object per row given, "
            + "with the row's \"id\" and \"check\" copied exactly, and the fields asked for (null where the row does not say)."
        let payload = "{\"rows\":[" + rows.map { row in
            var o = JSONObject()
            o.set("id", row.id)
            o.set("check", row.check)
            for cell in row.cells { o.set(cell.header, cell.value) }
            return o.text
        }.joined(separator: ",") + "]}"
        // Room for each row's answer: its id, check and fields, a dozen tokens a field.
        let maxTokens = 40 + rows.count * (24 + 12 * spec.fields.count)
        return ChatRequest(messages: [("system", system), ("user", "The rows:\n" + payload)], responseFormat: spec.responseFormat, maxTokens: maxTokens)
    }

    /// Every row's outcome, in no set order, through `report` (called on any thread, one call at
    /// a time); then the summary.
    public func run(_ rows: [EnrichRow], report given: @escaping @Sendable (String, EnrichOutcome) -> Void) -> Summary {
        let reporting = NSLock()
        let report: @Sendable (String, EnrichOutcome) -> Void = { id, outcome in reporting.withLock { given(id, outcome) } }
        var start = 0
        while start < rows.count {
            let end = min(start + spec.rowsPerRequest, rows.count)
            queue.append((Array(rows[start..<end]), false))
            start = end
        }
        let workers = (0..<min(concurrency, queue.count)).map { _ in
            let thread = Thread { [self] in work(report) }
            thread.start()
            return thread
        }
        _ = workers
        lock.lock()
        while !queue.isEmpty || busy > 0 { lock.wait() }
        let done = summary
        lock.unlock()
        return done
    }

    private func work(_ report: @escaping @Sendable (String, EnrichOutcome) -> Void) {
        while true {
            lock.lock()
            while queue.isEmpty && busy > 0 { lock.wait() }
            guard !queue.isEmpty else {
                lock.broadcast()
                lock.unlock()
                return
            }
            let (rows, alone) = queue[0]
            let request = request(rows)
            let most = prices?.cost(input: request.estimatedTokens - request.maxTokens, output: request.maxTokens) ?? 0
            // Over the budget counting what the requests in flight may cost: wait for them, since
            // what they really cost may leave room for this one.
            if summary.stopped == nil, busy > 0, overBudget(adding: most) != nil {
                lock.wait()
                lock.unlock()
                continue
            }
            queue.removeFirst()
            // The budget, or an error that stopped everything: what is left stays pending.
            if let stopped = summary.stopped ?? overBudget(adding: most) {
                summary.stopped = stopped
                for row in rows { report(row.id, .pending(stopped)) }
                lock.broadcast()
                lock.unlock()
                continue
            }
            busy += 1
            reserved += most
            lock.unlock()
            let more = process(rows, request: request, alone: alone, report: report)
            lock.lock()
            busy -= 1
            reserved -= most
            queue.append(contentsOf: more)
            lock.broadcast()
            lock.unlock()
        }
    }

    /// Whether a request that may cost `most` could take the spending past the budget, counting
    /// what the requests in flight may still cost: the run stops before, never after, `max_cost`.
    /// Called with the lock held.
    private func overBudget(adding most: Double) -> String? {
        guard let budget = spec.maxCost, let prices else { return nil }
        let spent = summary.cost ?? prices.cost(input: summary.promptTokens, output: summary.completionTokens)
        guard spent + reserved + most > budget else { return nil }
        return "the budget of \(EnrichSpec.Prices.dollars(budget)) (max_cost) was reached"
    }

    /// What sending `rows` would take, without sending them (a dry run's estimate): requests,
    /// prompt tokens (characters / 4, as the endpoint counts them against its limit) and the
    /// answer tokens allowed at most; the cost at the spec's prices, with every answer as long
    /// as allowed.
    public func estimate(_ rows: [EnrichRow]) -> (requests: Int, promptTokens: Int, completionTokens: Int, cost: Double?) {
        var total = (requests: 0, promptTokens: 0, completionTokens: 0)
        var start = 0
        while start < rows.count {
            let end = min(start + spec.rowsPerRequest, rows.count)
            let request = request(Array(rows[start..<end]))
            total.requests += 1
            total.promptTokens += request.estimatedTokens - request.maxTokens
            total.completionTokens += request.maxTokens
            start = end
        }
        return (total.requests, total.promptTokens, total.completionTokens, prices?.cost(input: total.promptTokens, output: total.completionTokens))
    }

    /// One request; returns the work it leaves (rows to ask again alone, halves to send).
    private func process(_ rows: [EnrichRow], request: ChatRequest, alone: Bool, report: @escaping @Sendable (String, EnrichOutcome) -> Void) -> [(rows: [EnrichRow], alone: Bool)] {
        let answer: ChatAnswer
        do {
            answer = try client.complete(request)
        } catch let error as OpenAIError where error.contextTooLong {
            guard rows.count > 1 else {
                report(rows[0].id, .rejected("the row is longer than the model's context takes (\(error.message))"))
                return []
            }
            return [(Array(rows.prefix(rows.count / 2)), alone), (Array(rows.dropFirst(rows.count / 2)), alone)]
        } catch {
            lock.withLock {
                if summary.stopped == nil {
                    summary.stopped = "\(error)"
                    summary.refused = (error as? any Classified)?.disposition == .usage
                }
            }
            for row in rows { report(row.id, .pending("not processed: \(error)")) }
            return []
        }
        lock.withLock {
            summary.requests += 1
            summary.promptTokens += answer.promptTokens
            summary.completionTokens += answer.completionTokens
            summary.cost = prices?.cost(input: summary.promptTokens, output: summary.completionTokens)
            onUsage?(summary)
        }
        let parsed = EnrichAnswer(content: answer.content, sent: rows.map { ($0.id, $0.check) }, spec: spec)
        var again: [(rows: [EnrichRow], alone: Bool)] = []
        for row in rows {
            if let values = parsed.values[row.id] {
                report(row.id, .values(values))
            } else if alone {
                report(row.id, .rejected(parsed.retry[row.id] ?? "no answer for this row"))
            } else {
                again.append(([row], true))
            }
        }
        return again
    }
}
