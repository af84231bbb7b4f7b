import Foundation
import LeadCore

/// `leadport undo` at HubSpot: a contact the run created is archived (HubSpot's delete, which
/// keeps it restorable for 90 days), one it updated given back the properties it replaced —
/// each only while the contact holds what the run wrote.
extension HubSpotDestination {
    public var undoesUpdates: Bool { true }

    public func writtenVersion(_ lead: OutboundLead) -> String? {
        PropertyVersion.of(HubSpotContactPayload(lead: lead.lead, mapping: mapping).properties)
    }

    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        do throws(HubSpotError) {
            let names = Set(items.flatMap { ($0.created ? PropertyVersion.names($0.version) : Array($0.after.keys)) ?? [] })
            let current = try api.read(items.map(\.remoteID), properties: names.sorted())
            var archive: [String] = []
            var restore: [(id: String, properties: [String: String])] = []
            var results: [UndoResult] = []
            for (item, contact) in zip(items, current) {
                guard let contact else {
                    results.append(item.created ? .undone("already gone") : .changedSince("the contact was deleted or archived since"))
                    continue
                }
                if item.created {
                    guard PropertyVersion.holds(item.version, contact.properties) else {
                        results.append(.changedSince("the contact's properties changed since LeadPort created it"))
                        continue
                    }
                    archive.append(item.remoteID)
                    results.append(.undone("archived"))
                    continue
                }
                let moved = item.after.keys.sorted().filter { name in
                    name == "email" ? contact.properties[name]?.lowercased() != item.after[name]?.lowercased() : contact.properties[name] != item.after[name]
                }
                guard moved.isEmpty else {
                    results.append(.changedSince("changed since: " + moved.map { "\($0) is \"\(contact.properties[$0] ?? "")\", LeadPort wrote \"\(item.after[$0] ?? "")\"" }.joined(separator: "; ")))
                    continue
                }
                // A property that had no value before is emptied.
                restore.append((item.remoteID, Dictionary(uniqueKeysWithValues: item.after.keys.map { ($0, item.before[$0] ?? "") })))
                results.append(.undone("restored: " + item.after.keys.sorted().map { "\($0) \"\(item.before[$0] ?? "")\"" }.joined(separator: ", ")))
            }
            if !dryRun {
                try api.archive(archive)
                try api.setProperties(restore)
            }
            return results
        } catch {
            throw stop(error)
        }
    }
}

extension HubSpotAPI {
    /// Archives contacts by id, 100 a request (POST …/batch/archive: 204).
    public func archive(_ ids: [String]) throws(HubSpotError) {
        for start in stride(from: 0, to: ids.count, by: Self.largestBatch) {
            let chunk = ids[start..<min(start + Self.largestBatch, ids.count)]
            let body = "{\"inputs\":[" + chunk.map { "{\"id\":" + JSONText.quote($0) + "}" }.joined(separator: ",") + "]}"
            let answer = try call("POST", Self.contacts + "/batch/archive", body: body, replayable: true)
            guard answer.status == 204 || answer.status == 200 else { throw refusedRequest(answer) }
        }
    }

    /// Sets properties of contacts by id, an empty value clearing one (a batch update that,
    /// unlike a lead's payload, may send blanks).
    public func setProperties(_ updates: [(id: String, properties: [String: String])]) throws(HubSpotError) {
        for start in stride(from: 0, to: updates.count, by: Self.largestBatch) {
            let chunk = updates[start..<min(start + Self.largestBatch, updates.count)]
            let inputs = chunk.map { update in
                var properties = JSONObject()
                for name in update.properties.keys.sorted() { properties.set(name, update.properties[name]) }
                var o = JSONObject()
                o.set("id", update.id)
                o.set("properties", json: properties.text)
                return o.text
            }
            let answer = try call("POST", Self.contacts + "/batch/update", body: "{\"inputs\":[" + inputs.joined(separator: ",") + "]}", replayable: true)
            guard answer.status == 200 || answer.status == 207 else { throw refusedRequest(answer) }
        }
    }
}
