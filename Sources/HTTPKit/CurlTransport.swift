import CLeadCurl
import Foundation

/// `HTTPTransport` over libcurl, loaded on first use (CLeadCurl). Blocking: the calling thread
/// waits for the response, which is how the delivery stage sends its batches.
///
/// Not Foundation's URLSession: on Linux it links libcurl and some forty libraries into the
/// binary (a third more start-up time for every command), takes a request's timeout as an idle
/// time, and stalls when a server drops a kept-alive connection (docs/http.md).
///
/// Each handle keeps its connections alive between requests; concurrent senders each take a
/// handle of their own from a small pool.
public final class CurlTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [UnsafeMutableRawPointer] = []

    public init() {}

    deinit {
        for handle in idle { lp_http_close(handle) }
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let u = request.url.absoluteString
        guard let handle = lock.withLock({ idle.popLast() }) ?? lp_http_open() else {
            throw HTTPTransportError.failed(url: u, reason: String(cString: lp_http_load_error()))
        }
        defer { lock.withLock { idle.append(handle) } }
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if request.body != nil && request.headers["Content-Type"] == nil { lines.append("Content-Type: application/octet-stream") }
        var response = lp_http_response()
        let code = withCStrings(lines) { headers in
            (request.body ?? Data()).withUnsafeBytes { body in
                lp_http_perform(handle, request.method, u, headers, Int32(lines.count), request.body == nil ? nil : (body.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!),
                                body.count, request.timeout, &response)
            }
        }
        defer { lp_http_response_free(&response) }
        guard code == 0 else {
            let reason = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if lp_http_is_timeout(code) != 0 { throw HTTPTransportError.timedOut(url: u) }
            if lp_http_is_unreachable(code) != 0 { throw HTTPTransportError.unreachable(url: u, reason: reason) }
            if lp_http_is_connection_problem(code) != 0 { throw HTTPTransportError.connectionLost(url: u, reason: reason) }
            throw HTTPTransportError.failed(url: u, reason: reason)
        }
        let head = response.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_len), as: UTF8.self) } ?? ""
        let body = response.body.map { Data(bytes: $0, count: response.body_len) } ?? Data()
        return HTTPResponse(status: response.status, headers: Self.headers(head), body: body)
    }

    /// The header fields of the last response in `raw` (a 100 Continue or a redirect comes first).
    static func headers(_ raw: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for line in raw.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            if line.hasPrefix("HTTP/") {
                headers = HTTPHeaders()
            } else if let colon = line.firstIndex(of: ":") {
                headers.add(String(line[..<colon]).trimmingCharacters(in: .whitespaces), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
            }
        }
        return headers
    }
}

/// `body` with the strings as an array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
