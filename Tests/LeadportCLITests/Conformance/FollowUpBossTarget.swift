import Foundation
import LeadTesting

/// `--to followupboss` against fixtures/servers/followupboss_double.py.
final class FollowUpBossTarget: ConformanceTarget {
    static let key = "fub-test-key"
    static let systemKey = "fub-test-system-key"
    let double: LocalServer
    var destination: String { "followupboss" }
    var environment: [String: String] {
        ["FUB_API_KEY": Self.key, "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": Self.systemKey, "FUB_BASE_URL": "http://127.0.0.1:\(double.port)"]
    }
    var section: String { "followupboss" }
    var killRows: Int { 300 }
    var killSpan: Double { 4.0 }

    init(_ t: RemoteImport) throws {
        double = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "600"])
    }

    func people() throws -> [[String: Any]] { try double.control("/_double/state")["people"] as? [[String: Any]] ?? [] }

    static func first(_ person: [String: Any], _ list: String) -> String {
        (person[list] as? [[String: Any]])?.first?["value"] as? String ?? ""
    }

    static func all(_ person: [String: Any], _ list: String) -> [String] {
        (person[list] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
    }

    func records() throws -> [ConformanceRecord] {
        try people().map { person in
            ConformanceRecord(key: Self.first(person, "emails").lowercased(),
                              fields: ["name": [person["firstName"] as? String, person["lastName"] as? String].compactMap { $0 }.joined(separator: " "),
                                       // The latest number, and all: phones are appended to.
                                       "phone": Self.all(person, "phones").last ?? "", "phones": Self.all(person, "phones").joined(separator: ", ")])
        }
    }

    func writes() throws -> Int { try double.control("/_double/stats")["writes"] as? Int ?? -1 }

    func setPhone(_ phone: String?, of email: String) throws {
        guard let id = try people().first(where: { Self.first($0, "emails") == email })?["id"] as? Int else {
            throw ConformanceError.notInjectable("no person has \(email)")
        }
        let basic = "Basic " + Data("\(Self.key):".utf8).base64EncodedString()
        let answer = try double.request("PUT", "/v1/people/\(id)", headers: [("Authorization", basic)], json: ["phones": phone.map { [["value": $0]] } ?? []])
        guard answer.status == 200 else { throw ConformanceError.notInjectable("PUT answered \(answer.status)") }
    }

    func inject(_ fault: ConformanceFault) throws {
        let events = ["method": "POST", "path": "/v1/events"]
        switch fault {
        case .rateLimited(let seconds):
            try double.control("/_double/faults", ["match": events, "responses": [["status": 429, "retry_after": "\(seconds)"]]])
        case .serverErrors(let statuses):
            try double.control("/_double/faults", ["match": events, "responses": statuses.map { ["status": $0] }])
        case .droppedAfterApply:
            try double.control("/_double/faults", ["after": 1, "match": events, "responses": [["drop": true]]])
        case .dropsAfterApply(let rate, let seed):
            try double.control("/_double/faults", ["match": events, "drop_rate": rate, "seed": seed])
        // 60 events a second: 300 rows take some 5 s.
        case .throttled:
            try double.control("/_double/config", ["window": 1, "limits": ["POST.events": 60]])
        }
    }

    func dropped() throws -> Int? { try double.control("/_double/stats")["dropped"] as? Int }

    /// Counted by the double: a 502 or 504 to an event is settled by a look-up, which no
    /// `batch` retry event reports.
    func injected() throws -> Int? { try double.control("/_double/stats")["injected"] as? Int }

    func refuse(email: String) throws -> String {
        try double.control("/_double/faults", ["reject": [["email": email, "errorMessage": "Invalid email: \(email)"]]])
        return "Invalid email: \(email)"
    }

    func revokeCredential() throws -> (variable: String, secrets: [String]) {
        try double.control("/_double/config", ["echo_credentials_in_errors": true])
        try double.control("/_double/faults", ["revoke": true])
        return ("FUB_API_KEY", [Self.key, Self.systemKey, Data("\(Self.key):".utf8).base64EncodedString()])
    }

    func restoreCredential() throws { try double.control("/_double/faults", ["restore": true]) }
}
