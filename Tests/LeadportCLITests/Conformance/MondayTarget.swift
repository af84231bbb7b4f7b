import Foundation
import LeadTesting

/// `--to monday` against fixtures/servers/monday_double.py: the board 1234567890, whose
/// Email and Phone columns are found by their titles.
final class MondayTarget: ConformanceTarget {
    static let token = "monday-test-token-00000000"
    static let board = "1234567890"
    let double: LocalServer
    var destination: String { "monday" }
    var environment: [String: String] {
        ["MONDAY_TOKEN": Self.token, "MONDAY_BOARD_ID": Self.board, "MONDAY_BASE_URL": "http://127.0.0.1:\(double.port)"]
    }
    var section: String { "monday" }
    var campaign: String? { nil }
    var user: String? { nil }
    var killRows: Int { 300 }
    var killSpan: Double { 4.0 }

    init(_ t: RemoteImport) throws {
        double = try LocalServer(script: "servers/monday_double.py", arguments: ["--lifetime", "600", "--token", Self.token])
    }

    func items() throws -> [[String: Any]] {
        let boards = try double.control("/_double/state")["boards"] as? [[String: Any]] ?? []
        return boards.first { $0["id"] as? String == Self.board }?["items"] as? [[String: Any]] ?? []
    }

    static func text(_ item: [String: Any], _ column: String) -> String {
        ((item["column_values"] as? [String: Any])?[column] as? [String: Any])?["text"] as? String ?? ""
    }

    func records() throws -> [ConformanceRecord] {
        try items().map { item in
            ConformanceRecord(key: Self.text(item, "email_mk1a").lowercased(), fields: ["name": item["name"] as? String ?? "", "phone": Self.text(item, "phone_mk2b")])
        }
    }

    func writes() throws -> Int { try double.control("/_double/stats")["writes"] as? Int ?? -1 }

    /// As an agent would, through the API: `change_multiple_column_values` on the item.
    func setPhone(_ phone: String?, of email: String) throws {
        guard let id = try items().first(where: { Self.text($0, "email_mk1a") == email })?["id"] as? String else {
            throw ConformanceError.notInjectable("no item has \(email)")
        }
        let values = "{\"phone_mk2b\": \(phone.map { "{\"phone\": \"\($0)\", \"countryShortName\": \"US\"}" } ?? "\"\"")}"
        let answer = try double.request("POST", "/v2", headers: [("Authorization", Self.token)],
                                        json: ["query": "mutation ($b: ID!, $i: ID!, $v: JSON!) { change_multiple_column_values(board_id: $b, item_id: $i, column_values: $v) { id } }",
                                               "variables": ["b": Self.board, "i": id, "v": values]])
        guard answer.status == 200, (answer.body as? [String: Any])?["errors"] == nil else { throw ConformanceError.notInjectable("the change answered \(answer)") }
    }

    func inject(_ fault: ConformanceFault) throws {
        switch fault {
        case .rateLimited(let seconds): try double.control("/_double/faults", ["statuses": [[429, "\(seconds)"]]])
        case .serverErrors(let statuses): try double.control("/_double/faults", ["statuses": statuses.map { [$0, NSNull()] }])
        case .droppedAfterApply: try double.control("/_double/faults", ["drop_after_write": 1])
        case .dropsAfterApply(let rate, let seed): try double.control("/_double/faults", ["drop_rate": rate, "seed": seed])
        // Each item waits 20 ms: 300 rows take some 6 s.
        case .throttled: try double.control("/_double/config", ["write_delay": 0.02])
        }
    }

    func dropped() throws -> Int? { try double.control("/_double/stats")["dropped"] as? Int }

    /// Counted by the double: a 502 to a create is settled by a look-up, which no `batch`
    /// retry event reports.
    func injected() throws -> Int? { try double.control("/_double/stats")["injected"] as? Int }

    func refuse(email: String) throws -> String {
        try double.control("/_double/faults", ["reject": [["email": email, "message": "Invalid email: \(email)"]]])
        return "Invalid email: \(email)"
    }

    func revokeCredential() throws -> (variable: String, secrets: [String]) {
        try double.control("/_double/config", ["echo_credentials_in_errors": true])
        try double.control("/_double/faults", ["credentials": "revoked"])
        return ("MONDAY_TOKEN", [Self.token])
    }

    func restoreCredential() throws { try double.control("/_double/faults", ["credentials": "valid"]) }
}
