import Foundation
import HTTPKit

extension RateLimits {
    /// HubSpot's request windows, from HubSpot's own headers (crm-apis.md §1.3):
    ///
    /// | window | budget | headers |
    /// | --- | --- | --- |
    /// | `ten-secondly`, per app (sliding) | `burst` per `interval` s to start (100 per 10 s) | `X-HubSpot-RateLimit-Max`, `-Remaining`, `-Interval-Milliseconds`; a 429 `TEN_SECONDLY_ROLLING` waits `Retry-After`, or a whole interval |
    /// | `search`, per account (sliding) | `searchPerSecond` a second | none; a 429 waits `Retry-After` or 1 s |
    /// | `daily` (fixed) | `X-HubSpot-RateLimit-Daily`, `-Daily-Remaining` | kept for the caller, no reset stated: a `DAILY` 429 stops the run (`HubSpotGuard`) |
    static func hubSpot(burst: Int, interval: Double, searchPerSecond: Int) -> RateLimits {
        let tenSecondly = RateLimitHeaders(limit: ["X-HubSpot-RateLimit-Max"], remaining: ["X-HubSpot-RateLimit-Remaining"],
                                           span: [TimedHeader("X-HubSpot-RateLimit-Interval-Milliseconds", .milliseconds)])
        let daily = RateLimitHeaders(limit: ["X-HubSpot-RateLimit-Daily"], remaining: ["X-HubSpot-RateLimit-Daily-Remaining"])
        return RateLimits(windows: [RateWindow("ten-secondly", .sliding, limit: Double(max(1, burst)), span: interval, headers: tenSecondly, refusal: .span),
                                    RateWindow("search", .sliding, limit: Double(max(1, searchPerSecond)), span: 1, refusal: .span),
                                    RateWindow("daily", .fixed, limit: nil, span: 86_400, headers: daily)],
                          route: { $0.url.path.hasSuffix("/search") ? "search" : "" },
                          windowsOf: { $0 == "search" ? ["search"] : ["ten-secondly", "daily"] })
    }
}
