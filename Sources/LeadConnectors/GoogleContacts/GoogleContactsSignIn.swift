import Crypto
import Foundation
import HTTPKit

/// `leadport auth google`: signs a Google account in the way desktop apps do (RFC 8252: the
/// browser is sent to Google's consent page, which redirects to a loopback port of LeadPort's
/// own with a code; PKCE, RFC 7636, binds that code to this process) and gets the refresh token
/// `--to google-contacts` needs.
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `GOOGLE_CLIENT_ID`, `GOOGLE_CLIENT_SECRET` | the OAuth client (a "Desktop app" client) | required |
/// | `GOOGLE_AUTH_URL` | the consent page | `https://accounts.google.com/o/oauth2/v2/auth` |
/// | `GOOGLE_TOKEN_URL` | the token endpoint | `https://oauth2.googleapis.com/token` |
public struct GoogleSignIn: Sendable {
    public static let defaultAuthURL = URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!
    /// Read and write the account's contacts and contact groups (crm-apis.md §3).
    public static let scope = "https://www.googleapis.com/auth/contacts"

    public var clientID: String
    public var clientSecret: String
    public var authURL: URL
    public var tokenURL: URL
    /// PKCE: the secret this process keeps, and its digest, which the consent page gets.
    public let verifier: String
    public let state: String

    public init(settings: [String: String]) throws {
        func required(_ name: String, _ what: String) throws -> String {
            guard let value = settings[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                throw GoogleContactsError(.configuration(variable: name), "set \(name) to \(what) (docs/destinations.md, Google Contacts)")
            }
            return value
        }
        clientID = try required("GOOGLE_CLIENT_ID", "the id of a Desktop app OAuth client (….apps.googleusercontent.com) from the Google Cloud console")
        clientSecret = try required("GOOGLE_CLIENT_SECRET", "that OAuth client's secret")
        authURL = try GoogleContactsConfig.url(settings, "GOOGLE_AUTH_URL", pathAllowed: true) ?? Self.defaultAuthURL
        tokenURL = try GoogleContactsConfig.url(settings, "GOOGLE_TOKEN_URL", pathAllowed: true) ?? GoogleContactsConfig.defaultTokenURL
        verifier = Self.random(48)
        state = Self.random(24)
    }

    /// The consent page's address for a redirect to `redirectURI`: offline access (a refresh
    /// token) and the consent screen each time (Google gives a refresh token only then).
    public func authorizationURL(redirectURI: String) -> URL {
        var parts = URLComponents(url: authURL, resolvingAgainstBaseURL: false)!
        parts.queryItems = (parts.queryItems ?? []) + [
            URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "scope", value: Self.scope),
            URLQueryItem(name: "access_type", value: "offline"),
            URLQueryItem(name: "prompt", value: "consent"),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: Self.challenge(verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        // A `+` in a query is a space to some servers: the scope's and the values' are encoded.
        parts.percentEncodedQuery = parts.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return parts.url!
    }

    /// The redirect's answer: the code, or why there is none.
    public func code(from query: [String: String]) throws -> String {
        if let error = query["error"] {
            let why = error == "access_denied" ? "the sign-in was cancelled or consent refused" : "Google answered \(error)"
            throw GoogleContactsError(.credentialsRefused(variable: "GOOGLE_CLIENT_ID"), "\(why); run `leadport auth google` again and allow access to contacts")
        }
        guard let code = query["code"], !code.isEmpty else {
            throw GoogleContactsError(.credentialsRefused(variable: "GOOGLE_CLIENT_ID"), "the redirect carried no code; run `leadport auth google` again")
        }
        return code
    }

    /// Trades the code for tokens (`grant_type=authorization_code`, with the PKCE verifier);
    /// returns the refresh token.
    public func exchange(code: String, redirectURI: String, timeout: Double = 30) throws -> String {
        let form = [("code", code), ("client_id", clientID), ("client_secret", clientSecret), ("redirect_uri", redirectURI),
                    ("grant_type", "authorization_code"), ("code_verifier", verifier)]
        let body = form.map { "\($0.0)=\(GoogleAccessToken.formEncode($0.1))" }.joined(separator: "&")
        let headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")])
        // A code is good once: the request is not sent again on a lost answer.
        let client = HTTPClient(transport: CurlTransport(), [Retry(onRetry: { _ in })])
        let response: HTTPResponse
        do {
            response = try client.send(HTTPRequest(method: "POST", url: tokenURL, headers: headers, body: Data(body.utf8), replayable: false, timeout: timeout))
        } catch {
            throw GoogleContactsError(.unreachable(variable: "GOOGLE_TOKEN_URL"), "cannot reach Google's token endpoint \(tokenURL.host ?? "") (\(error)): check GOOGLE_TOKEN_URL and the network")
        }
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        if let access = object?["access_token"] as? String { KnownSecrets.add([access]) }
        guard response.status == 200 else {
            let said = Redactor(secrets: [clientSecret, code, verifier]).redact(GoogleErrorBody(response.body).summary)
            let variable = response.status == 401 || GoogleErrorBody(response.body).oauthError == "invalid_client" ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID"
            throw GoogleContactsError(.credentialsRefused(variable: variable), "Google refused the sign-in (\(response.status) \(said)): check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (a Desktop app client) and run `leadport auth google` again")
        }
        guard let refresh = object?["refresh_token"] as? String, !refresh.isEmpty else {
            throw GoogleContactsError(.credentialsRefused(variable: "GOOGLE_REFRESH_TOKEN"), "Google signed the account in but gave no refresh token; remove LeadPort's access at https://myaccount.google.com/permissions and run `leadport auth google` again")
        }
        KnownSecrets.add([refresh])
        return refresh
    }

    /// `count` random bytes as unpadded base64url (PKCE's verifier alphabet).
    static func random(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return base64url(bytes)
    }

    /// RFC 7636 §4.2: BASE64URL(SHA256(verifier)).
    static func challenge(_ verifier: String) -> String { base64url(Array(SHA256.hash(data: Data(verifier.utf8)))) }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
