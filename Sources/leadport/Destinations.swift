import ArgumentParser
import Foundation
import HTTPKit
import LeadEngine

/// `--to` values, and the destination each opens (design.md §4.4). Credentials come from the
/// environment only, never from the command line (where `ps` and shell history would keep them).
enum DestinationOption {
    static let help = "sqlite:PATH (the default, leadport.db), postgres://USER@HOST:PORT/DB, supabase, webhook:URL"

    enum Kind: Equatable {
        case sqlite(path: String)
        case postgres(url: String)
        case supabase
        case webhook(URL)
    }

    static func parse(_ value: String) throws -> Kind {
        if value.hasPrefix("sqlite:") {
            let path = String(value.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw ValidationError("--to sqlite: needs a file name, as in sqlite:leads.db") }
            return .sqlite(path: path)
        }
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            guard URLComponents(string: value)?.host != nil else {
                throw ValidationError("--to \(Postgres.displayName(value)) is not a PostgreSQL URL of the form postgres://USER:PASSWORD@HOST:PORT/DATABASE")
            }
            return .postgres(url: value)
        }
        if value == "supabase" { return .supabase }
        if value.hasPrefix("webhook:") {
            let address = String(value.dropFirst("webhook:".count))
            guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
                throw ValidationError("--to webhook: needs an http(s) URL, as in webhook:https://hooks.zapier.com/hooks/catch/123/abc/")
            }
            return .webhook(url)
        }
        if ["hubspot", "followupboss", "google-contacts"].contains(value) {
            throw ValidationError("destination \"\(value)\" is not available yet; use one of: \(help)")
        }
        throw ValidationError("unknown destination \"\(Redactor(secrets: []).redact(value))\"; use one of: \(help)")
    }

    /// The destination for `kind`, or nil for the embedded database. Retries are reported to
    /// `onRetry` (as progress events).
    static func open(_ kind: Kind, environment: [String: String] = ProcessInfo.processInfo.environment,
                     onRetry: @escaping @Sendable (Retry.Event) -> Void) throws -> (any Destination)? {
        // Seconds for one whole HTTP exchange (docs/http.md).
        let timeout = environment["LEADPORT_HTTP_TIMEOUT"].flatMap(Double.init).map { max(1, $0) } ?? 30
        switch kind {
        case .sqlite:
            return nil
        case .postgres(let url):
            return try PostgresDestination(url: url)
        case .supabase:
            // A missing or unreadable setting is a configuration problem (exit status 2).
            let config: SupabaseConfig
            do { config = try SupabaseConfig(environment: environment) } catch let error as DestinationError { throw ValidationError(error.description) }
            return try SupabaseDestination(config: config, client: client(SupabaseDestination.capabilities, auth: config.auth, onRetry: onRetry),
                                           timeout: timeout)
        case .webhook(let url):
            let secret = environment["LEADPORT_WEBHOOK_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
            return WebhookDestination(url: url, secret: secret, client: client(Webhook.capabilities, auth: nil, onRetry: onRetry), timeout: timeout)
        }
    }

    /// Retries outermost (each attempt is paced and authorised afresh), then the rate limiter
    /// starting from the destination's declared budget, then the credentials.
    static func client(_ capabilities: DestinationCapabilities, auth: Auth?, onRetry: @escaping @Sendable (Retry.Event) -> Void) -> HTTPClient {
        var chain: [any HTTPMiddleware] = [Retry(onRetry: onRetry), RateLimit(requests: capabilities.requests, per: capabilities.per)]
        if let auth { chain.append(auth) }
        return HTTPClient(transport: CurlTransport(), chain)
    }
}
