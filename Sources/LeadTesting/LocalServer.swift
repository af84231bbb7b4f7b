import Foundation

/// A test server run as its own process (a Python script in `fixtures/servers/`), on a free
/// port it reports as `listening PORT PID`; stopped when the value goes.
public final class LocalServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    /// The server's own process id (`python3` may be started through a launcher such as
    /// pyenv's, whose process is not the server's).
    private let serverPID: pid_t

    public init(script: String, arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Fixture.url(script).path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count >= 3, words[0] == "listening", let port = Int(words[1]), let pid = pid_t(words[2]) else {
            process.terminate()
            throw ServerError(message: "\(script) did not start: \(String(decoding: line, as: UTF8.self))")
        }
        self.port = port
        serverPID = pid
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// A loopback port nothing listens on: one the system just handed out, and closed again.
    public static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stopped by its own process id, without waiting (waiting for a child's exit needs a run
    /// loop that test threads do not run), and with SIGKILL: a child of the test runner may
    /// inherit a signal mask that blocks SIGTERM.
    deinit {
        kill(serverPID, SIGKILL)
    }

    public struct ServerError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
