import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over Foundation's URLSession (libcurl on Linux). Blocking: the calling
/// thread waits for the response, which is how the delivery stage sends its batches.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var r = URLRequest(url: request.url, timeoutInterval: request.timeout)
        r.httpMethod = request.method
        for field in request.headers { r.addValue(field.value, forHTTPHeaderField: field.name) }
        r.httpBody = request.body
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<HTTPResponse, HTTPTransportError>!
        let task = session.dataTask(with: r) { data, response, error in
            if let error {
                result = .failure(Self.transportError(error, url: request.url))
            } else if let http = response as? HTTPURLResponse {
                var headers = HTTPHeaders()
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers.add(name, value) }
                }
                result = .success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
            } else {
                result = .failure(.failed(url: request.url.absoluteString, reason: "no HTTP response"))
            }
            done.signal()
        }
        task.resume()
        // The whole exchange within the request's timeout, measured here: URLSession on Linux
        // takes URLRequest's timeout as an idle time between bytes, so a server that answers
        // slowly but steadily was never cut off.
        if done.wait(timeout: .now() + request.timeout) == .timedOut {
            task.cancel()
            done.wait()
            throw HTTPTransportError.timedOut(url: request.url.absoluteString)
        }
        return try result.get()
    }

    static func transportError(_ error: any Error, url: URL) -> HTTPTransportError {
        let u = url.absoluteString
        guard let e = error as? URLError else { return .failed(url: u, reason: error.localizedDescription) }
        switch e.code {
        case .timedOut: return .timedOut(url: u)
        case .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed,
             .badServerResponse, .zeroByteResource, .cannotParseResponse:
            return .connectionLost(url: u, reason: e.localizedDescription)
        default:
            return .failed(url: u, reason: e.localizedDescription)
        }
    }
}
