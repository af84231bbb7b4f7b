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
