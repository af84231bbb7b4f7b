import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One run of a job at a time: an exclusive flock(2) on the job's lock file, let go when the
/// process ends however it ends (a killed run holds nothing).
public final class JobLock {
    private let descriptor: Int32

    /// Takes the lock; nil when another process (or another open of it here) holds it.
    /// - Throws: `SyncError` when the lock file cannot be opened.
    public init?(path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SyncError(message: "cannot open the job's lock \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(fd)
            return nil
        }
        descriptor = fd
        let holder = "pid \(getpid()) since \(SyncJob.iso(Date()))"
        _ = ftruncate(fd, 0)
        _ = holder.withCString { write(fd, $0, strlen($0)) }
    }

    public func release() {
        _ = ftruncate(descriptor, 0)
        _ = flock(descriptor, LOCK_UN)
        Glibc.close(descriptor)
    }

    /// A job's lock: beside the ledger, which every run of the job shares.
    public static func path(ledger: String, job: String) -> String { ledger + ".sync-" + job + ".lock" }

    /// Whether a run holds the lock now (without taking it).
    public static func isHeld(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return true }
        _ = flock(fd, LOCK_UN)
        return false
    }

    /// Who holds the lock, as it wrote itself there.
    public static func holder(path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
    }
}
