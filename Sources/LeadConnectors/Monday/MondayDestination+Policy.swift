import Foundation
import LeadCore

/// The mapping's section for monday.com (`MondayMapping`) and its field policies: on an
/// update, `never` leaves a column out, and `fill_blank` writes it only where the item, as
/// `prepare` read it, has it empty. A column holds one value, so `append` is `fill_blank`. The
/// item's name follows `full_name`.
extension MondayDestination {
    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: name, fieldPolicies: Set(FieldPolicy.allCases), options: MondayMapping.options)
        let read: MondayMapping
        do throws(MondayError) {
            read = try mapping.reading(policy.options)
            guard read.board != nil else {
                throw MondayError(.configuration, "set \(MondayConfig.boardVariable) to the board's id (the number in its address), or name it in the mapping's destinations.monday.board")
            }
        } catch {
            throw error.stop
        }
        lock.withLock { (mapping, self.policy) = (read, policy) }
        capabilities.remoteDedupeKeys = [read.dedupe]
    }

    /// The name and fields an update writes over `item` (nil: not read, and then a field that
    /// is not overwritten is left as it is: what someone typed is kept when in doubt).
    func updating(_ payload: MondayItemPayload, over item: MondayItem?, _ layout: MondayLayout) -> (name: String?, fields: [String: String]) {
        let policy = lock.withLock { self.policy }
        guard !policy.overwritesAll else { return (payload.name, payload.fields) }
        let held = item.map(layout.fields(of:))
        var fields = payload.fields
        for field in payload.fields.keys {
            switch policy[field] {
            case .overwrite: continue
            case .never: fields[field] = nil
            case .fillBlank, .append:
                if held.map({ !($0[field] ?? "").isEmpty }) ?? true { fields[field] = nil }
            }
        }
        return (policy[.fullName] == .overwrite ? payload.name : nil, fields)
    }
}
