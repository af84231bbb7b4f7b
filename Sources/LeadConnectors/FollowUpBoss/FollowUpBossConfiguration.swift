import Foundation
import HTTPKit

/// Where and as whom `--to followupboss` writes, from the environment (crm-apis.md §2.1):
///
/// | variable | meaning |
/// | --- | --- |
/// | `FUB_API_KEY` | required: the API key (Admin › API), sent as the Basic user name with no password |
/// | `FUB_SYSTEM` | the registered system name, sent as `X-System` (default `LeadPort`) |
/// | `FUB_SYSTEM_KEY` | the key issued with that registration, sent as `X-System-Key`; without it Follow Up Boss serves the lower limit table (125 requests per 10 s instead of 250) |
/// | `FUB_BASE_URL` | scheme, host and port of the API (default `https://api.followupboss.com`); the client adds `/v1/…` |
/// | `FUB_IN_FLIGHT` | requests sent at once, 1 to 20 (default 8), all within the rate windows |
///
/// `FUB_SYSTEM` and `FUB_SYSTEM_KEY` go together: one without the other is an error naming
/// the one missing. The description shows neither key.
public struct FollowUpBossConfig: Sendable, Equatable, CustomStringConvertible {
    public static let defaultBaseURL = URL(string: "https://api.followupboss.com")!
    public static let defaultSystem = "LeadPort"

    public var apiKey: String
    public var system: String
    public var systemKey: String?
    public var baseURL: URL
    /// Whether the base URL came from `FUB_BASE_URL` (errors about reaching it then name it).
    public var baseURLFromEnvironment: Bool
    /// Requests in flight at once (`FUB_IN_FLIGHT`): a lead in backoff holds one of them, not
    /// the lane.
    public var inFlight = 8

    public init(apiKey: String, system: String = Self.defaultSystem, systemKey: String?, baseURL: URL = Self.defaultBaseURL, baseURLFromEnvironment: Bool = false) {
        (self.apiKey, self.system, self.systemKey, self.baseURL) = (apiKey, system, systemKey, baseURL)
        self.baseURLFromEnvironment = baseURLFromEnvironment
    }

    /// - Throws: `FollowUpBossError` of kind `.configuration`, naming the variable and what to set.
    public init(environment: [String: String]) throws {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let key = value("FUB_API_KEY") else {
            throw FollowUpBossError.missing("FUB_API_KEY", "set it to a Follow Up Boss API key (Admin › API in Follow Up Boss)")
        }
        try Self.checkHeaderValue(key, "FUB_API_KEY", colon: false)
        let system = value("FUB_SYSTEM")
        let systemKey = value("FUB_SYSTEM_KEY")
        switch (system, systemKey) {
        case (nil, _?):
            throw FollowUpBossError.missing("FUB_SYSTEM", "set it to the system name FUB_SYSTEM_KEY was issued for (X-System)")
        case (_?, nil):
            throw FollowUpBossError.missing("FUB_SYSTEM_KEY", "set it to the key Follow Up Boss issued when the system was registered (X-System-Key), or unset FUB_SYSTEM")
        default:
            break
        }
        if let system { try Self.checkHeaderValue(system, "FUB_SYSTEM", spaces: true) }
        if let systemKey { try Self.checkHeaderValue(systemKey, "FUB_SYSTEM_KEY") }
        var baseURL = Self.defaultBaseURL
        if let text = value("FUB_BASE_URL") { baseURL = try Self.baseURL(text) }
        self.init(apiKey: key, system: system ?? Self.defaultSystem, systemKey: systemKey, baseURL: baseURL, baseURLFromEnvironment: value("FUB_BASE_URL") != nil)
        if let text = value("FUB_IN_FLIGHT") {
            guard let n = Int(text), (1...20).contains(n) else { throw FollowUpBossError.malformed("FUB_IN_FLIGHT", "must be a whole number from 1 to 20 (requests sent at once), not \"\(text)\"") }
            inFlight = n
        }
    }

    /// A header value must be one line of printable ASCII: a key has no spaces, and the API key,
    /// being the Basic user name, no colon either.
    private static func checkHeaderValue(_ value: String, _ variable: String, spaces: Bool = false, colon: Bool = true) throws {
        let bad = value.unicodeScalars.contains { c in
            c.value > 0x7E || c.value < 0x20 || (c == " " && !spaces) || (c == ":" && !colon)
        }
        if bad {
            throw FollowUpBossError.malformed(variable, "holds characters no Follow Up Boss \(spaces ? "name" : "key") has (line breaks\(spaces ? "" : ", spaces")\(colon ? "" : ", a colon") or non-ASCII): set it to the value exactly as Follow Up Boss gave it")
        }
    }

    /// `FUB_BASE_URL` checked: http(s), a host, no path, query or credentials (a base
    /// URL is scheme, host and port; the client adds `/v1/…`).
    static func baseURL(_ text: String) throws -> URL {
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = parts.host, !host.isEmpty
        else {
            throw FollowUpBossError.malformed("FUB_BASE_URL", "is not an http(s) URL: set it to scheme, host and port, such as https://api.followupboss.com or http://127.0.0.1:8080")
        }
        guard parts.user == nil, parts.password == nil else {
            throw FollowUpBossError.malformed("FUB_BASE_URL", "holds a user name or password: set it to scheme, host and port only, and the key in FUB_API_KEY")
        }
        guard parts.path.isEmpty || parts.path == "/", parts.query == nil, parts.fragment == nil else {
            throw FollowUpBossError.malformed("FUB_BASE_URL", "has a path or query (\(parts.path)): set it to scheme, host and port only; LeadPort adds /v1/…")
        }
        var origin = URLComponents()
        origin.scheme = scheme
        origin.host = host
        origin.port = parts.port
        guard let url = origin.url else {
            throw FollowUpBossError.malformed("FUB_BASE_URL", "is not a URL LeadPort can use: set it to scheme, host and port")
        }
        return url
    }

    /// The credentials on every request: the key as the Basic user name (no password), and
    /// the system key when there is one. `X-System` is not a secret and goes with the request.
    public var auth: Auth {
        if let systemKey { return Auth(.basic(user: apiKey, password: ""), .apiKey(header: "X-System-Key", value: systemKey)) }
        return Auth(.basic(user: apiKey, password: ""))
    }

    /// Every secret in every form it may travel in (the key, `key:` in base64, the system key),
    /// for a `Redactor`.
    public var secrets: [String] { auth.secrets }

    public var description: String {
        "Follow Up Boss at \(baseURL.absoluteString) as system \(system)\(systemKey == nil ? " (unregistered: no FUB_SYSTEM_KEY)" : "")"
    }
}
