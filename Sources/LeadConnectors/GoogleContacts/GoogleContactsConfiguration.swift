import Foundation

/// Where and as whom `--to google-contacts` writes, from the environment:
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `GOOGLE_CLIENT_ID` | the OAuth client's id (`….apps.googleusercontent.com`) | required |
/// | `GOOGLE_CLIENT_SECRET` | the OAuth client's secret | required |
/// | `GOOGLE_REFRESH_TOKEN` | the signed-in user's refresh token (`leadport auth google`) | required |
/// | `GOOGLE_PEOPLE_BASE_URL` | scheme, host and port of the People API; the client adds `/v1/…` | `https://people.googleapis.com` |
/// | `GOOGLE_TOKEN_URL` | the whole URL of the token endpoint | `https://oauth2.googleapis.com/token` |
///
/// `description` shows the URLs and the client id, never the secret or the token.
public struct GoogleContactsConfig: Sendable, CustomStringConvertible {
    public static let defaultBaseURL = URL(string: "https://people.googleapis.com")!
    public static let defaultTokenURL = URL(string: "https://oauth2.googleapis.com/token")!

    public var clientID: String
    public var clientSecret: String
    public var refreshToken: String
    /// Scheme, host and port only.
    public var baseURL: URL
    public var tokenURL: URL

    public init(clientID: String, clientSecret: String, refreshToken: String, baseURL: URL = defaultBaseURL, tokenURL: URL = defaultTokenURL) {
        (self.clientID, self.clientSecret, self.refreshToken, self.baseURL, self.tokenURL) = (clientID, clientSecret, refreshToken, baseURL, tokenURL)
    }

    /// Reads the variables above; blank counts as missing.
    /// - Throws: `GoogleContactsError` (`.configuration`) naming the first variable missing or malformed.
    public init(environment: [String: String]) throws {
        func required(_ name: String, _ what: String) throws -> String {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                throw GoogleContactsError(.configuration(variable: name), "set \(name) to \(what)")
            }
            return value
        }
        let clientID = try required("GOOGLE_CLIENT_ID", "the OAuth client's id (….apps.googleusercontent.com) from the Google Cloud console")
        let secret = try required("GOOGLE_CLIENT_SECRET", "the OAuth client's secret from the Google Cloud console")
        let token = try required("GOOGLE_REFRESH_TOKEN", "a refresh token for the Google account (run `leadport auth google` to get one)")
        let base = try Self.url(environment, "GOOGLE_PEOPLE_BASE_URL", pathAllowed: false) ?? Self.defaultBaseURL
        let tokenURL = try Self.url(environment, "GOOGLE_TOKEN_URL", pathAllowed: true) ?? Self.defaultTokenURL
        self.init(clientID: clientID, clientSecret: secret, refreshToken: token, baseURL: base, tokenURL: tokenURL)
    }

    /// An optional URL variable: nil when unset, else an http(s) URL with a host (and, for a base
    /// URL, no path: the client adds the API's own).
    static func url(_ environment: [String: String], _ name: String, pathAllowed: Bool) throws -> URL? {
        guard let text = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        let example = pathAllowed ? "https://oauth2.googleapis.com/token" : "https://people.googleapis.com, or http://127.0.0.1:8080 for a test server"
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parts.host, !host.isEmpty, parts.user == nil, parts.password == nil, parts.query == nil, parts.fragment == nil,
              pathAllowed || parts.path.isEmpty || parts.path == "/", let url = parts.url
        else {
            throw GoogleContactsError(.configuration(variable: name), "\(name) is not \(pathAllowed ? "an http(s) URL" : "a scheme, host and port only"): set it like \(example)")
        }
        guard !pathAllowed else { return url }
        var origin = parts
        origin.path = ""
        return origin.url ?? url
    }

    /// Every secret the configuration holds, for a `Redactor`.
    public var secrets: [String] { [clientSecret, refreshToken] }

    public var description: String {
        "Google Contacts at \(baseURL.absoluteString) (client \(clientID), tokens from \(tokenURL.absoluteString))"
    }
}
