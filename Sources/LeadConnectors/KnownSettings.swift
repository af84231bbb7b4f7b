import Foundation

/// The settings LeadPort reads (from the environment or its config file), and the names that
/// look like one of them but are not: a mistyped `HUBSPOT_URL` is otherwise ignored without a
/// word, and the run goes to the real HubSpot instead of the test server it was meant for.
///
/// `names` is the list of what the code reads; `KnownSettingsTests` checks it against every
/// such name in `Sources/`, so that a new setting cannot be left out of it.
public enum KnownSettings {
    public static let names: Set<String> = [
        "HUBSPOT_TOKEN", "HUBSPOT_BASE_URL", "HUBSPOT_PROPERTIES", "HUBSPOT_NOTES_PROPERTY", "HUBSPOT_LIFECYCLE_STAGE", "HUBSPOT_ID_PROPERTY",
        "FUB_API_KEY", "FUB_BASE_URL", "FUB_SYSTEM", "FUB_SYSTEM_KEY", "FUB_IN_FLIGHT", "FUB_EVENT_TYPE", "FUB_SOURCE", "FUB_TAGS",
        "FUB_HISTORICAL", "FUB_CUSTOM_FIELDS",
        "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET", "GOOGLE_REFRESH_TOKEN", "GOOGLE_AUTH_URL", "GOOGLE_TOKEN_URL", "GOOGLE_PEOPLE_BASE_URL",
        "SUPABASE_URL", "SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_ANON_KEY", "SUPABASE_ACCESS_TOKEN",
        "OPENAI_API_KEY", "OPENAI_BASE_URL",
        "LEADPORT_CONFIG", "LEADPORT_MAPPINGS", "LEADPORT_FAIL_AFTER", "LEADPORT_HTTP_TIMEOUT", "LEADPORT_SYNC_PAGE_ROWS",
        "LEADPORT_WEBHOOK_SECRET", "LEADPORT_TEST_POSTGRES",
    ]

    /// Prefixes of LeadPort's own settings and of the services it talks to. A name with
    /// one of the first four that is not a setting is reported whatever it is; one with the
    /// others (shared with other tools: `GOOGLE_APPLICATION_CREDENTIALS`) only when it is
    /// close to a setting.
    static let ownPrefixes = ["LEADPORT_", "HUBSPOT_", "FUB_", "FOLLOWUPBOSS_"]
    static let sharedPrefixes = ["GOOGLE_", "SUPABASE_", "OPENAI_"]

    /// A name that looks like a setting and is not one, with the setting it most likely means.
    public struct Lookalike: Sendable, Equatable {
        public var name: String
        public var nearest: String?
    }

    /// The names among `names` that look like LeadPort's settings but are not, sorted.
    public static func lookalikes(_ candidates: some Sequence<String>) -> [Lookalike] {
        candidates.filter { !names.contains($0) }.sorted().compactMap { name in
            let upper = name.uppercased()
            // A setting written in another case (`hubspot_token`) is the setting, mistyped.
            if names.contains(upper) { return Lookalike(name: name, nearest: upper) }
            let own = ownPrefixes.contains { upper.hasPrefix($0) }
            guard own || sharedPrefixes.contains(where: { upper.hasPrefix($0) }) else { return nil }
            // Follow Up Boss's settings are FUB_…: FOLLOWUPBOSS_API_KEY means FUB_API_KEY.
            let compared = upper.hasPrefix("FOLLOWUPBOSS_") ? "FUB_" + upper.dropFirst("FOLLOWUPBOSS_".count) : upper
            // Ranked by edits, a name ending as it does (`…_URL`, `…_KEY`) counted two nearer.
            let last = compared.split(separator: "_").last
            let ranked = names.map { ($0, distance(compared, $0), $0.split(separator: "_").last == last ? 2 : 0) }
                .min { ($0.1 - $0.2, $0.0) < ($1.1 - $1.2, $1.0) }
            let close = ranked.flatMap { $0.1 <= max(3, $0.0.count / 3) ? $0.0 : nil }
            if own { return Lookalike(name: name, nearest: close) }
            return close.map { Lookalike(name: name, nearest: $0) }
        }
    }

    /// One line in LeadPort's voice for a look-alike found in `place` (`the environment`, a
    /// config file's path).
    public static func message(_ lookalike: Lookalike, in place: String) -> String {
        "\(lookalike.name): not a setting LeadPort reads (in \(place)), so it changes nothing"
            + (lookalike.nearest.map { "; did you mean \($0)? Rename it" } ?? "; see docs/destinations.md for the settings")
    }

    /// Levenshtein distance between two names.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

extension Settings {
    /// The environment's and the config file's names that look like settings but are not,
    /// each as a line to print (`leadport: NAME: …`).
    public var lookalikeWarnings: [String] {
        KnownSettings.lookalikes(environment.keys).map { KnownSettings.message($0, in: "the environment") }
            + KnownSettings.lookalikes(file.keys).map { KnownSettings.message($0, in: path ?? "the config file") }
    }
}
