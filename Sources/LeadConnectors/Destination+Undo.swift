/// One record a run wrote, for `leadport undo`.
public struct UndoItem: Sendable {
    public var key: String
    public var remoteID: String
    /// Made by the run (removed by the undo); otherwise updated by it (`before` given back).
    public var created: Bool
    /// A created record's version as written (an etag, or `FlyrVersion`'s hash).
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
    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        items.map { _ in .notUndoable("\(name) cannot remove or restore records through its API: undo it there") }
    }
}
