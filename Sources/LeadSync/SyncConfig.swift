import Foundation
import LeadCore
import Yams
import LeadNormalize

/// `leadport sync --config sync.yaml` (docs/sync.md): named jobs, each reading files
/// or a PostgreSQL table and sending what changed to its destinations.
///
/// ```yaml
/// ledger: leadport.db
/// jobs:
///   - name: nightly-contacts
///     source:
///       postgres: postgres://flyr@db.example.com/flyr    # $VAR references allowed
///       table: contacts                                  # the default
///       where: "user_id = '…'"                           # optional
///       # files: "inbox/*.csv"
///     preset: flyr-contacts
///     to: [hubspot, followupboss]
///     exclude: [dnc.csv]
/// ```
public struct SyncConfig: Sendable, Equatable {
    /// Where the ledger, the watermarks and the runs are kept: a SQLite file (relative to the
    /// config file's folder).
    public var ledger: String
    /// Where each job's JSON-lines log is kept (rotated): default `logs` beside the config.
    public var logs: String
    public var jobs: [Job]
    /// `ledger: postgres://…`: the shared ledger `sync --worker` processes claim jobs from.
    public var shared: String?
    /// How long a worker's claim lasts unless it renews it (`lease_seconds`, default 60).
    public var leaseSeconds = 60
    /// The file it was read from.
    public var path: String

    public struct Job: Sendable, Equatable {
        public var name: String
        public var files: [String]
        public var table: TableSource?
        public var preset: String?
        public var mapping: String?
        public var enrich: String?
        /// The destinations, as `--to` takes them (a `sqlite:` file's path from the config's folder).
        public var to: [String]
        /// The destinations as the configuration writes them, for people.
        public var written: [String] = []
        public var exclude: [String]
        public var campaign: String?
        public var user: String?
        public var region: String?
        /// `strict_fields: true`: as `import --strict-fields`.
        public var strictFields = false
        /// The line it starts at, for messages.
        public var line: Int?
    }

    /// A PostgreSQL table read incrementally: the rows whose (`updated`, `id`) come after the
    /// watermark, in that order.
    public struct TableSource: Sendable, Equatable {
        public var url: String
        public var table: String
        public var filter: String?
        public var updated: String
        public var id: String
        /// Seconds a row's `updated` must be in the past before the watermark moves past it
        /// (`lag_seconds`, default 60): a transaction still open as the job reads commits rows
        /// stamped when it began, behind rows already read; they are read the next night.
        public var lag = 60
    }
}

/// A configuration that cannot be used: names the file and, where it can, the line.
public typealias SyncConfigError = ConfigFileError

extension SyncConfig {
    static let keys: Set<String> = ["ledger", "logs", "jobs", "lease_seconds"]
    static let jobKeys: Set<String> = ["name", "source", "preset", "mapping", "enrich", "to", "exclude", "campaign", "user", "region", "strict_fields"]
    static let sourceKeys: Set<String> = ["files", "postgres", "table", "where", "user_id", "updated_column", "id_column", "lag_seconds"]

    /// `environment`: what `$VAR` references are taken from (the settings: the environment and
    /// the config file); `expanding` false leaves them as written (for `status` and
    /// `--print-cron`, which connect to nothing).
    public static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment, expanding: Bool = true) throws -> SyncConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SyncConfigError(path: path, line: nil, message: FileManager.default.fileExists(atPath: path) ? "cannot read the sync configuration (permissions?)" : "no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw SyncConfigError(path: path, line: nil, message: "is not UTF-8 text") }
        return try parse(text, path: path, environment: environment, expanding: expanding)
    }

    /// Reads a configuration; relative paths in it are taken from the folder of `path`, made
    /// absolute, so that a job's state is the same whichever way the configuration is named
    /// (`sync.yaml` by hand, its full path from cron).
    public static func parse(_ text: String, path: String, environment: [String: String] = [:], expanding: Bool = true) throws -> SyncConfig {
        func fail(_ node: Node?, _ message: String) -> SyncConfigError {
            SyncConfigError(path: path, line: node?.mark.map { $0.line }, message: message)
        }
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else { throw fail(nil, "the file is empty: it needs jobs:") }
            root = composed
        } catch let error as YamlError {
            throw SyncConfigError(path: path, line: nil, message: "not valid YAML: \(error)")
        }
        let folder = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().deletingLastPathComponent().path
        func local(_ file: String) -> String {
            file.hasPrefix("/") || folder.isEmpty ? file : folder + "/" + file
        }
        guard let top = root.mapping else { throw fail(root, "a sync configuration is a mapping with ledger: and jobs:") }
        var seen: [String: Node] = [:]
        for (key, value) in top {
            guard let name = key.string, keys.contains(name) else {
                throw fail(key, "unknown key \"\(key.string ?? "?")\"; the file has: \(keys.sorted().joined(separator: ", "))")
            }
            seen[name] = value
        }
        func word(_ node: Node, _ name: String) throws -> String {
            guard let value = node.scalar?.string, !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail(node, "\(name) is a piece of text") }
            return value
        }
        func texts(_ node: Node, _ name: String) throws -> [String] {
            if node.scalar != nil { return [try word(node, name)] }
            guard let items = node.sequence else { throw fail(node, "\(name) is a list, as in [a, b]") }
            return try items.map { try word($0, name) }
        }
        var ledger = try seen["ledger"].map { try word($0, "ledger") } ?? "leadport.db"
        var shared: String?
        // A ledger named through a variable is taken as a URL when it expands to one (when not
        // expanded, as for status and --print-cron, as one it may be).
        let expanded = try seen["ledger"].map { try expand(ledger, environment: expanding ? environment : nil, node: $0, fail: fail) } ?? ledger
        if expanded.hasPrefix("postgres") || (!expanding && ledger.hasPrefix("$")) {
            shared = expanded
            // The workers' own ledgers (filled from the shared one for each claim) go with the logs.
            ledger = "leadport-worker.db"
        }
        var lease = 60
        if let node = seen["lease_seconds"] {
            guard let value = node.scalar.flatMap({ Int($0.string) }), (5...3600).contains(value) else { throw fail(node, "lease_seconds is a whole number of seconds from 5 to 3600") }
            guard shared != nil else { throw fail(node, "lease_seconds is for workers sharing a PostgreSQL ledger (ledger: postgres://…)") }
            lease = value
        }
        guard let jobsNode = seen["jobs"] else { throw fail(root, "jobs: is missing: name at least one job") }
        guard let items = jobsNode.sequence, !items.isEmpty else { throw fail(jobsNode, "jobs is a list of jobs, each starting with - name: …") }
        var jobs: [Job] = []
        for item in items {
            guard let map = item.mapping else { throw fail(item, "a job is a mapping (name, source, preset or mapping, to, exclude)") }
            var fields: [String: Node] = [:]
            for (key, value) in map {
                guard let name = key.string, jobKeys.contains(name) else {
                    throw fail(key, "unknown key \"\(key.string ?? "?")\" in a job; a job has: \(jobKeys.sorted().joined(separator: ", "))")
                }
                fields[name] = value
            }
            guard let nameNode = fields["name"] else { throw fail(item, "the job has no name:") }
            let name = try word(nameNode, "name")
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                throw fail(nameNode, "a job's name is letters, digits, - _ and . (it names its lock and log files): \"\(name)\"")
            }
            guard !jobs.contains(where: { $0.name == name }) else { throw fail(nameNode, "two jobs are named \(name)") }
            guard let sourceNode = fields["source"], let source = sourceNode.mapping else {
                throw fail(fields["source"] ?? item, "the job \(name) needs a source: with files: (a glob) or postgres: (a URL)")
            }
            var parts: [String: Node] = [:]
            for (key, value) in source {
                guard let part = key.string, sourceKeys.contains(part) else {
                    throw fail(key, "unknown key \"\(key.string ?? "?")\" in a source; a source has: \(sourceKeys.sorted().joined(separator: ", "))")
                }
                parts[part] = value
            }
            let files = try parts["files"].map { try texts($0, "files").map(local) } ?? []
            var table: TableSource?
            if let urlNode = parts["postgres"] {
                let url = try expand(try word(urlNode, "postgres"), environment: expanding ? environment : nil, node: urlNode, fail: fail)
                guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") || !expanding else { throw fail(urlNode, "postgres: is a postgres:// URL") }
                var filter = try parts["where"].map { try word($0, "where") }
                if let userNode = parts["user_id"] {
                    let user = try word(userNode, "user_id")
                    guard UUID(uuidString: user) != nil else { throw fail(userNode, "user_id is a user's id (a UUID)") }
                    filter = ["user_id = '\(user)'", filter.map { "(\($0))" }].compactMap { $0 }.joined(separator: " AND ")
                }
                table = TableSource(url: url, table: try parts["table"].map { try identifier($0, "table", text: word, fail: fail) } ?? "contacts", filter: filter,
                                    updated: try parts["updated_column"].map { try identifier($0, "updated_column", text: word, fail: fail) } ?? "updated_at",
                                    id: try parts["id_column"].map { try identifier($0, "id_column", text: word, fail: fail) } ?? "id")
                if let node = parts["lag_seconds"] {
                    guard let value = node.scalar.flatMap({ Int($0.string) }), (0...86_400).contains(value) else { throw fail(node, "lag_seconds is a whole number of seconds from 0 to 86400") }
                    table?.lag = value
                }
            } else if let stray = ["table", "where", "user_id", "updated_column", "id_column", "lag_seconds"].compactMap({ parts[$0] }).first {
                throw fail(stray, "table, where and user_id go with postgres: (the database to read)")
            }
            guard !files.isEmpty || table != nil else { throw fail(sourceNode, "the source of \(name) names no files: and no postgres:") }
            guard let toNode = fields["to"] else { throw fail(item, "the job \(name) has no destinations (to: [hubspot, …])") }
            let to = try texts(toNode, "to").map { try expand($0, environment: expanding ? environment : nil, node: toNode, fail: fail) }
            if to.filter({ $0.hasPrefix("sqlite:") }).count > 1 {
                throw fail(toNode, "the job \(name) names two sqlite: destinations; one embedded database a job (it also keeps the job's ledger)")
            }
            if Set(to).count < to.count { throw fail(toNode, "the job \(name) names a destination twice") }
            if fields["preset"] != nil && fields["mapping"] != nil { throw fail(fields["mapping"], "give a job preset: or mapping:, not both") }
            if let node = fields["region"], case let region = try word(node, "region"), !PhoneRule.knowsRegion(region) {
                throw fail(node, "region: " + PhoneRule.unknownRegion(region))
            }
            jobs.append(Job(name: name, files: files, table: table, preset: try fields["preset"].map { try word($0, "preset") },
                            mapping: try fields["mapping"].map { local(try word($0, "mapping")) }, enrich: try fields["enrich"].map { local(try word($0, "enrich")) },
                            to: to.map { $0.hasPrefix("sqlite:") && !$0.hasPrefix("sqlite:/") ? "sqlite:" + local(String($0.dropFirst(7))) : $0 },
                            exclude: try fields["exclude"].map { try texts($0, "exclude").map(local) } ?? [],
                            campaign: try fields["campaign"].map { try word($0, "campaign") }, user: try fields["user"].map { try word($0, "user") },
                            region: try fields["region"].map { try word($0, "region") }, line: item.mark.map { $0.line }))
            jobs[jobs.count - 1].written = to
            if let node = fields["strict_fields"] {
                switch try word(node, "strict_fields").lowercased() {
                case "true", "yes": jobs[jobs.count - 1].strictFields = true
                case "false", "no": break
                default: throw fail(node, "strict_fields is true or false")
                }
            }
        }
        var configuration = SyncConfig(ledger: local(ledger), logs: local(try seen["logs"].map { try word($0, "logs") } ?? "logs"), jobs: jobs, path: path)
        (configuration.shared, configuration.leaseSeconds) = (shared, lease)
        return configuration
    }

    /// A column or table name as SQL takes it (letters, digits, _; a schema-qualified table too).
    private static func identifier(_ node: Node, _ name: String, text: (Node, String) throws -> String, fail: (Node?, String) -> SyncConfigError) throws -> String {
        let value = try text(node, name)
        guard value.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !part.first!.isNumber
        }) else { throw fail(node, "\(name) is a name of letters, digits and _ (\"\(value)\")") }
        return value
    }

    /// `$NAME` and `${NAME}` from the environment; one not set is an error naming it.
    static func expand(_ value: String, environment: [String: String]?, node: Node, fail: (Node?, String) -> SyncConfigError) throws -> String {
        guard let environment else { return value }
        var out = ""
        var rest = Substring(value)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            var after = rest[rest.index(after: dollar)...]
            let braced = after.first == "{"
            if braced { after = after.dropFirst() }
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !name.isEmpty else {
                out.append("$")
                rest = rest[rest.index(after: dollar)...]
                continue
            }
            guard let found = environment[String(name)] else { throw fail(node, "$\(name) is set neither in the environment nor in LeadPort's config file") }
            out += found
            rest = after.dropFirst(name.count)
            if braced {
                guard rest.first == "}" else { throw fail(node, "${\(name) has no closing }") }
                rest = rest.dropFirst()
            }
        }
        return out + rest
    }
}
