import Crypto
import Foundation

/// SHA-256 digests, in hex: what tells a sync job a file it delivered whole from one that changed.
public enum FileDigest {
    /// The file's content, read a megabyte at a time.
    public static func sha256(path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hex(hasher.finalize())
    }

    public static func text(_ text: String) -> String { hex(SHA256.hash(data: Data(text.utf8))) }

    private static func hex(_ digest: SHA256.Digest) -> String { digest.map { String(format: "%02x", $0) }.joined() }
}
