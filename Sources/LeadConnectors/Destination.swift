import Foundation
import HTTPKit

/// What a destination can take, declared once; the engine batches and paces from these values
/// alone.
public struct DestinationCapabilities: Sendable, Equatable {
    /// Rows per request (Supabase REST 500, HubSpot 100, a webhook 1).
    public var largestBatch: Int
    /// The keys the remote side itself dedupes by, when any (`email` for HubSpot's upsert); the
    /// ledger covers the rest.
    public var remoteDedupeKeys: [String]
    /// Requests per interval the destination allows (the rate limiter's starting budget).
    public var requests: Int
    public var per: Double
    /// Whether a batch can be an upsert (sent twice, it changes nothing): only then is a batch
    /// whose answer was lost sent again.
    public var upserts: Bool

    public init(largestBatch: Int, remoteDedupeKeys: [String] = [], requests: Int, per: Double, upserts: Bool) {
        (self.largestBatch, self.remoteDedupeKeys, self.requests, self.per, self.upserts) = (max(1, largestBatch), remoteDedupeKeys, requests, per, upserts)
    }
}

/// One row's answer from a destination.
public enum DeliveryResult: Sendable, Equatable {
    case created(remoteID: String)
    case updated(remoteID: String)
    /// The destination refused this row; the reason is for the report.
    case rejected(reason: String)
    /// The row could not be delivered (no answer, or the destination kept failing); a rerun
    /// tries it again.
    case failed(reason: String)
}

/// A batch's answer: one result per row, in order, or a failure of the whole batch.
public enum BatchAnswer: Sendable, Equatable {
    case rows([DeliveryResult])
    /// The destination refused the batch as a whole (PostgREST runs a batch as one statement: one
    /// bad row fails them all). `rowLevel` says the cause lies in the rows, so smaller batches
    /// can isolate it; otherwise (auth, a missing table) every row gets the reason.
    case failed(reason: String, rowLevel: Bool)
}

/// Delivers rows in batches of at most `largestBatch`; a batch refused for a row-level cause is
/// split in halves, and the halves split again, until the bad rows stand alone with their own
/// reasons and every other row is delivered. Each input row ends with exactly one result.
///
/// A batch of n rows with one bad row takes about 2·log2(n) extra requests; with k bad rows,
/// at most k·2·log2(n).
public struct BatchSplitter {
    public let largestBatch: Int

    public init(largestBatch: Int) { self.largestBatch = max(1, largestBatch) }

    /// `send` gets consecutive slices of `rows` (their indices into `rows`) and answers for
    /// each; the results come back in the rows' order.
    public func deliver<Row>(_ rows: [Row], send: (ArraySlice<Row>) throws -> BatchAnswer) rethrows -> [DeliveryResult] {
        var results = [DeliveryResult?](repeating: nil, count: rows.count)
        var start = rows.startIndex
        while start < rows.endIndex {
            let end = min(start + largestBatch, rows.endIndex)
            try deliver(rows[start..<end], into: &results, send: send)
            start = end
        }
        return results.map { $0! }
    }

    private func deliver<Row>(_ slice: ArraySlice<Row>, into results: inout [DeliveryResult?], send: (ArraySlice<Row>) throws -> BatchAnswer) rethrows {
        switch try send(slice) {
        case .rows(let answers):
            precondition(answers.count == slice.count, "a destination answered \(answers.count) rows for \(slice.count)")
            for (k, answer) in zip(slice.indices, answers) { results[k] = answer }
        case .failed(let reason, let rowLevel):
            if !rowLevel || slice.count == 1 {
                for k in slice.indices { results[k] = .rejected(reason: reason) }
                return
            }
            let middle = slice.startIndex + slice.count / 2
            try deliver(slice[slice.startIndex..<middle], into: &results, send: send)
            try deliver(slice[middle..<slice.endIndex], into: &results, send: send)
        }
    }
}
