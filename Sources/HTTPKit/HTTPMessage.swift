import Foundation

/// Header fields, looked up without regard to case (`Retry-After` = `retry-after`), kept in
/// the order they were added.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(String, String)] = []) {
        for (name, value) in fields { add(name, value) }
    }

    public subscript(_ name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: HTTPHeaders
    public var body: Data?
    /// Whether sending the request twice does no harm (an upsert, a keyed event, a read): only
    /// such requests are retried after a failure that may have reached the server.
    public var replayable: Bool
    /// Seconds to wait for the whole response.
    public var timeout: Double

    public init(method: String = "GET", url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil, replayable: Bool = true, timeout: Double = 30) {
        (self.method, self.url, self.headers, self.body, self.replayable, self.timeout) = (method, url, headers, body, replayable, timeout)
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        (self.status, self.headers, self.body) = (status, headers, body)
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A request that got no HTTP response.
public enum HTTPTransportError: Error, Equatable, CustomStringConvertible {
    /// No response within the request's timeout.
    case timedOut(url: String)
    /// The connection failed or was dropped before a whole response arrived; the server may
    /// or may not have acted on the request.
    case connectionLost(url: String, reason: String)
    /// The server was never reached (its name does not resolve, nothing listens, TLS failed):
    /// not retried, since waiting minutes for a host that is down or misnamed helps nobody,
    /// and the rows stay for the next run (a webhook whose host refused connections
    /// spent 146 s retrying 6 rows).
    case unreachable(url: String, reason: String)
    /// Anything else (a malformed URL, TLS).
    case failed(url: String, reason: String)

    public var description: String {
        switch self {
        case .timedOut(let url): return "\(url): no response in time"
        case .connectionLost(let url, let reason): return "\(url): connection lost (\(reason))"
        case .unreachable(let url, let reason): return "\(url): cannot be reached (\(reason))"
        case .failed(let url, let reason): return "\(url): \(reason)"
        }
    }

    /// Timeouts and dropped connections may pass with a retry; the rest will not.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionLost: return true
        case .failed, .unreachable: return false
        }
    }
}

/// Sends one request and waits for its response. Implementations: `CurlTransport`; the
/// middleware in `HTTPClient` wraps one.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) throws -> HTTPResponse
}
