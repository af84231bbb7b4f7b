import LeadCore

/// One lead at one destination, field by field, for a plan (`import --dry-run`, `--plan FILE`,
/// `leadport apply`): what the destination holds now, read from it, and what LeadPort would
/// write. Fields go by the destination's own names (HubSpot's properties, FLYR's columns), since
/// those are what a person checks at the destination.
public struct FieldSnapshot: Sendable, Equatable, Codable {
    /// The destination's values of the fields it would be sent, as read from it (a field it has
    /// no value for is absent). Nil when it has no record of the lead (a create), or keeps none
    /// that LeadPort can read (a webhook).
    public var before: [String: String]?
    /// What would be written: each field sent, after the mapping's field policies (a field
    /// `never` or `fill_blank` keeps is left out; a blank cell is never sent).
    public var after: [String: String]

    public init(before: [String: String]?, after: [String: String]) {
        (self.before, self.after) = (before, after)
    }

    /// The fields whose value would change, sorted by name.
    public var changed: [String] {
        after.keys.filter { before?[$0] != after[$0] }.sorted()
    }

    /// The update of `before` with `new` (each field's value, nil or blank when the lead has
    /// none) under each field's policy, as the destinations that hold one value per field do
    /// it: a blank never replaces anything; `never` is left out; `fill_blank` and `append` are
    /// sent only where the destination's field is empty; `overwrite` is sent.
    public static func updating(_ before: [String: String], with new: [String: String?], policy: (String) -> FieldPolicy) -> FieldSnapshot {
        var after: [String: String] = [:]
        for (field, value) in new {
            guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            switch policy(field) {
            case .overwrite: after[field] = value
            case .fillBlank, .append: if (before[field] ?? "").trimmingCharacters(in: .whitespaces).isEmpty { after[field] = value }
            case .never: continue
            }
        }
        return FieldSnapshot(before: before.filter { new[$0.key] != nil }, after: after)
    }

    /// A create: every field with a value.
    public static func creating(_ new: [String: String?]) -> FieldSnapshot {
        FieldSnapshot(before: nil, after: new.compactMapValues { value in value.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } })
    }
}

/// A destination's part in a plan: after `prepare`, reads what the destination holds of each
/// lead. Reads only.
extension Destination {
    /// The default, for a destination that cannot read what it holds: nil (the plan then lists
    /// its rows without their fields, and `apply` cannot check them).
    public func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? { nil }
}
