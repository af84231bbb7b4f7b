#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer for stdout that turns a closed pipe into `BrokenPipe`.
final class StandardOutput {
    nonisolated(unsafe) static let shared = StandardOutput()

    private var buffer: [UInt8] = []
    private let capacity = 1 << 16

    init() { buffer.reserveCapacity(capacity + 4096) }

    func write(_ text: String) throws {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    func write(bytes: UnsafeBufferPointer<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    func write(byte: UInt8) {
        buffer.append(byte)
    }

    func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                if errno == EPIPE { throw BrokenPipe() }
                throw BrokenPipe()
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
