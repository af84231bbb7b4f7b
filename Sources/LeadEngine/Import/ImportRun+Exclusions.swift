import Foundation
import LeadCore
import LeadStore

/// People on a do-not-contact list (`--exclude`) whom a destination already holds: the list
/// keeps them from being sent anything more, but what was sent before it named them is still
/// there. Each such row says so (its reason, with the record's id), and the run warns once.
extension ImportRun {
    static let excludedMarker = "excluded ("

    /// Marks the excluded rows of `batch` that the ledger knows at `lane`.
    func noteExcludedHeld(_ batch: inout [Pending], lane: Lane, store: LeadStore) throws {
        guard !options.exclusions.isEmpty, !lane.ledgerWasEmpty else { return }
        let excluded = batch.indices.filter { batch[$0].outcome == .skipped && batch[$0].reason?.hasPrefix(Self.excludedMarker) == true }
        guard !excluded.isEmpty else { return }
        let known = try store.ledger(destination: lane.ledgerName, keys: excluded.map { lane.ledgerKey(batch[$0].key, batch[$0].lead.source) })
        for k in excluded {
            guard let entry = known[lane.ledgerKey(batch[k].key, batch[k].lead.source)] else { continue }
            batch[k].remoteID = entry.remoteID
            batch[k].reason = (batch[k].reason ?? "") + "; \(lane.name) already holds them (\(entry.remoteID)), sent before the list named them: remove them there"
            lane.excludedHeld.add(batch[k].lead.source)
        }
    }
}

extension ImportRun.Lane {
    /// The run's warning of the excluded people this destination holds, if any.
    var excludedHeldWarning: RunWarning? {
        let tally = excludedHeld
        guard tally.count > 0 else { return nil }
        let rows = tally.first.map { "\($0.row)" }.joined(separator: ", ") + (tally.count > tally.first.count ? ", …" : "")
        let people = tally.count == 1 ? "1 person" : "\(tally.count) people"
        return RunWarning(code: "excluded_already_sent", destination: name,
                          message: "\(name): \(people) on the --exclude lists \(tally.count == 1 ? "is" : "are") there already, sent before a list named them "
                          + "(row\(tally.count == 1 ? "" : "s") \(rows); each row's reason gives the record): excluding stops only what is sent from now on; remove or mark them there")
    }
}
