import Foundation
import HTTPKit
import LeadCore

/// Where `--to` can point (design.md §4.4): one entry per kind of destination, each with how its
/// `--to` value is written, how it is checked, and how it is opened from the settings. The
/// executable only looks destinations up here; a new destination is one more entry (and its
/// folder), nothing in the engine or the command line.
public enum DestinationRegistry {
    /// A `--to` value, checked: which entry it names, and the value itself (which may hold a
    /// password, as in postgres://user:secret@host/db: show `display`, never `value`).
    public struct Target: Sendable, Equatable {
        public let kind: String
        public let value: String
        /// The embedded database's file, for `sqlite:PATH`.
        public let embeddedPath: String?

        /// How messages show the value: a PostgreSQL URL without its password and query, any
        /// other with its credentials masked (`stored`).
        public var display: String { kind == "postgres" ? Postgres.displayName(value) : stored }

        /// What the ledger's runs keep: the value with every credential in it
        /// masked — a URL's password, a webhook's query token — which still names the
        /// destination. A PostgreSQL URL loses its password outright, as undo takes it from the
        /// environment again; a SQLite file is kept as given.
        public var stored: String {
            if embeddedPath != nil { return value }
            var text = value
            if kind == "postgres", var parts = URLComponents(string: text), parts.password != nil {
                parts.password = nil
                text = parts.string ?? text
            }
            return Redactor.maskCredentials(inURL: text)
        }
    }

    public struct Entry: Sendable {
        public let kind: String
        /// How the value is written, for --help and messages.
        public let usage: String
        /// Whether `value` is meant for this entry (by its scheme).
        let claims: @Sendable (String) -> Bool
        /// Checks the value (a usage error when malformed): the embedded path, if any.
        let check: @Sendable (String) throws -> String?
        /// The destination, from the settings (nil: the embedded database).
        let open: @Sendable (Target, Settings, Connection) throws -> (any Destination)?
    }

    /// What every remote destination shares: how long one HTTP exchange may take, and where
    /// retries are reported.
    public struct Connection: Sendable {
        public var timeout: Double
        /// Seconds of nothing but server errors after which the destination stops
        /// (`LEADPORT_FAIL_AFTER`, default 60; `FailFast`).
        public var failAfter: Double
        public var onRetry: @Sendable (Retry.Event) -> Void

        public init(settings: Settings, onRetry: @escaping @Sendable (Retry.Event) -> Void) {
            // Seconds for one whole HTTP exchange (docs/http.md).
            timeout = settings["LEADPORT_HTTP_TIMEOUT"].flatMap(Double.init).map { max(1, $0) } ?? 30
            failAfter = settings["LEADPORT_FAIL_AFTER"].flatMap(Double.init).map { max(0, $0) } ?? FailFast.standard
            self.onRetry = onRetry
        }

        /// Retries outermost (each attempt is paced and authorised afresh), then the fail-fast
        /// limit that sees every attempt, then the rate limiter starting from the destination's
        /// declared budget, then the credentials.
        public func client(_ capabilities: DestinationCapabilities, auth: Auth?) -> HTTPClient {
            var chain: [any HTTPMiddleware] = [Retry(onRetry: onRetry), FailFast(after: failAfter), RateLimit(requests: capabilities.requests, per: capabilities.per)]
            if let auth { chain.append(auth) }
            return HTTPClient(transport: CurlTransport(), chain)
        }
    }

    public static let entries: [Entry] = [sqlite, postgres, supabase, webhook, hubspot, followUpBoss, googleContacts, monday]

    /// The `--to` forms, for --help.
    public static var help: String { entries.map(\.usage).joined(separator: ", ") }

    public static func parse(_ given: String) throws -> Target {
        let value = canonical(given)
        guard let entry = entries.first(where: { $0.claims(value) }) else {
            throw RegistryError(message: "unknown destination \"\(Redactor(secrets: []).redact(value))\"; use one of: \(help)")
        }
        return Target(kind: entry.kind, value: value, embeddedPath: try entry.check(value))
    }

    /// A `--to` value with its name or scheme in lower case (`HubSpot` is `hubspot`,
    /// `SQLite:Leads.db` is `sqlite:Leads.db`): the path or address after the colon as given.
    static func canonical(_ value: String) -> String {
        guard let colon = value.firstIndex(of: ":") else { return value.lowercased() }
        return value[..<colon].lowercased() + value[colon...]
    }

    /// The destination `target` names (nil for the embedded database).
    public static func open(_ target: Target, settings: Settings, onRetry: @escaping @Sendable (Retry.Event) -> Void) throws -> (any Destination)? {
        guard let entry = entries.first(where: { $0.kind == target.kind }) else {
            throw RegistryError(message: "unknown destination \"\(target.display)\"")
        }
        // Whatever is printed or stored from here on is scrubbed of them.
        var secrets = settings.secrets
        if let password = URLComponents(string: target.value)?.password { secrets.append(password) }
        KnownSecrets.add(secrets)
        return try entry.open(target, settings, Connection(settings: settings, onRetry: onRetry))
    }

    /// The embedded database at `path`, which a `sqlite:` target (or no `--to`) names: opened by
    /// the run beside its own store, which it is then handed (`Destination.attach`).
    public static func embedded(path: String) -> any Destination { EmbeddedDestination(path: path) }

    // MARK: The entries

    /// Opens nothing: the run opens the file as its store, and the destination with it (`embedded`).
    static let sqlite = Entry(kind: "sqlite", usage: "sqlite:PATH (the default, leadport.db)",
                              claims: { $0.hasPrefix("sqlite:") },
                              check: { value in
                                  let path = String(value.dropFirst("sqlite:".count))
                                  guard !path.isEmpty else { throw RegistryError(message: "--to sqlite: needs a file name, as in sqlite:leads.db") }
                                  return path
                              },
                              open: { _, _, _ in nil })

    static let postgres = Entry(kind: "postgres", usage: "postgres://USER@HOST:PORT/DB",
                                claims: { $0.hasPrefix("postgres://") || $0.hasPrefix("postgresql://") },
                                check: { value in
                                    guard URLComponents(string: value)?.host != nil else {
                                        throw RegistryError(message: "--to \(Postgres.displayName(value)) is not a PostgreSQL URL of the form postgres://USER:PASSWORD@HOST:PORT/DATABASE")
                                    }
                                    return nil
                                },
                                open: { target, _, _ in try PostgresDestination(url: target.value) })

    static let supabase = Entry(kind: "supabase", usage: "supabase",
                                claims: { $0 == "supabase" },
                                check: { _ in nil },
                                open: { _, settings, connection in
                                    // A missing or unreadable setting is a configuration problem (exit status 2).
                                    let config: SupabaseConfig
                                    do { config = try SupabaseConfig(environment: settings.values) } catch let error as DestinationError {
                                        throw DestinationError(destination: error.destination, message: error.message, disposition: .usage)
                                    }
                                    return try SupabaseDestination(config: config, client: connection.client(SupabaseDestination.capabilities, auth: config.auth),
                                                                   timeout: connection.timeout)
                                })

    static let webhook = Entry(kind: "webhook", usage: "webhook:URL",
                               claims: { $0.hasPrefix("webhook:") },
                               check: { value in
                                   let address = String(value.dropFirst("webhook:".count))
                                   guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
                                       throw RegistryError(message: "--to webhook: needs an http(s) URL, as in webhook:https://hooks.zapier.com/hooks/catch/123/abc/")
                                   }
                                   return nil
                               },
                               open: { target, settings, connection in
                                   let url = URL(string: String(target.value.dropFirst("webhook:".count)))!
                                   // A catch hook's URL is its credential, unless all of it is shown anyway
                                   // (`http://127.0.0.1:8080/hook`): then it hides nothing, and redacting it
                                   // would make the destination's own name `webhook:[redacted]`.
                                   if WebhookDestination.hidesPart(of: url) { KnownSecrets.add([url.absoluteString]) }
                                   return WebhookDestination(url: url, secret: settings["LEADPORT_WEBHOOK_SECRET"],
                                                             client: connection.client(Webhook.capabilities, auth: nil), timeout: connection.timeout)
                               })

    static let hubspot = Entry(kind: "hubspot", usage: "hubspot",
                               claims: { $0 == "hubspot" },
                               check: { _ in nil },
                               open: { _, settings, connection in
                                   // HUBSPOT_TOKEN is a secret by its name (Settings.isSecret), registered already.
                                   do throws(HubSpotError) {
                                       return HubSpotDestination(config: try HubSpotConfig(environment: settings.values), mapping: try HubSpotMapping(settings: settings.values),
                                                                 timeout: connection.timeout, onRetry: connection.onRetry)
                                   } catch {
                                       throw DestinationError(destination: "hubspot", message: error.message, disposition: .usage)
                                   }
                               })

    /// Follow Up Boss paces and retries through its own client (one window per rate-limit
    /// context), not `connection.client`.
    static let followUpBoss = Entry(kind: FollowUpBossDestination.kind, usage: "followupboss (FUB_API_KEY)",
                                    claims: { $0 == FollowUpBossDestination.kind },
                                    check: { _ in nil },
                                    open: { _, settings, connection in
                                        try FollowUpBossDestination.open(settings: settings, timeout: connection.timeout, onRetry: connection.onRetry)
                                    })

    static let googleContacts = Entry(kind: "google-contacts", usage: "google-contacts",
                                      claims: { $0 == "google-contacts" },
                                      check: { _ in nil },
                                      open: { _, settings, connection in
                                          // A missing or malformed variable is a configuration problem (exit status 2).
                                          let config: GoogleContactsConfig
                                          do { config = try GoogleContactsConfig(environment: settings.values) } catch let error as GoogleContactsError {
                                              throw DestinationError(destination: "google-contacts", message: error.message, disposition: .usage)
                                          }
                                          let api = GoogleContactsAPI(config: config, policy: GoogleContactsAPI.Policy(timeout: connection.timeout), onRetry: connection.onRetry)
                                          return GoogleContactsDestination(api: api)
                                      })
}

/// A `--to` value that names no destination, or names one badly: a usage error (exit 2).
public struct RegistryError: Error, CustomStringConvertible, Classified {
    public var message: String
    public var disposition: FailureDisposition { .usage }
    public var description: String { message }
}
