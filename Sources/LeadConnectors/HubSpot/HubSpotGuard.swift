import Foundation
import HTTPKit

/// Stops at once what waiting cannot mend, and waits out what it can, inside `Retry`:
///
/// | attempt's outcome | what happens |
/// | --- | --- |
/// | connection refused, unknown host, TLS handshake or certificate failure | `Stop.unreachable` thrown: no retry (a host that refuses now refuses in a minute too; retrying cost 146 s for 6 webhook rows) |
/// | 429 with `policyName: DAILY` | `Stop.dailyLimit` thrown: no request passes until midnight in the account's time zone |
/// | 423 Locked (too many writes to the same records) | sent again after `lockedWait` (2 s, HubSpot's lock time), up to 3 times, when replayable |
/// | anything else | passed on (`Retry` takes 429, 5xx and dropped connections) |
struct HubSpotGuard: HTTPMiddleware {
    enum Stop: Error {
        case unreachable(HTTPTransportError)
        case dailyLimit(HTTPResponse)
    }

    let clock: any HTTPClock
    var lockedWait = 2.0

    func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        var locked = 0
        while true {
            let response: HTTPResponse
            do {
                response = try next(request)
            } catch let error as HTTPTransportError where Self.isUnreachable(error) {
                throw Stop.unreachable(error)
            }
            if response.status == 429, Self.policy(of: response) == "DAILY" { throw Stop.dailyLimit(response) }
            if response.status == 423, request.replayable, locked < 3 {
                locked += 1
                clock.sleep(lockedWait)
                continue
            }
            return response
        }
    }

    /// Whether a transport failure means no connection was made at all (nothing was sent), as
    /// opposed to one lost on the way (the server may have acted).
    static func isUnreachable(_ error: HTTPTransportError) -> Bool {
        switch error {
        case .timedOut, .connectionLost: return false
        case .failed, .unreachable: return true
        }
    }

    /// A 429's `policyName` (`TEN_SECONDLY_ROLLING`, `DAILY`, `SECONDLY`).
    static func policy(of response: HTTPResponse) -> String? {
        ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])?["policyName"] as? String
    }
}
