import Foundation
import LeadTesting

/// `--to hubspot` against fixtures/servers/hubspot_double.py.
final class HubSpotTarget: ConformanceTarget {
    static let token = "pat-na1-00000000-0000-4000-8000-000000000000"
    let double: LocalServer
    var destination: String { "hubspot" }
    var environment: [String: String] { ["HUBSPOT_TOKEN": Self.token, "HUBSPOT_BASE_URL": "http://127.0.0.1:\(double.port)"] }
    var section: String { "hubspot" }
    var campaign: String? { nil }
    var user: String? { nil }
    var killSpan: Double { 4.0 }

    init(_ t: RemoteImport) throws {
        double = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "600"])
    }

    func records() throws -> [ConformanceRecord] {
        (try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? []).map { contact in
            let properties = contact["properties"] as? [String: String] ?? [:]
            return ConformanceRecord(key: (properties["email"] ?? "").lowercased(),
                                     fields: ["name": [properties["firstname"], properties["lastname"]].compactMap { $0 }.joined(separator: " "),
                                              "phone": properties["phone"] ?? ""])
        }
    }

    func writes() throws -> Int { try double.control("/_double/stats")["writes"] as? Int ?? -1 }

    func setPhone(_ phone: String?, of email: String) throws {
        let answer = try double.request("PATCH", "/crm/v3/objects/contacts/\(email)?idProperty=email", headers: [("Authorization", "Bearer \(Self.token)")],
                                        json: ["properties": ["phone": phone ?? ""]])
        guard answer.status == 200 else { throw ConformanceError.notInjectable("PATCH answered \(answer.status)") }
    }

    func inject(_ fault: ConformanceFault) throws {
        switch fault {
        case .rateLimited(let seconds): try double.control("/_double/faults", ["statuses": [[429, "\(seconds)"]]])
        case .serverErrors(let statuses): try double.control("/_double/faults", ["statuses": statuses.map { [$0, NSNull()] }])
        case .droppedAfterApply: try double.control("/_double/faults", ["drop_after_write": 1])
        case .dropsAfterApply(let rate, let seed): try double.control("/_double/faults", ["drop_rate": rate, "seed": seed])
        // Four requests a second: 2,000 rows (20 upserts) take some 5 s.
        case .throttled: try double.control("/_double/config", ["burst": 4, "window_ms": 1000])
        }
    }

    func dropped() throws -> Int? { try double.control("/_double/stats")["dropped"] as? Int }

    func refuse(email: String) throws -> String {
        try double.control("/_double/faults", ["reject": [["property": "email", "value": email, "error": "INVALID_EMAIL",
                                                            "message": "Email address \(email) is invalid"]]])
        return "INVALID_EMAIL"
    }

    func revokeCredential() throws -> (variable: String, secrets: [String]) {
        try double.control("/_double/config", ["echo_credentials_in_errors": true])
        try double.control("/_double/faults", ["credentials": "revoked"])
        return ("HUBSPOT_TOKEN", [Self.token])
    }

    func restoreCredential() throws { try double.control("/_double/faults", ["credentials": "valid"]) }
}
