import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-shot HTTP listener on 127.0.0.1 for an OAuth sign-in's redirect (RFC 8252 §7.3: a
/// native app receives the authorization code on a loopback port of its own). It answers the
/// browser's requests until one carries the expected `state` with a `code` or an `error`, and
/// gives back that request's query.
public final class LoopbackRedirect {
    public let port: Int
    private let socket: Int32

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Listens on 127.0.0.1, on `port` (0: any free port).
    public init(port: Int = 0) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "cannot open a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        socket = fd
    }

    deinit { close(socket) }

    /// The redirect URI to register the request with.
    public var redirectURI: String { "http://127.0.0.1:\(port)" }

    /// Waits up to `timeout` seconds for the redirect that carries `state`, answers it with
    /// `page`, and returns its query parameters. Other requests (a favicon, a stray visit, a
    /// redirect with another state) get a 404 or 400 and the wait goes on.
    public func wait(state: String, timeout: Double, page: String) throws -> [String: String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "no answer from the browser within \(Int(timeout)) s") }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000))
            if ready <= 0 { continue }
            let client = accept(socket, nil, nil)
            if client < 0 { continue }
            defer { close(client) }
            var patience = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
            guard let target = Self.requestTarget(client) else { continue }
            let query = Self.query(of: target)
            guard query["state"] == state, query["code"] != nil || query["error"] != nil else {
                Self.answer(client, status: target.hasPrefix("/?") ? "400 Bad Request" : "404 Not Found", body: "<!DOCTYPE html><title>LeadPort</title><p>Not the sign-in LeadPort is waiting for.")
                continue
            }
            Self.answer(client, status: "200 OK", body: page)
            return query
        }
    }

    /// The request line's target (`/?code=…&state=…`), read from the first line of the request.
    static func requestTarget(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // The request line and headers, at most 16 KiB: nothing here needs the body.
        while bytes.count < 16 << 10 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
            // The request line is all that is needed: stop once it is in.
            if bytes.contains(10) { break }
        }
        guard let end = bytes.firstIndex(of: 10) else { return nil }
        let parts = String(decoding: bytes[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" else { return nil }
        return String(parts[1])
    }

    static func query(of target: String) -> [String: String] {
        var values: [String: String] = [:]
        for item in URLComponents(string: "http://127.0.0.1" + target)?.queryItems ?? [] { values[item.name] = item.value ?? "" }
        return values
    }

    static func answer(_ fd: Int32, status: String, body: String) {
        let data = Array(body.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(data.count)\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n"
        let all = Array(head.utf8) + data
        var offset = 0
        while offset < all.count {
            let n = all[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            offset += n
        }
    }
}
