import LeadConnectors
import LeadCore

/// The mapping's modes (`create_only`, `update_only`), applied by the engine for every
/// destination alike: from the ledger, and from what each destination's `prepare` found.
extension ImportRun {
    static let createOnlyReason = "create_only: already at the destination"
    static let updateOnlyReason = "update_only: not at the destination"

    /// Why `mode` keeps a lead from being written, if it does: `atDestination` says whether the
    /// ledger or the destination's `prepare` knows a record of it there.
    static func modeSkip(_ mode: DeliveryMode, atDestination: Bool) -> String? {
        switch mode {
        case .upsert: return nil
        case .createOnly: return atDestination ? createOnlyReason : nil
        case .updateOnly: return atDestination ? nil : updateOnlyReason
        }
    }

    /// The embedded database takes every mode and field policy (`append` as `fill_blank`: its
    /// columns hold one value each) and no option.
    static func checkEmbedded(_ policy: DestinationPolicy) throws {
        for name in policy.options.keys.sorted() {
            throw DestinationError(destination: "sqlite", message: "the mapping's destinations.sqlite has an unknown key \"\(name)\"; expected one of: mode, update",
                                   disposition: .usage)
        }
    }
}
