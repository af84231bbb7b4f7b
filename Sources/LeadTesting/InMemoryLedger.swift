import Foundation
import LeadStore

/// `Ledger` in a dictionary: the SQLite ledger's twin for tests (LeadStoreTests checks the two
/// answer alike).
public final class InMemoryLedger: Ledger, @unchecked Sendable {
    private struct Key: Hashable { var destination: String, dedupeKey: String }
    private let lock = NSLock()
    private var rows: [Key: LedgerRow] = [:]

    public init() {}

    public func ledger(destination: String, keys: [String]) throws -> [String: LeadStore.LedgerEntry] {
        lock.withLock {
            var found: [String: LeadStore.LedgerEntry] = [:]
            for key in keys {
                guard let row = rows[Key(destination: destination, dedupeKey: key)] else { continue }
                found[key] = LeadStore.LedgerEntry(remoteID: row.remoteID, contentHash: row.contentHash, remoteVersion: row.remoteVersion)
            }
            return found
        }
    }

    public func ledgerRows(destination: String) throws -> [LedgerRow] {
        lock.withLock { rows.values.filter { $0.destination == destination }.sorted { $0.dedupeKey < $1.dedupeKey } }
    }

    public func loadLedger(_ rows: [LedgerRow]) throws {
        lock.withLock { for row in rows { self.rows[Key(destination: row.destination, dedupeKey: row.dedupeKey)] = row } }
    }
}
