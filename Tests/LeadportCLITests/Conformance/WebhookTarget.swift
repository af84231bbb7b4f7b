import Foundation
import LeadTesting

/// `--to webhook:URL` against the catch hook of fixtures/servers/scripted_http.py. The
/// receiver is taken to be idempotent, as docs/destinations.md asks of it: a document sent
/// again under the same Idempotency-Key is the same delivery, one under a new key is another.
final class WebhookTarget: ConformanceTarget {
    static let secret = "conformance-hook-secret-71b2"
    let server: LocalServer
    var signing = WebhookTarget.secret
    var destination: String { "webhook:" + server.url("/hook?secret=\(Self.secret)").absoluteString }
    var environment: [String: String] { ["LEADPORT_WEBHOOK_SECRET": signing] }
    var section: String { "webhook" }
    // One document a request, at most 25 a second: 150 rows take some 6 s.
    var killRows: Int { 150 }
    var killSpan: Double { 5.0 }

    static func notApplicable(_ check: ConformanceCase) -> String? {
        check == .fillBlank ? "a hook holds nothing LeadPort can read back, so a fill_blank policy for it is refused before any row is read (exit 2)" : nil
    }

    init(_ t: RemoteImport) throws {
        server = try LocalServer(script: "servers/scripted_http.py")
    }

    func deliveries() throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("/hooks"))) as? [[String: Any]] ?? []
    }

    /// Per lead, one record per distinct Idempotency-Key of a `lead.created` document that was
    /// delivered (a 2xx answer, or applied and dropped), with the last delivered values.
    func records() throws -> [ConformanceRecord] {
        var seen = Set<String>()
        var created: [String: Int] = [:]
        var latest: [String: [String: String]] = [:]
        var order: [String] = []
        for delivery in try deliveries() {
            let status = delivery["status"]
            guard (status as? Int).map({ (200..<300).contains($0) }) ?? (status as? String == "dropped") else { continue }
            let key = (delivery["headers"] as? [String: String])?["Idempotency-Key"] ?? ""
            guard seen.insert(key).inserted,
                  let document = try JSONSerialization.jsonObject(with: Data((delivery["body"] as? String ?? "").utf8)) as? [String: Any] else { continue }
            let email = (document["email"] as? String ?? "").lowercased()
            if latest[email] == nil { order.append(email) }
            latest[email] = ["name": document["full_name"] as? String ?? "", "phone": document["phone"] as? String ?? ""]
            if document["event"] as? String == "lead.created" { created[email, default: 0] += 1 }
        }
        return order.flatMap { email in Array(repeating: ConformanceRecord(key: email, fields: latest[email]!), count: max(created[email] ?? 0, 1)) }
    }

    /// The dropped document must have been delivered again under its Idempotency-Key.
    func resendProblem() throws -> String? {
        let all = try deliveries()
        func key(_ delivery: [String: Any]) -> String { (delivery["headers"] as? [String: String])?["Idempotency-Key"] ?? "" }
        let dropped = all.filter { $0["status"] as? String == "dropped" }.map(key)
        if dropped.isEmpty { return "no delivery was dropped" }
        let delivered = Set(all.filter { ($0["status"] as? Int).map { (200..<300).contains($0) } ?? false }.map(key))
        let lost = dropped.filter { !delivered.contains($0) }
        return lost.isEmpty ? nil : "dropped and never delivered again under the same key: \(lost)"
    }

    func writes() throws -> Int { try deliveries().count }

    func dropped() throws -> Int? { try deliveries().filter { $0["status"] as? String == "dropped" }.count }

    func setPhone(_ phone: String?, of email: String) throws { throw ConformanceError.notInjectable("a hook's records") }

    func inject(_ fault: ConformanceFault) throws {
        switch fault {
        case .rateLimited(let seconds): try server.control("/_double/faults", ["statuses": [[429, "\(seconds)"]]])
        case .serverErrors(let statuses): try server.control("/_double/faults", ["statuses": statuses.map { [$0, NSNull()] }])
        case .droppedAfterApply: try server.control("/_double/faults", ["drop_after_write": 1])
        case .dropsAfterApply(let rate, let seed): try server.control("/_double/faults", ["drop_rate": rate, "seed": seed])
        case .throttled: break
        }
    }

    func refuse(email: String) throws -> String {
        try server.control("/_double/faults", ["reject": [["email": email, "status": 422, "error": "conformance: \(email) is not accepted"]]])
        return "conformance: \(email) is not accepted"
    }

    /// The receiver's secret was rotated: LeadPort still signs with the old one.
    func revokeCredential() throws -> (variable: String, secrets: [String]) {
        signing = "an-old-secret-8c0d"
        return ("LEADPORT_WEBHOOK_SECRET", [Self.secret, signing])
    }

    func restoreCredential() throws { signing = Self.secret }
}
