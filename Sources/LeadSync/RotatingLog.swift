import Foundation

/// A job's JSON-lines log: rotated whenever it grows past `limit` (5 MiB), at a run's start or
/// in its middle (five old ones kept: events.log.1 … .5), readable by its owner alone.
public final class RotatingLog: @unchecked Sendable {
    public static let limit = 5 << 20
    private let path: String
    private let limit: Int
    private var handle: FileHandle
    private var size: Int

    /// - Parameter limit: bytes a file may hold before it is rotated (tests make it small).
    public init(path: String, limit: Int = RotatingLog.limit) throws {
        self.path = path
        self.limit = limit
        (handle, size) = try Self.open(path)
        if size > limit { try rotate() }
    }

    private static func open(_ path: String) throws -> (FileHandle, Int) {
        let files = FileManager.default
        if !files.fileExists(atPath: path) { _ = files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw SyncError(message: "cannot write the job's log \(path)") }
        return (handle, Int(try handle.seekToEnd()))
    }

    private func rotate() throws {
        try? handle.close()
        let files = FileManager.default
        try? files.removeItem(atPath: path + ".5")
        for k in stride(from: 4, through: 1, by: -1) { try? files.moveItem(atPath: path + ".\(k)", toPath: path + ".\(k + 1)") }
        try files.moveItem(atPath: path, toPath: path + ".1")
        (handle, size) = try Self.open(path)
    }

    /// Called one event at a time (the reporter's lock).
    public func write(_ line: String) {
        let data = Data(line.utf8)
        if size + data.count > limit, size > 0 { try? rotate() }
        try? handle.write(contentsOf: data)
        size += data.count
    }

    public func close() { try? handle.close() }
}
