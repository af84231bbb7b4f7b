#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reader's bytes come from: a file descriptor, or memory in tests.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes; returns 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A file read with plain `read(2)`, no buffering of its own.
public final class FileByteSource: ByteSource {
    private let fd: Int32
    private let name: String

    /// Opens `path` for reading; "-" is standard input.
    public init(path: String, displayName: String) throws {
        name = displayName
        if path == "-" {
            fd = 0
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            let code = errno
            throw ReaderError(file: displayName, code == ENOENT ? .notFound : .unreadable(String(cString: strerror(code))))
        }
        fd = opened
    }

    deinit { if fd != 0 { close(fd) } }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ReaderError(file: name, .unreadable(String(cString: strerror(errno))))
        }
    }
}

/// Bytes held in memory, handed out in pieces no larger than `chunkSize` (for drip-feed tests).
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    private var chunkSizes: [Int]
    private var nextChunk = 0

    /// - Parameter chunkSizes: sizes of successive reads, cycled; `[Int.max]` reads whole.
    public init(_ bytes: [UInt8], chunkSizes: [Int] = [Int.max]) {
        self.bytes = bytes
        self.chunkSizes = chunkSizes.isEmpty ? [Int.max] : chunkSizes
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = min(buffer.count, chunkSizes[nextChunk % chunkSizes.count], bytes.count - offset)
        nextChunk += 1
        guard want > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: want)
        }
        offset += want
        return want
    }
}
