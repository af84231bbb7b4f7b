import Foundation
import GRDB

/// The enrichment's answers, by `EnrichCache.key`.
extension LeadStore {
    /// The answers the enrichment cache holds for these keys, by key.
    public func enrichAnswers(keys: [String]) throws -> [String: String] {
        var found: [String: String] = [:]
        try db.writeWithoutTransaction { db in
            for start in stride(from: 0, to: keys.count, by: 500) {
                let part = Array(keys[start..<min(start + 500, keys.count)])
                let rows = try Row.fetchAll(db, sql: "SELECT key, answer FROM leadport_enrich_cache WHERE key IN (" + part.map { _ in "?" }.joined(separator: ",") + ")",
                                            arguments: StatementArguments(part))
                for row in rows { found[row["key"]] = row["answer"] }
            }
        }
        return found
    }

    /// Keeps answers in the enrichment cache: in the transaction `write` left open, when there is
    /// one (they are committed with the rows they were asked for), else at once.
    public func saveEnrichAnswers(_ answers: [(key: String, answer: String)]) throws {
        guard !answers.isEmpty else { return }
        try db.writeWithoutTransaction { db in
            let own = !db.isInsideTransaction
            if own { try db.execute(sql: "BEGIN IMMEDIATE") }
            do {
                for (key, answer) in answers {
                    try db.execute(sql: "INSERT OR REPLACE INTO leadport_enrich_cache (key, answer) VALUES (?, ?)", arguments: [key, answer])
                }
                if own { try db.execute(sql: "COMMIT") }
            } catch {
                if own, db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
                throw error
            }
        }
    }
}
