import LeadCore

/// How a destination learns the mapping's mode and field policies (and its own options) before
/// the rows: `ImportRun` calls `configure` once for each destination, after the mapping is
/// read and before the first `prepare`.
///
/// The engine itself applies the modes where the ledger decides (`create_only` skips a lead it
/// has sent, `update_only` one it has not) and where `prepare` marks a lead as found at the
/// destination (`action == .update`, `alreadyThere` or `found`). Field policies are the
/// destination's: only it knows what the remote field holds.
extension Destination {
    /// The `--to` kind the mapping's `destinations:` section names it by: the name up to its
    /// first colon (`webhook:https://…` → `webhook`, `postgres://…` → `postgres`).
    public var kind: String {
        let head = String(name.prefix { $0 != ":" })
        return head == "postgresql" ? "postgres" : head
    }

    /// The default for a destination that knows no field policy and takes no option: modes are
    /// accepted (the engine applies them), anything else is refused as a usage error (exit 2)
    /// rather than ignored, since a `fill_blank` ignored would overwrite what it was meant to keep.
    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: kind, fieldPolicies: [.overwrite], options: [])
    }

    /// Throws a usage error naming what of `policy` this destination cannot honour: a field
    /// policy outside `fieldPolicies`, or an option not in `options`.
    public static func refuseUnsupported(_ policy: DestinationPolicy, destination: String, fieldPolicies: Set<FieldPolicy>, options: Set<String>) throws {
        for (field, fieldPolicy) in policy.update.sorted(by: { $0.key < $1.key }) where !fieldPolicies.contains(fieldPolicy) {
            throw DestinationError(destination: destination,
                                   message: "the mapping asks for \(fieldPolicy.rawValue) on \(field), which \(destination) cannot do (it takes: \(fieldPolicies.map(\.rawValue).sorted().joined(separator: ", "))); see docs/destinations.md, \"Modes and update policies\"",
                                   disposition: .usage)
        }
        for name in policy.options.keys.sorted() where !options.contains(name) {
            let expected = options.isEmpty ? "it takes none besides mode and update" : "expected one of: mode, update, " + options.sorted().joined(separator: ", ")
            throw DestinationError(destination: destination, message: "the mapping's destinations.\(destination) has an unknown key \"\(name)\"; \(expected)", disposition: .usage)
        }
    }
}
