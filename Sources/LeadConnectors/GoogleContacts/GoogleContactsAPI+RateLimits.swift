import Foundation
import HTTPKit

extension RateLimits {
    /// The People API's per-minute quotas (crm-apis.md §3.5): reads and writes counted apart,
    /// each paced 5% under its quota, so that a request delayed on the way cannot meet an empty
    /// bucket. Writes are evenly spaced, without a first burst that a bucket left empty by an
    /// earlier run would refuse. Google sends no rate-limit headers; a 429 or 503 with
    /// `Retry-After` holds the request's kind back.
    static func googleContacts(_ policy: GoogleContactsAPI.Policy) -> RateLimits {
        RateLimits(windows: [RateWindow("reads", .refilling, limit: Double(max(1, policy.reads)), span: policy.per / 0.95, headers: .common),
                             RateWindow("writes", .refilling, limit: 1, span: policy.per / Double(max(1, policy.writes)) / 0.95, headers: .common)],
                   route: { $0.method == "GET" ? "reads" : "writes" }, windowsOf: { [$0] }, refusals: [429, 503])
    }
}
