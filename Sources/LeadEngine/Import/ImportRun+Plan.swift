import LeadConnectors
import LeadCore
import LeadStore

/// One row's part in a plan at one destination (`import --dry-run`, `--plan FILE`, `leadport
/// apply`): the hash of what would be sent, and its fields as the destination holds them and
/// as they would be written (nil: the destination cannot read what it holds).
public final class PlannedRow: Sendable {
    public let hash: String
    public let fields: FieldSnapshot?

    public init(hash: String, fields: FieldSnapshot?) { (self.hash, self.fields) = (hash, fields) }
}

/// A plan to carry out (`leadport apply`): each row's planned part, by destination and source
/// row. A row the plan does not have, or whose lead changed in the file, or whose record changed
/// at the destination since, is refused, each with its reason.
public struct PlanCheck: Sendable {
    public struct Key: Hashable, Sendable {
        public var destination: String
        public var file: String
        public var sheet: String
        public var row: Int

        public init(destination: String, file: String, sheet: String?, row: Int) {
            (self.destination, self.file, self.sheet, self.row) = (destination, file, sheet ?? "", row)
        }
    }

    public var rows: [Key: PlannedRow]

    public init(rows: [Key: PlannedRow]) { self.rows = rows }

    static let notPlanned = "not in the plan (it was unchanged, skipped or rejected when the plan was made, or the file changed since): make a new plan"
    static let changedInFile = "changed in the file since the plan was made: make a new plan"

    /// Why the row must not be written as planned, if it must not: `now` is what the
    /// destination holds of it now.
    static func conflict(_ planned: PlannedRow, now: FieldSnapshot?, destination: String) -> String? {
        guard let then = planned.fields, let now else { return nil }
        switch (then.before, now.before) {
        case (nil, nil): break
        case (nil, _?): return "\(destination) has had a record of this lead since the plan was made (it was to be created): make a new plan"
        case (_?, nil): return "the record at \(destination) is gone since the plan was made: make a new plan"
        case (let old?, let new?):
            let fields = Set(old.keys).union(new.keys).union(then.after.keys).sorted()
            if let field = fields.first(where: { old[$0] != new[$0] }) {
                func shown(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "empty" }
                return "changed at \(destination) since the plan was made: \(field) was \(shown(old[field])), now \(shown(new[field])); make a new plan"
            }
        }
        // The same lead over the same record writes what the plan said, unless the plan was edited.
        if let field = Set(then.after.keys).union(now.after.keys).sorted().first(where: { then.after[$0] != now.after[$0] }) {
            return "the plan's \(field) is not what the file's row would write (was the plan edited?): make a new plan"
        }
        return nil
    }
}

extension ImportRun {
    /// Whether each destination's fields are read for a plan: in a dry run, and when applying one.
    var plans: Bool { options.dryRun || options.apply != nil }

    /// Applying a plan: refuses the leads (`outbound[n]`, from batch row `rows[n]`) the plan
    /// does not allow, and returns the indices of those it does. `snapshots` are the leads'
    /// fields as the destination holds them now.
    func checkPlan(_ batch: inout [Pending], outbound: [OutboundLead], rows: [Int], snapshots: [FieldSnapshot]?, lane: Lane) -> [Int] {
        guard let check = options.apply else { return Array(rows.indices) }
        var allowed: [Int] = []
        for (n, k) in rows.enumerated() {
            // Found at the destination as it would be written: nothing is sent, and it is
            // recorded as unchanged, plan or not.
            if outbound[n].alreadyThere {
                allowed.append(n)
                continue
            }
            let source = batch[k].lead.source
            guard let planned = check.rows[PlanCheck.Key(destination: lane.name, file: source.file, sheet: source.sheet, row: source.row)] else {
                (batch[k].outcome, batch[k].reason) = (.skipped, PlanCheck.notPlanned)
                continue
            }
            guard planned.hash == outbound[n].hash else {
                (batch[k].outcome, batch[k].reason, batch[k].stage) = (.rejected, PlanCheck.changedInFile, .plan)
                continue
            }
            if let reason = PlanCheck.conflict(planned, now: snapshots?[n], destination: lane.name) {
                (batch[k].outcome, batch[k].reason, batch[k].stage) = (.rejected, reason, .plan)
                continue
            }
            allowed.append(n)
        }
        return allowed
    }
}
