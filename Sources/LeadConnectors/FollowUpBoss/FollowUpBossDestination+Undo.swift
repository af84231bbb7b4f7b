import Foundation
import LeadCore

/// `leadport undo` at Follow Up Boss: a person the run updated is given back
/// the values it replaced, with a PUT, only while the person still holds what the run wrote
/// (read first: a field someone changed since leaves the person alone, and listed). A person
/// the run created stays: the API deletes no one, and the undo lists it to delete by hand.
///
/// The values come from the run's history, as the plan shows them
/// (`FollowUpBossDestination+Plan`): names and custom fields as they were, emails and phones
/// each a value (their types kept where the person still has the value), addresses from their
/// text (`type: street, city, state, code, country`), tags replaced by the earlier list. A field
/// that was empty is cleared.
extension FollowUpBossDestination {
    public var undoesUpdates: Bool { true }

    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        do {
            return try items.map { item in
                guard !item.created else {
                    return .notUndoable("Follow Up Boss's API deletes no person: delete person \(item.remoteID) in Follow Up Boss")
                }
                guard let id = Int(item.remoteID), let person = try api.person(id: id) else { return .changedSince("the person was deleted or merged since") }
                let now = Self.fields(of: FollowUpBossPersonPayload(holding: person))
                let moved = item.after.keys.sorted().filter { now[$0] != item.after[$0] }
                guard moved.isEmpty else {
                    return .changedSince("changed since: " + moved.map { "\($0) is \"\(now[$0] ?? "")\", LeadPort wrote \"\(item.after[$0] ?? "")\"" }.joined(separator: "; "))
                }
                let fields = item.after.keys.sorted()
                if !dryRun {
                    switch try api.restore(personID: id, fields: Self.restoring(fields, from: item.before, over: person)) {
                    case .updated: break
                    case .notFound: return .changedSince("the person was deleted or merged since")
                    case .rejected(let error): return .changedSince("Follow Up Boss refused the values back: \(error.message)")
                    default: return .changedSince("Follow Up Boss answered the PUT unexpectedly")
                    }
                }
                return .undone("restored: " + fields.map { "\($0) \"\(item.before[$0] ?? "")\"" }.joined(separator: ", "))
            }
        } catch let error as FollowUpBossError {
            throw Self.stop(error)
        }
    }

    /// The PUT body giving back `names` from the history's `before` (see above).
    static func restoring(_ names: [String], from before: [String: String], over person: FollowUpBossPerson) -> [String: FollowUpBossJSON] {
        func split(_ name: String, _ separator: String) -> [String] {
            (before[name] ?? "").components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        func points(_ name: String, held: [FollowUpBossContactPoint]) -> FollowUpBossJSON {
            .array(split(name, ", ").map { value in
                FollowUpBossContactPoint(value: value, type: held.first { $0.value == value }?.type).json
            })
        }
        var body: [String: FollowUpBossJSON] = [:]
        for name in names {
            switch name {
            case "emails": body[name] = points(name, held: person.emails)
            case "phones": body[name] = points(name, held: person.phones)
            case "tags": body[name] = .array(split(name, ", ").map(FollowUpBossJSON.string))
            case "addresses":
                body[name] = .array(split(name, "; ").map { text in
                    var address = FollowUpBossAddress()
                    var rest = text
                    if let colon = text.range(of: ": ") { (address.type, rest) = (String(text[..<colon.lowerBound]), String(text[colon.upperBound...])) }
                    let parts = rest.components(separatedBy: ", ")
                    if parts.count >= 4 {
                        (address.street, address.city, address.state, address.code) = (parts[0], parts[1], parts[2], parts[3])
                        if parts.count > 4 { address.country = parts[4...].joined(separator: ", ") }
                    } else {
                        address.street = rest
                    }
                    return address.json
                })
            default: body[name] = .string(before[name] ?? "")
            }
        }
        return body
    }
}
