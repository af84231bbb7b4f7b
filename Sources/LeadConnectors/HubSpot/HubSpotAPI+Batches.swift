import Foundation
import LeadCore

/// The batch operations: each takes any number of inputs, sends them in requests of at most 100
/// with no key twice in one request (HubSpot refuses a batch that repeats an id), and answers
/// one result per input, in order. Every input carries an `objectWriteTraceId` (its position),
/// so HubSpot answers a batch with some bad inputs 207, writing the good ones and naming each
/// bad one; the reason names the property (`email: Email address x@ is invalid (INVALID_EMAIL)`).
extension HubSpotAPI {
    static let contacts = "/crm/v3/objects/contacts"

    /// Creates or updates contacts keyed by `idProperty` (`email`, or a custom property with
    /// unique values): the retry-safe write, since sending it twice updates instead of creating
    /// again. An input without a value for `idProperty` is rejected without being sent.
    public func upsert(_ payloads: [HubSpotContactPayload], by idProperty: String = "email") throws(HubSpotError) -> [HubSpotWriteResult] {
        var results = [HubSpotWriteResult?](repeating: nil, count: payloads.count)
        var sendable: [Int] = []
        for (n, payload) in payloads.enumerated() {
            if payload[idProperty] == nil {
                results[n] = .rejected(HubSpotRejection(status: 0, property: idProperty, code: "MISSING_ID", message: "no \(idProperty) to upsert by"))
            } else {
                sendable.append(n)
            }
        }
        for chunk in Self.chunks(sendable, key: { payloads[$0][idProperty]?.lowercased() }) {
            let inputs = chunk.map { n in
                var o = JSONObject()
                o.set("id", payloads[n][idProperty])
                o.set("idProperty", idProperty)
                o.set("objectWriteTraceId", String(n))
                o.set("properties", json: payloads[n].canonicalText)
                return o.text
            }
            let answer = try call("POST", Self.contacts + "/batch/upsert", body: "{\"inputs\":[" + inputs.joined(separator: ",") + "]}", replayable: true)
            try fill(&results, chunk: chunk, answer: answer, keys: chunk.map { payloads[$0][idProperty]?.lowercased() }) { id, result in
                (result["new"] as? Bool) == true ? .created(id: id) : .updated(id: id)
            }
        }
        return results.map { $0! }
    }

    /// Creates contacts. One whose email (or unique value) is taken comes back `.existing(id:)`
    /// with the contact's id (409 CONFLICT), having created nothing. Sent again after a lost
    /// answer only when every input has an email (a second try then finds them `.existing`);
    /// otherwise what the lost request made is looked for first, and only the rest is sent
    /// again (`settleLostCreate`), `settling` times at most before the lost answer is thrown.
    public func create(_ payloads: [HubSpotContactPayload], settling: Int = 3) throws(HubSpotError) -> [HubSpotWriteResult] {
        var results = [HubSpotWriteResult?](repeating: nil, count: payloads.count)
        for chunk in Self.chunks(Array(payloads.indices), key: { payloads[$0].email?.lowercased() }) {
            let inputs = chunk.map { n in
                var o = JSONObject()
                o.set("objectWriteTraceId", String(n))
                o.set("properties", json: payloads[n].canonicalText)
                return o.text
            }
            let replayable = chunk.allSatisfy { payloads[$0].email != nil }
            let answer: Answer
            do throws(HubSpotError) {
                answer = try call("POST", Self.contacts + "/batch/create", body: "{\"inputs\":[" + inputs.joined(separator: ",") + "]}", replayable: replayable)
            } catch where !replayable && settling > 0 && error.outcomeUnknown {
                let settled = try settleLostCreate(chunk.map { payloads[$0] }, settling: settling - 1)
                for (n, result) in zip(chunk, settled) { results[n] = result }
                continue
            }
            try fill(&results, chunk: chunk, answer: answer, keys: chunk.map { _ in nil }) { id, _ in .created(id: id) }
        }
        return results.map { $0! }
    }

    /// Updates contacts by HubSpot id (or by `idProperty`'s value). An unknown id is rejected
    /// (404 OBJECT_NOT_FOUND).
    public func update(_ updates: [HubSpotUpdate], by idProperty: String? = nil) throws(HubSpotError) -> [HubSpotWriteResult] {
        var results = [HubSpotWriteResult?](repeating: nil, count: updates.count)
        for chunk in Self.chunks(Array(updates.indices), key: { updates[$0].id.lowercased() }) {
            let inputs = chunk.map { n in
                var o = JSONObject()
                o.set("id", updates[n].id)
                if let idProperty { o.set("idProperty", idProperty) }
                o.set("objectWriteTraceId", String(n))
                o.set("properties", json: updates[n].payload.canonicalText)
                return o.text
            }
            let answer = try call("POST", Self.contacts + "/batch/update", body: "{\"inputs\":[" + inputs.joined(separator: ",") + "]}", replayable: true)
            try fill(&results, chunk: chunk, answer: answer, keys: chunk.map { updates[$0].id.lowercased() }) { id, _ in .updated(id: id) }
        }
        return results.map { $0! }
    }

    /// Reads contacts by HubSpot id or by `idProperty`'s value, with `properties`; nil for one
    /// HubSpot does not have.
    public func read(_ ids: [String], by idProperty: String? = nil, properties: [String]) throws(HubSpotError) -> [HubSpotContact?] {
        var found = [HubSpotContact?](repeating: nil, count: ids.count)
        let wanted = idProperty.map { properties.contains($0) ? properties : properties + [$0] } ?? properties
        for chunk in Self.chunks(Array(ids.indices), key: { ids[$0].lowercased() }) {
            var body = JSONObject()
            body.set("inputs", json: "[" + chunk.map { "{\"id\":" + JSONText.quote(ids[$0]) + "}" }.joined(separator: ",") + "]")
            if let idProperty { body.set("idProperty", idProperty) }
            body.set("properties", json: JSONText.array(wanted))
            let answer = try call("POST", Self.contacts + "/batch/read", query: [URLQueryItem(name: "archived", value: "false")], body: body.text, replayable: true)
            guard answer.status == 200 || answer.status == 207 else { throw refusedRequest(answer) }
            var byKey: [String: HubSpotContact] = [:]
            for contact in ((answer.json as? [String: Any])?["results"] as? [Any] ?? []).compactMap(HubSpotContact.init(json:)) {
                let key = idProperty.map { contact.properties[$0] ?? "" } ?? contact.id
                byKey[key.lowercased()] = contact
            }
            for n in chunk { found[n] = byKey[ids[n].lowercased()] }
        }
        return found
    }

    /// Contacts with this phone (as `phone` or `mobilephone`) and, where given, these names;
    /// or, without a phone, with both names. For contacts without an email, before creating
    /// them. HubSpot's search sees writes some seconds late, so a contact created moments ago
    /// may be missing: the ledger covers a run's own writes.
    public func search(_ match: HubSpotMatch, properties: [String] = []) throws(HubSpotError) -> [HubSpotContact] {
        guard match.isSearchable else { return [] }
        func filter(_ name: String, _ value: String) -> String {
            "{\"propertyName\":\(JSONText.quote(name)),\"operator\":\"EQ\",\"value\":\(JSONText.quote(value))}"
        }
        let names = [match.firstName.map { filter("firstname", $0) }, match.lastName.map { filter("lastname", $0) }].compactMap { $0 }
        let groups = match.phone == nil ? [names] : ["phone", "mobilephone"].flatMap { p in match.phoneValues.map { [filter(p, $0)] + names } }
        return try searchPage(groups, properties: properties, limit: 100).contacts
    }

    /// Values in one `IN` filter: integrations report HubSpot refusing more than 100 (its own
    /// pages give no figure), and the double refuses more.
    static let valuesPerFilter = 100

    /// Phones per search in `search(phones:)`: two filters of 100 for each of `phone` and
    /// `mobilephone`, four of the five filter groups a search may have. Searches go at 5 a
    /// second, so the 200 a search make 10,000 new leads a 10-second look-up (50 searches),
    /// no longer than their 100 batch writes.
    static let phonesPerSearch = 2 * valuesPerFilter

    /// Contacts whose `phone` or `mobilephone` is one of `phones`, every page: one search for
    /// up to 200 phones where `search(_:)` takes one a lead, which at HubSpot's 5 searches a
    /// second made a list of 10,000 leads without emails a 33-minute look-up. The caller
    /// compares names itself.
    public func search(phones: [String], properties: [String] = []) throws(HubSpotError) -> [HubSpotContact] {
        var found: [HubSpotContact] = []
        let unique = Array(Set(phones)).sorted()
        for start in stride(from: 0, to: unique.count, by: Self.phonesPerSearch) {
            let slice = unique[start..<min(start + Self.phonesPerSearch, unique.count)]
            let lists = stride(from: slice.startIndex, to: slice.endIndex, by: Self.valuesPerFilter).map {
                JSONText.array(Array(slice[$0..<min($0 + Self.valuesPerFilter, slice.endIndex)]))
            }
            let groups = ["phone", "mobilephone"].flatMap { property in
                lists.map { ["{\"propertyName\":\"\(property)\",\"operator\":\"IN\",\"values\":\($0)}"] }
            }
            var after: String?
            repeat {
                let page = try searchPage(groups, properties: properties, limit: 200, after: after)
                found += page.contacts
                after = page.after
            } while after != nil
        }
        return found
    }

    /// One page of a contact search: filter groups (each a list of filters as JSON), the
    /// properties wanted beside the matching ones, oldest contact first.
    private func searchPage(_ groups: [[String]], properties: [String], limit: Int, after: String? = nil) throws(HubSpotError) -> (contacts: [HubSpotContact], after: String?) {
        var body = JSONObject()
        body.set("filterGroups", json: "[" + groups.map { "{\"filters\":[" + $0.joined(separator: ",") + "]}" }.joined(separator: ",") + "]")
        body.set("properties", json: JSONText.array(Array(Set(properties + ["email", "firstname", "lastname", "phone", "mobilephone"])).sorted()))
        body.set("sorts", json: "[{\"propertyName\":\"hs_object_id\",\"direction\":\"ASCENDING\"}]")
        body.set("limit", limit)
        if let after { body.set("after", after) }
        let answer = try call("POST", Self.contacts + "/search", body: body.text, replayable: true)
        guard answer.status == 200, let object = answer.json as? [String: Any] else { throw refusedRequest(answer) }
        let next = ((object["paging"] as? [String: Any])?["next"] as? [String: Any])?["after"].map { "\($0)" }
        return ((object["results"] as? [Any] ?? []).compactMap(HubSpotContact.init(json:)), next)
    }

    // MARK: Batching and answers

    /// `indices` in runs of at most `largestBatch`, no key twice in a run: a repeated key
    /// waits for the next run, so each input gets HubSpot's own answer (the second an update).
    static func chunks(_ indices: [Int], key: (Int) -> String?) -> [[Int]] {
        var runs: [[Int]] = []
        var pending = indices
        while !pending.isEmpty {
            var run: [Int] = []
            var keys = Set<String>()
            var later: [Int] = []
            for n in pending {
                if run.count == largestBatch { later.append(n); continue }
                if let k = key(n) {
                    guard keys.insert(k).inserted else { later.append(n); continue }
                }
                run.append(n)
            }
            runs.append(run)
            pending = later
        }
        return runs
    }

    /// Puts a batch write's answer into `results`: each result and error found by its trace id
    /// (or by the ids HubSpot names, `keys` being each input's id as sent, lower-cased).
    private func fill(_ results: inout [HubSpotWriteResult?], chunk: [Int], answer: Answer, keys: [String?],
                      success: (String, [String: Any]) -> HubSpotWriteResult) throws(HubSpotError) {
        guard answer.status == 200 || answer.status == 201 || answer.status == 207, let object = answer.json as? [String: Any] else {
            throw refusedRequest(answer)
        }
        let sent = Set(chunk)
        for result in object["results"] as? [[String: Any]] ?? [] {
            guard let id = result["id"].map({ "\($0)" }), let n = (result["objectWriteTraceId"] as? String).flatMap(Int.init), sent.contains(n) else { continue }
            results[n] = success(id, result)
        }
        for error in object["errors"] as? [[String: Any]] ?? [] {
            let context = error["context"] as? [String: Any] ?? [:]
            var targets = (context["objectWriteTraceId"] as? [Any] ?? []).compactMap { Int("\($0)") }.filter(sent.contains)
            if targets.isEmpty {
                let ids = Set((context["ids"] as? [Any] ?? []).map { "\($0)".lowercased() })
                targets = zip(chunk, keys).filter { $0.1.map(ids.contains) ?? false }.map(\.0)
            }
            let outcome = writeOutcome(error)
            for n in targets where results[n] == nil { results[n] = outcome }
        }
        for n in chunk where results[n] == nil {
            results[n] = .rejected(HubSpotRejection(status: answer.status, message: "HubSpot's answer named neither a result nor an error for this input"))
        }
    }

    /// One input's error: a 409 CONFLICT's existing id, or the rejection with the property named.
    func writeOutcome(_ error: [String: Any]) -> HubSpotWriteResult {
        let category = error["category"] as? String
        let message = redactor.redact(error["message"] as? String ?? "HubSpot refused this input")
        if category == "CONFLICT", let range = message.range(of: #"Existing ID: *(\d+)"#, options: .regularExpression) {
            return .existing(id: String(message[range].drop { !$0.isNumber }))
        }
        let status = ["VALIDATION_ERROR": 400, "OBJECT_NOT_FOUND": 404, "CONFLICT": 409][category ?? ""] ?? 400
        return .rejected(Self.rejection(status: status, category: category, message: message))
    }

    /// HubSpot's rejection, with the properties its `VALIDATION_ERROR` names: the message holds
    /// them as JSON text (`Property values were not valid: [{"name":"email","error":…}]`).
    static func rejection(status: Int, category: String?, message: String) -> HubSpotRejection {
        // The array runs from the first "[" to one of the "]"s after it (a server may add text).
        var problems: [[String: Any]] = []
        if let open = message.firstIndex(of: "[") {
            for close in message.indices.reversed() where close > open && message[close] == "]" {
                if let parsed = (try? JSONSerialization.jsonObject(with: Data(message[open...close].utf8))) as? [[String: Any]] {
                    problems = parsed
                    break
                }
            }
        }
        guard !problems.isEmpty else { return HubSpotRejection(status: status, category: category, message: message) }
        let names = problems.compactMap { $0["name"] as? String }
        let codes = problems.compactMap { $0["error"] as? String }
        let texts = problems.map { ($0["message"] as? String) ?? ($0["error"] as? String) ?? "invalid" }
        let named = problems.compactMap { p in
            (p["name"] as? String).map { HubSpotRejection.Problem(property: $0, code: p["error"] as? String, message: (p["message"] as? String) ?? (p["error"] as? String) ?? "invalid") }
        }
        return HubSpotRejection(status: status, category: category, property: names.isEmpty ? nil : names.joined(separator: ", "),
                                code: codes.isEmpty ? nil : codes.joined(separator: ", "), message: texts.joined(separator: "; "),
                                problems: named.count == problems.count ? named : [])
    }

    /// A whole request refused for a cause that is not one input's.
    func refusedRequest(_ answer: Answer) -> HubSpotError {
        HubSpotError(.refused(status: answer.status), "HubSpot refused the request: \(answer.status) \(summary(answer))")
    }
}
