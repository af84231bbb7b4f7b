import Foundation

/// Where and as whom `--to hubspot` writes, from the environment:
///
/// | variable | meaning |
/// | --- | --- |
/// | `HUBSPOT_TOKEN` | a private app's access token (`pat-na1-…`), sent as `Authorization: Bearer`; needs the `crm.objects.contacts.read` and `.write` scopes |
/// | `HUBSPOT_BASE_URL` | optional: scheme, host and port only (`http://127.0.0.1:8080`, a proxy, an EU host); the client adds `/crm/v3/…`. Default `https://api.hubapi.com` |
///
/// The token never appears in `description` or in any error message.
public struct HubSpotConfig: Sendable, CustomStringConvertible {
    public static let tokenVariable = "HUBSPOT_TOKEN"
    public static let baseURLVariable = "HUBSPOT_BASE_URL"
    public static let defaultBaseURL = URL(string: "https://api.hubapi.com")!

    public var token: String
    /// Scheme, host and port; no path.
    public var baseURL: URL

    public init(token: String, baseURL: URL = HubSpotConfig.defaultBaseURL) {
        (self.token, self.baseURL) = (token, baseURL)
    }

    /// Reads the variables above; an empty variable counts as unset.
    /// - Throws: `HubSpotError` of kind `.configuration(variable:)`, whose message names the
    ///   variable and says what to set.
    public init(environment: [String: String]) throws(HubSpotError) {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let tokenName = Self.tokenVariable
        guard let token = value(tokenName) else {
            throw HubSpotError(.configuration(variable: tokenName),
                               "set \(tokenName) to a HubSpot private app's access token (Settings › Integrations › Private apps; scopes crm.objects.contacts.read and crm.objects.contacts.write)")
        }
        if token.lowercased().hasPrefix("bearer ") {
            throw HubSpotError(.configuration(variable: tokenName), "\(tokenName) holds \"Bearer …\": set it to the token alone, without \"Bearer \"")
        }
        // A token is sent in a header: a space, a line break or a non-ASCII character would
        // corrupt the request (or split it), so refuse it here rather than as a 401 later.
        guard token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw HubSpotError(.configuration(variable: tokenName),
                               "\(tokenName) is malformed (it holds spaces or characters a token cannot): set it to the private app's access token as HubSpot shows it")
        }
        var baseURL = Self.defaultBaseURL
        if let text = value(Self.baseURLVariable) {
            baseURL = try Self.baseURL(text)
        }
        self.init(token: token, baseURL: baseURL)
    }

    /// `HUBSPOT_BASE_URL` checked: http(s), a host, nothing after the port.
    static func baseURL(_ text: String) throws(HubSpotError) -> URL {
        let name = baseURLVariable
        let example = "(https://api.hubapi.com, or http://127.0.0.1:8080 for a local server)"
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parts.host, !host.isEmpty
        else {
            throw HubSpotError(.configuration(variable: name), "\(name) is not an http(s) URL with a host: set it to scheme, host and port only \(example), or unset it")
        }
        guard parts.path.isEmpty || parts.path == "/", parts.query == nil, parts.fragment == nil, parts.user == nil, parts.password == nil else {
            throw HubSpotError(.configuration(variable: name),
                               "\(name) must be scheme, host and port only \(example): LeadPort adds the API's paths (/crm/v3/…) itself")
        }
        var clean = URLComponents()
        (clean.scheme, clean.host, clean.port) = (scheme, host, parts.port)
        guard let url = clean.url else {
            throw HubSpotError(.configuration(variable: name), "\(name) is not a URL LeadPort can use: set it to scheme, host and port only \(example)")
        }
        return url
    }

    /// Every secret this configuration holds, for a `Redactor`.
    public var secrets: [String] { [token] }

    /// `HubSpot at https://api.hubapi.com`: the token is never shown.
    public var description: String { "HubSpot at \(baseURL.absoluteString)" }
}
