import Foundation
import HTTPKit

/// The access token, got from the refresh token (crm-apis.md §3.7) when first needed, again
/// `margin` seconds before it expires, and again when the API refuses it (401). Shared by every
/// thread of one client; one refresh at a time.
final class GoogleAccessToken: @unchecked Sendable {
    private let lock = NSLock()
    private let config: GoogleContactsConfig
    private let client: HTTPClient
    private let clock: any HTTPClock
    private let margin: Double
    private let timeout: Double
    private var token: String?
    private var expires: Double = 0
    /// Every access token issued to this client: all are scrubbed from messages, a stale one too.
    private var issued: [String] = []

    init(config: GoogleContactsConfig, client: HTTPClient, clock: any HTTPClock, margin: Double, timeout: Double) {
        (self.config, self.client, self.clock, self.margin, self.timeout) = (config, client, clock, margin, timeout)
    }

    var secrets: [String] { lock.withLock { issued } + config.secrets }

    /// A token good for at least `margin` more seconds.
    func current() throws -> String {
        try lock.withLock {
            if let token, clock.now < expires - margin { return token }
            return try fetch()
        }
    }

    /// A new token after the API refused `rejected`, unless another thread has already replaced it.
    func replace(_ rejected: String) throws -> String {
        try lock.withLock {
            if let token, token != rejected, clock.now < expires - margin { return token }
            return try fetch()
        }
    }

    /// `grant_type=refresh_token`, form-encoded. Runs under the lock.
    private func fetch() throws -> String {
        let form = [("client_id", config.clientID), ("client_secret", config.clientSecret), ("refresh_token", config.refreshToken),
                    ("grant_type", "refresh_token")]
        let body = form.map { "\($0.0)=\(Self.formEncode($0.1))" }.joined(separator: "&")
        let headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")])
        // A refresh only issues a token: sending it twice does no harm.
        let response = try client.send(HTTPRequest(method: "POST", url: config.tokenURL, headers: headers, body: Data(body.utf8), replayable: true, timeout: timeout))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        guard response.status == 200, let token = object?["access_token"] as? String, !token.isEmpty else {
            throw refusal(response)
        }
        issued.append(token)
        // Whatever the process prints or stores is scrubbed of it too (a server may echo it).
        KnownSecrets.add([token])
        self.token = token
        let lifetime = (object?["expires_in"] as? Double) ?? (object?["expires_in"] as? Int).map(Double.init) ?? 3599
        expires = clock.now + lifetime
        return token
    }

    private func refusal(_ response: HTTPResponse) -> GoogleContactsError {
        let redactor = Redactor(secrets: issued + GoogleContactsAPI.variants(config.secrets))
        let body = GoogleErrorBody(response.body)
        let said = redactor.redact(body.summary.isEmpty ? String(response.text.prefix(200)) : body.summary)
        switch (response.status, body.oauthError) {
        case (_, "invalid_grant"):
            return GoogleContactsError(.signInAgain, "Google no longer accepts GOOGLE_REFRESH_TOKEN (\(said)): sign in again with `leadport auth google` and set GOOGLE_REFRESH_TOKEN to the new token", status: response.status)
        case (_, "invalid_client"), (401, _):
            return GoogleContactsError(.credentialsRefused(variable: "GOOGLE_CLIENT_ID"), "Google refused the OAuth client (\(said)): check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET", status: response.status)
        case (400..<500, _):
            return GoogleContactsError(.credentialsRefused(variable: "GOOGLE_REFRESH_TOKEN"), "Google's token endpoint refused the refresh (\(response.status) \(said)): check GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REFRESH_TOKEN", status: response.status)
        default:
            return GoogleContactsError(.serverFailed(status: response.status), "Google's token endpoint kept failing (\(response.status) \(said)); try again later", status: response.status)
        }
    }

    /// A form value: everything but unreserved characters percent-encoded.
    static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

/// Puts the access token on every request; on a 401 gets a new token and sends once more (the
/// server acted on nothing it refused, so this is safe for writes too). A second 401 is the
/// caller's to report.
struct GoogleOAuth: HTTPMiddleware {
    let token: GoogleAccessToken

    func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        var r = request
        let sent = try token.current()
        r.headers["Authorization"] = "Bearer " + sent
        let response = try next(r)
        guard response.status == 401 else { return response }
        r.headers["Authorization"] = "Bearer " + (try token.replace(sent))
        return try next(r)
    }
}

/// Stops at once where waiting cannot help: a connection refused, a name
/// that does not resolve, a TLS failure (nothing reached the server), and the daily quota.
/// Thrown as `GoogleContactsError`, which `Retry` does not retry.
struct GoogleFailFast: HTTPMiddleware {
    /// The variable that names the server, for the message.
    let variable: String

    func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try next(request)
        } catch let error as HTTPTransportError {
            guard let reason = Self.neverReached(error) else { throw error }
            let host = request.url.host.map { $0 + (request.url.port.map { ":\($0)" } ?? "") } ?? "the server"
            throw GoogleContactsError(.unreachable(variable: variable), "cannot reach \(host) (\(reason)): check \(variable) and the network")
        }
        if response.status == 429, let limit = GoogleErrorBody(response.body).quotaLimit, limit.contains("PerDay") {
            throw GoogleContactsError(.quotaExhausted(daily: true), "the Google account's daily write quota (\(limit)) is spent; the rest is sent by a rerun after midnight Pacific time", status: 429)
        }
        return response
    }

    /// Why nothing reached the server, or nil when the request may have arrived (a reset, a
    /// connection closed before the answer, a timeout).
    static func neverReached(_ error: HTTPTransportError) -> String? {
        switch error {
        case .timedOut, .connectionLost: return nil
        case .failed(_, let reason), .unreachable(_, let reason): return reason
        }
    }
}
