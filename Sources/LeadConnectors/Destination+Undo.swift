import LeadCore

/// One record a run wrote, for `leadport undo`.
public struct UndoItem: Sendable {
    public var key: String
    public var remoteID: String
    /// Made by the run (removed by the undo); otherwise updated by it (`before` given back).
    public var created: Bool
    /// The record's version as the run wrote it (an etag, or `FlyrVersion`'s hash), when the
    /// destination keeps one.
    public var version: String?
    /// An update's fields as they were, and as it wrote them (the destination's field names).
    public var before: [String: String]
    public var after: [String: String]

    public init(key: String, remoteID: String, created: Bool, version: String?, before: [String: String] = [:], after: [String: String] = [:]) {
        (self.key, self.remoteID, self.created, self.version, self.before, self.after) = (key, remoteID, created, version, before, after)
    }
}

/// What `leadport undo` did with one record.
public enum UndoResult: Sendable, Equatable {
    /// Removed, or given back its values (what was done).
    case undone(String)
    /// Left alone: it no longer holds what LeadPort wrote (a person changed it since).
    case changedSince(String)
    /// Left alone: the destination cannot remove or restore records (a webhook).
    case notUndoable(String)
}

extension Destination {
    public var undoesUpdates: Bool { false }
    public func writtenVersion(_ lead: OutboundLead) -> String? { nil }

    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        items.map { _ in .notUndoable("\(name) cannot remove or restore records through its API: undo it there") }
    }
}

/// What a destination without versions of its own was sent, as one string for the ledger's
/// `remote_version`: `HASH|NAMES`, the hash of the values of the fields named (an email in any
/// case, as CRMs keep it). `leadport undo` reads those fields back: the same hash, no one
/// changed them since.
public enum PropertyVersion {
    public static func of(_ fields: [String: String]) -> String {
        let names = fields.keys.sorted()
        return hash(names.map { fields[$0] }, names: names) + "|" + names.joined(separator: ",")
    }

    /// The fields a version names.
    public static func names(_ version: String?) -> [String]? {
        guard let version, let bar = version.firstIndex(of: "|") else { return nil }
        return version[version.index(after: bar)...].split(separator: ",").map(String.init)
    }

    /// Whether `current` (the named fields as read) still holds what was written.
    public static func holds(_ version: String?, _ current: [String: String]) -> Bool {
        guard let version, let names = names(version), let bar = version.firstIndex(of: "|") else { return false }
        return hash(names.map { current[$0] }, names: names) == String(version[..<bar])
    }

    private static func hash(_ values: [String?], names: [String]) -> String {
        var h = FNV64()
        for (name, value) in zip(names, values) {
            h.mix(name)
            h.mix(name == "email" ? value?.lowercased() : value)
        }
        return String(h.value, radix: 16)
    }
}
