import Foundation
import LeadTesting

/// `--to google-contacts` against fixtures/servers/google_people_double.py.
final class GoogleContactsTarget: ConformanceTarget {
    static let clientID = "conformance-client.apps.googleusercontent.com"
    static let secret = "conformance-client-secret-5d1e"
    static let refresh = "1//conformance-refresh-token-9a3c"
    let double: LocalServer
    var destination: String { "google-contacts" }
    var environment: [String: String] {
        ["GOOGLE_CLIENT_ID": Self.clientID, "GOOGLE_CLIENT_SECRET": Self.secret, "GOOGLE_REFRESH_TOKEN": Self.refresh,
         "GOOGLE_PEOPLE_BASE_URL": double.url("").absoluteString, "GOOGLE_TOKEN_URL": double.url("/token").absoluteString]
    }
    var section: String { "google-contacts" }
    var user: String? { nil }
    var killSpan: Double { 5.0 }

    init(_ t: RemoteImport) throws {
        double = try LocalServer(script: "servers/google_people_double.py", arguments: [
            "--lifetime", "600", "--client-id", Self.clientID, "--client-secret", Self.secret, "--refresh-token", Self.refresh])
    }

    func contacts() throws -> [[String: Any]] { try double.control("/_double/state")["contacts"] as? [[String: Any]] ?? [] }

    static func first(_ contact: [String: Any], _ field: String, _ key: String = "value") -> String {
        (contact[field] as? [[String: Any]])?.first?[key] as? String ?? ""
    }

    func records() throws -> [ConformanceRecord] {
        try contacts().map { contact in
            // The latest number, and all: phones are appended to.
            let phones = (contact["phoneNumbers"] as? [[String: Any]] ?? []).compactMap { $0["canonicalForm"] as? String ?? $0["value"] as? String }
            return ConformanceRecord(key: Self.first(contact, "emailAddresses").lowercased(),
                                     fields: ["name": [Self.first(contact, "names", "givenName"), Self.first(contact, "names", "familyName")].joined(separator: " "),
                                              "phone": phones.last ?? "", "phones": phones.joined(separator: ", ")])
        }
    }

    func writes() throws -> Int { try double.control("/_double/stats")["writes"] as? Int ?? -1 }

    /// Through the People API as Google Contacts' own app would: a token, then an update that
    /// carries the contact's etag.
    func setPhone(_ phone: String?, of email: String) throws {
        guard let contact = try contacts().first(where: { Self.first($0, "emailAddresses") == email }),
              let name = contact["resourceName"] as? String, let etag = contact["etag"] as? String else {
            throw ConformanceError.notInjectable("no contact has \(email)")
        }
        let form = "grant_type=refresh_token&client_id=\(Self.clientID)&client_secret=\(Self.secret)&refresh_token=\(Self.refresh)"
        let grant = try double.request("POST", "/token", headers: [("Content-Type", "application/x-www-form-urlencoded")], raw: Data(form.utf8))
        guard let token = (grant.body as? [String: Any])?["access_token"] as? String else { throw ConformanceError.notInjectable("no access token") }
        let answer = try double.request("PATCH", "/v1/\(name):updateContact?updatePersonFields=phoneNumbers", headers: [("Authorization", "Bearer \(token)")],
                                        json: ["etag": etag, "phoneNumbers": phone.map { [["value": $0]] } ?? []])
        guard answer.status == 200 else { throw ConformanceError.notInjectable("updateContact answered \(answer.status): \(answer.body ?? "")") }
    }

    func inject(_ fault: ConformanceFault) throws {
        switch fault {
        case .rateLimited(let seconds): try double.control("/_double/faults", ["statuses": [[429, "\(seconds)"]], "scope": "writes"])
        case .serverErrors(let statuses): try double.control("/_double/faults", ["statuses": statuses.map { [$0, NSNull()] }, "scope": "writes"])
        case .droppedAfterApply: try double.control("/_double/faults", ["drop_after_write": 1])
        case .dropsAfterApply(let rate, let seed): try double.control("/_double/faults", ["drop_rate": rate, "seed": seed])
        // Google's own pace (90 writes a minute) already makes 2,000 rows last some 7 s.
        case .throttled: break
        }
    }

    /// LeadPort's own handling of a 500, 502 or 504 after a write (a look for what was made,
    /// then a resend) reports no retry event, so the double's count is the evidence.
    func injected() throws -> Int? { try double.control("/_double/stats")["injected"] as? Int }

    func dropped() throws -> Int? { try double.control("/_double/stats")["dropped"] as? Int }

    func refuse(email: String) throws -> String {
        try double.control("/_double/faults", ["invalid_values": [email]])
        return "emailAddresses[0].value"
    }

    /// Access tokens that live two seconds, and writes that take one each: the run's token
    /// expires under it, and LeadPort must refresh it (before expiry, or on the 401).
    func expireCredential() throws -> Bool {
        try double.control("/_double/config", ["token_lifetime": 2, "write_delay": 1.0])
        return true
    }

    func grants() throws -> Int { try double.control("/_double/stats")["token_grants"] as? Int ?? -1 }

    func revokeCredential() throws -> (variable: String, secrets: [String]) {
        try double.control("/_double/config", ["echo_credentials_in_errors": true])
        try double.control("/_double/faults", ["revoke": true])
        return ("GOOGLE_REFRESH_TOKEN", [Self.refresh, Self.secret])
    }

    func restoreCredential() throws { try double.control("/_double/faults", ["revoke": false]) }
}
