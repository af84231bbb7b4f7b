import Foundation
import LeadCore
import Yams

/// The settings destinations read their credentials and addresses from: the environment, and
/// LeadPort's config file for what the environment does not set (the environment wins, so a
/// cron job or a test can override one value without editing the file).
///
/// The file is `$XDG_CONFIG_HOME/leadport/config.yaml` (`~/.config/leadport/config.yaml` when
/// XDG_CONFIG_HOME is unset), or the file `LEADPORT_CONFIG` names: a YAML mapping of the same
/// names the environment uses, such as
///
///     HUBSPOT_TOKEN: pat-na1-…
///     SUPABASE_URL: https://abcd.supabase.co
///
/// It holds secrets, so it is refused when anyone but its owner may read or write it (chmod 600).
public struct Settings: Sendable {
    public let environment: [String: String]
    public let file: [String: String]
    /// Where `file` came from, when a file was read.
    public let path: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, file: [String: String] = [:], path: String? = nil) {
        (self.environment, self.file, self.path) = (environment, file, path)
    }

    /// The environment, and the config file when there is one.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        guard let path = configPath(environment: environment) else { return Settings(environment: environment) }
        var status = stat()
        guard stat(path, &status) == 0 else {
            // The default file is optional; one named by LEADPORT_CONFIG is not.
            if environment["LEADPORT_CONFIG"].map({ !$0.isEmpty }) ?? false {
                throw SettingsError(path: path, message: "no such file (LEADPORT_CONFIG names it)")
            }
            return Settings(environment: environment)
        }
        if status.st_mode & 0o077 != 0 {
            throw SettingsError(path: path, message: String(format: "others may read or change it (mode %o) and it holds credentials: run chmod 600 %@", status.st_mode & 0o777, path))
        }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw SettingsError(path: path, message: "cannot be read: \(error.localizedDescription)")
        }
        return Settings(environment: environment, file: try parse(text, path: path), path: path)
    }

    /// The config file's path: LEADPORT_CONFIG, else the XDG location.
    public static func configPath(environment: [String: String]) -> String? {
        if let named = environment["LEADPORT_CONFIG"], !named.isEmpty { return named }
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/leadport/config.yaml" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/leadport/config.yaml"
    }

    static func parse(_ text: String, path: String) throws -> [String: String] {
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw SettingsError(path: path, message: "is not valid YAML: \(error)")
        }
        guard let node else { return [:] }
        guard let mapping = node.mapping else {
            throw SettingsError(path: path, message: "must be a mapping of names to values, as in HUBSPOT_TOKEN: pat-…")
        }
        var values: [String: String] = [:]
        for (key, value) in mapping {
            guard let name = key.string, let text = value.scalar?.string else {
                throw SettingsError(path: path, message: "line \(key.mark?.line ?? 0): each entry must be NAME: value")
            }
            values[name] = text
        }
        return values
    }

    /// A setting's value (nil when unset or empty).
    public subscript(_ name: String) -> String? {
        if let value = environment[name], !value.isEmpty { return value }
        if let value = file[name], !value.isEmpty { return value }
        return nil
    }

    /// Every setting, the environment's over the file's: what a destination's configuration
    /// reads its variables from.
    public var values: [String: String] {
        file.merging(environment.filter { !$0.value.isEmpty }) { _, environment in environment }
    }

    /// Where a setting came from, for messages.
    public func origin(_ name: String) -> String {
        if let value = environment[name], !value.isEmpty { return "the environment" }
        if file[name] != nil, let path { return path }
        return "nowhere"
    }

    /// The values a destination must never print: every setting whose name says it is a
    /// secret.
    public var secrets: [String] {
        let names = Set(environment.keys).union(file.keys).filter(Self.isSecret)
        return names.compactMap { self[$0] }
    }

    public static func isSecret(_ name: String) -> Bool {
        ["TOKEN", "KEY", "SECRET", "PASSWORD"].contains { name.uppercased().contains($0) }
    }
}

extension Settings {
    /// Sets `name` to `value` in the config file (`configPath`), keeping its other lines and
    /// comments, and returns the file's path. The file is created when missing (its folder
    /// too, mode 700) and written whole to a new file of mode 600 that then takes its place,
    /// so it is never seen half-written or readable by others. An existing file that others
    /// may read is refused, as `load` refuses it.
    @discardableResult
    public static func store(_ name: String, _ value: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        guard let path = configPath(environment: environment) else {
            throw SettingsError(path: "(config file)", message: "neither LEADPORT_CONFIG, XDG_CONFIG_HOME nor HOME names where to keep it")
        }
        var lines: [String] = []
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & 0o077 != 0 {
                throw SettingsError(path: path, message: String(format: "others may read or change it (mode %o) and it holds credentials: run chmod 600 %@", status.st_mode & 0o777, path))
            }
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw SettingsError(path: path, message: "cannot be read: \(error.localizedDescription)")
            }
            _ = try parse(text, path: path)
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
        }
        // A YAML double-quoted scalar takes JSON's escapes.
        let entry = name + ": " + String(decoding: try Self.quoting.encode(value), as: UTF8.self)
        if let k = lines.firstIndex(where: { $0.hasPrefix(name + ":") }) { lines[k] = entry } else { lines.append(entry) }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let temporary = path + ".new-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SettingsError(path: path, message: "cannot be written: \(String(cString: strerror(errno)))") }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw SettingsError(path: path, message: "cannot be written: \(String(cString: strerror(errno)))")
        }
        return path
    }

    private static var quoting: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}

/// The config file cannot be used.
public struct SettingsError: Error, CustomStringConvertible, Classified {
    public var path: String
    public var message: String
    public var disposition: FailureDisposition { .usage }
    public var description: String { "\(path): \(message)" }
}
