import Foundation
import LeadConnectors
import LeadCore
import LeadStore

/// `leadport undo RUN_ID`: what a run created is removed and what it updated
/// given back its values, at each destination that can do so, each record only while it holds
/// what the run wrote (one a person, or a later run, changed since is left alone and listed).
/// The undo is recorded as a run of its own.
public final class UndoRun {
    public struct Record: Sendable {
        public var key: String
        public var remoteID: String
        public var created: Bool
        public var result: UndoResult
    }

    public struct Destination: Sendable {
        /// As the ledger knows it.
        public var ledgerName: String
        /// As reports name it.
        public var name: String
        public var records: [Record]
    }

    private let store: LeadStore
    private let run: String
    private let remotes: [any LeadConnectors.Destination]
    private let dryRun: Bool
    private let embedded: any LeadConnectors.Destination

    /// `remotes`: the run's destinations other than the embedded database, opened.
    public init(store: LeadStore, path: String, run: String, remotes: [any LeadConnectors.Destination], dryRun: Bool) {
        (self.store, self.run, self.remotes, self.dryRun) = (store, run, remotes, dryRun)
        embedded = DestinationRegistry.embedded(path: path)
        embedded.attach(store, dryRun: dryRun)
    }

    /// Each destination's records and what became of them; `only`: the ledger names to undo at
    /// (nil: all). Returns the undo's own run id (nil in a dry run) and the destinations.
    public func undo(only: Set<String>? = nil) throws -> (runID: String?, destinations: [Destination]) {
        let changes = try store.changes(run: run)
        var done: [Destination] = []
        for ledgerName in changes.keys.sorted() where only?.contains(ledgerName) ?? true {
            let change = changes[ledgerName]!
            let target: (any LeadConnectors.Destination)? = ledgerName == LeadStore.ownLedger ? embedded : remotes.first { $0.ledgerName == ledgerName }
            var records: [Record] = []
            var items: [UndoItem] = []
            // A record a later run wrote since is that run's to undo first.
            for c in change.created {
                if c.lastRun != run {
                    records.append(Record(key: c.key, remoteID: c.remoteID, created: true, result: .changedSince("updated since by run \(c.lastRun): undo that run first")))
                } else {
                    items.append(UndoItem(key: c.key, remoteID: c.remoteID, created: true, version: c.version))
                }
            }
            for u in change.updated {
                if u.lastRun != run {
                    records.append(Record(key: u.key, remoteID: u.remoteID, created: false, result: .changedSince("updated since by run \(u.lastRun): undo that run first")))
                } else {
                    items.append(UndoItem(key: u.key, remoteID: u.remoteID, created: false, version: u.version, before: u.before, after: u.after))
                }
            }
            let results: [UndoResult]
            if let target {
                results = try target.undo(items, dryRun: dryRun)
            } else {
                results = items.map { _ in .notUndoable("\(ledgerName) was not opened: give --to as the run gave it (its credentials from the environment)") }
            }
            for (item, result) in zip(items, results) { records.append(Record(key: item.key, remoteID: item.remoteID, created: item.created, result: result)) }
            if !dryRun {
                let previous = Dictionary(change.updated.map { ($0.key, $0.previousHash) }, uniquingKeysWith: { a, _ in a })
                var removed: [String] = [], restored: [(key: String, previousHash: String?)] = []
                for (item, result) in zip(items, results) {
                    guard case .undone = result else { continue }
                    if item.created { removed.append(item.key) } else { restored.append((item.key, previous[item.key] ?? nil)) }
                }
                try store.undone(destination: ledgerName, removed: removed, restored: restored, run: run)
            }
            done.append(Destination(ledgerName: ledgerName, name: target?.name ?? ledgerName, records: records))
        }
        let undoneAny = done.contains { $0.records.contains { if case .undone = $0.result { return true }; return false } }
        // Nothing changed (already undone, or left alone): no run of its own either.
        guard !dryRun, undoneAny else { return (nil, done) }
        let id = UUID().uuidString.lowercased()
        try store.startRun(id: id, inputs: ["undo " + run])
        let undone = done.reduce(0) { $0 + $1.records.filter { if case .undone = $0.result { return true }; return false }.count }
        let left = done.reduce(0) { $0 + $1.records.count } - undone
        try store.finishRun(id: id, counts: [.updated: undone, .skipped: left], rows: undone + left)
        return (id, done)
    }
}
