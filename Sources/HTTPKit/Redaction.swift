import Foundation

/// Removes secrets from anything about to be logged, shown or stored: the given secret values
/// wherever they appear (a token echoed in an error body, a key in a URL), and the values of
/// credential headers and query parameters whatever they hold.
public struct Redactor: Sendable {
    public static let mask = "[redacted]"
    static let secretHeaders: Set<String> = ["authorization", "apikey", "x-api-key", "api-key", "proxy-authorization", "cookie", "set-cookie",
                                             "x-leadport-signature"]
    static let secretParameters: Set<String> = ["apikey", "api_key", "key", "token", "access_token", "refresh_token", "client_secret", "hapikey",
                                                "secret", "password", "signature", "sig"]

    private let secrets: [String]

    /// Whether a query parameter of this name holds a credential: one of `secretParameters`, or
    /// a name that says so (`auth_token`, `X-Api-Key`, `hook_secret`, `pass`, `sig`).
    public static func isSecretParameter(_ name: String) -> Bool {
        let name = name.lowercased()
        return secretParameters.contains(name) || ["token", "secret", "key", "pass", "auth", "sig"].contains { name.contains($0) }
    }

    /// A URL as text with its credentials masked, the rest as written: the password of its
    /// userinfo and the value of every credential query parameter (`isSecretParameter`). Built
    /// on the text, so that what is not a credential stays byte for byte.
    public static func maskCredentials(inURL text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        var rest = Substring(text[schemeEnd.upperBound...])
        let fragment = rest.firstIndex(of: "#").map { rest[$0...] } ?? ""
        rest = rest.dropLast(fragment.count)
        let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] }
        if let query { rest = rest.dropLast(query.count + 1) }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            authority = authority[...colon] + mask + authority[at...]
        }
        var out = text[..<schemeEnd.upperBound] + authority + rest[authorityEnd...]
        if let query {
            out += "?" + query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let name = String(pair[..<equals])
                return isSecretParameter(name.removingPercentEncoding ?? name) ? name + "=" + mask : String(pair)
            }.joined(separator: "&")
        }
        return String(out + fragment)
    }

    /// Secrets shorter than 4 characters are ignored: masking them would mangle ordinary text.
    public init(secrets: [String]) {
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    public func redact(_ text: String) -> String {
        var out = text
        for secret in secrets { out = out.replacingOccurrences(of: secret, with: Self.mask) }
        return out
    }

    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { field in
            (field.name, Self.secretHeaders.contains(field.name.lowercased()) ? Self.mask : redact(field.value))
        })
    }

    public func redact(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return redact(url.absoluteString) }
        parts.queryItems = parts.queryItems?.map { item in
            URLQueryItem(name: item.name, value: Self.isSecretParameter(item.name) ? Self.mask : item.value)
        }
        if parts.password != nil { parts.password = Self.mask }
        return redact(parts.string ?? url.absoluteString)
    }
}

/// Reports every attempt (method, URL, status or error, time) with the secrets taken out.
public struct RedactedLog: HTTPMiddleware {
    public let redactor: Redactor
    public let clock: any HTTPClock
    public let log: @Sendable (String) -> Void

    public init(redactor: Redactor, clock: any HTTPClock = SystemClock(), log: @escaping @Sendable (String) -> Void) {
        (self.redactor, self.clock, self.log) = (redactor, clock, log)
    }

    public func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        let start = clock.now
        let line = "\(request.method) \(redactor.redact(request.url))"
        do {
            let response = try next(request)
            log("\(line) → \(response.status) in \(String(format: "%.3f", clock.now - start)) s")
            return response
        } catch {
            log("\(line) → \(redactor.redact(String(describing: error)))")
            throw error
        }
    }
}

/// Every secret this process holds (tokens and keys from the settings, the password in a
/// PostgreSQL URL), registered as each destination opens, so that whatever LeadPort prints or
/// stores — an error on stderr, a progress event, a line of the report — can be scrubbed of
/// them, even when a server repeats one in its answer.
public enum KnownSecrets {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var redactor = Redactor(secrets: [])
    nonisolated(unsafe) private static var values: [String] = []

    public static func add(_ secrets: [String]) {
        lock.withLock {
            values += secrets.filter { !values.contains($0) }
            redactor = Redactor(secrets: values)
        }
    }

    /// `text` with every known secret masked.
    public static func redact(_ text: String) -> String {
        let current = lock.withLock { values.isEmpty ? nil : redactor }
        return current?.redact(text) ?? text
    }
}
