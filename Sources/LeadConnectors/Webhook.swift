import Crypto
import Foundation
import HTTPKit

/// The Zapier-style catch hook (`--to webhook:URL`): one JSON document per lead, POSTed with
/// an idempotency key, and, when a secret is configured, an HMAC-SHA256 signature the receiver
/// can check:
///
///     Idempotency-Key: <fixed by the hook, the lead's key and its content>
///     X-LeadPort-Timestamp: <Unix seconds>
///     X-LeadPort-Signature: sha256=<hex of HMAC-SHA256(secret, timestamp + "." + body)>
///
/// Catch hooks dedupe nothing themselves (crm-apis.md §6), so the key travels in the payload's
/// consumer too; with it a resend is harmless, and requests are retried as replayable.
public struct Webhook: Sendable {
    /// About 30 requests a second per hook is what Zapier takes (crm-apis.md §6).
    public static let capabilities = DestinationCapabilities(largestBatch: 1, requests: 25, per: 1, upserts: true)

    public let url: URL
    private let secret: String?
    private let client: HTTPClient
    private let now: @Sendable () -> Date
    /// Seconds for one whole request.
    private let timeout: Double

    public init(url: URL, secret: String?, client: HTTPClient, timeout: Double = 30, now: @escaping @Sendable () -> Date = Date.init) {
        self.url = url
        self.timeout = timeout
        self.secret = secret
        self.client = client
        self.now = now
    }

    /// The signature header's value for `body` sent at `timestamp`.
    public static func signature(body: Data, timestamp: String, secret: String) -> String {
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(timestamp.utf8) + Data(".".utf8) + body, using: key)
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Sends one lead's document. 2xx delivers it (the receiver's `id`, when its JSON answer
    /// has one, else the idempotency key, is the remote id); another 4xx rejects it with the
    /// status and the start of the answer; a 5xx or 429 that outlasts the retries, or no answer
    /// at all, leaves it undelivered for a rerun.
    /// The hook refused the document for a reason that is not the document's.
    public struct Refused: Error, CustomStringConvertible {
        public var status: Int
        public var body: String
        public var description: String {
            let why = status == 401 || status == 403 ? "refuses LeadPort's requests (check LEADPORT_WEBHOOK_SECRET)" : "is gone (the catch hook was deleted?)"
            return "the webhook answered \(status): it \(why)" + (body.isEmpty ? "" : ": \(body)")
        }
    }

    public func send(_ document: Data, idempotencyKey: String) throws -> DeliveryResult {
        var headers = HTTPHeaders([("Content-Type", "application/json"), ("Idempotency-Key", idempotencyKey)])
        if let secret {
            let timestamp = String(Int(now().timeIntervalSince1970))
            headers.add("X-LeadPort-Timestamp", timestamp)
            headers.add("X-LeadPort-Signature", Self.signature(body: document, timestamp: timestamp, secret: secret))
        }
        let response: HTTPResponse
        do {
            response = try client.send(HTTPRequest(method: "POST", url: url, headers: headers, body: document, replayable: true, timeout: timeout))
        } catch let error as HTTPTransportError {
            // Never reached: the next document would not be either (WebhookDestination stops).
            if case .unreachable = error { throw error }
            return .failed(reason: String(describing: error))
        }
        switch response.status {
        case 401, 403, 404, 410:
            // The hook refuses everyone (a bad signature secret) or is gone: so it will the
            // next document too.
            throw Refused(status: response.status, body: String(response.text.prefix(200)))
        case 200..<300:
            let id = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["id"].map { "\($0)" }
            return .created(remoteID: id ?? idempotencyKey)
        case 400..<500 where !Retry.isRetryable(status: response.status):
            return .rejected(reason: "the webhook answered \(response.status): \(String(response.text.prefix(200)))")
        default:
            return .failed(reason: "the webhook kept answering \(response.status); a rerun sends the lead again")
        }
    }
}
