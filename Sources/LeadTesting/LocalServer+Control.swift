import Foundation
import HTTPKit

extension LocalServer {
    /// A test double's own control (`/_double/state`, `/_double/faults`, …): a GET, or a POST of
    /// `body` as JSON; the answer's JSON object.
    @discardableResult
    public func control(_ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try CurlTransport().send(HTTPRequest(method: body == nil ? "GET" : "POST", url: url(path),
                                                            headers: HTTPHeaders([("Content-Type", "application/json")]), body: data))
        return try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
    }
}

extension LocalServer {
    /// A request to the API a double stands in for, as another client of it would make one (an
    /// agent's edit in the CRM): the status and the answer's JSON (nil when it has none). The
    /// body is `json`, or `raw` with the Content-Type given in `headers`.
    @discardableResult
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], json: Any? = nil, raw: Data? = nil) throws -> (status: Int, body: Any?) {
        let data = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? raw
        let typed = headers.contains { $0.0.lowercased() == "content-type" } ? headers : [("Content-Type", "application/json")] + headers
        let response = try CurlTransport().send(HTTPRequest(method: method, url: url(path), headers: HTTPHeaders(typed), body: data))
        return (response.status, try? JSONSerialization.jsonObject(with: response.body))
    }
}
