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
}
