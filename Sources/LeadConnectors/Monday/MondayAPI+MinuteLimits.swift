import Foundation
import HTTPKit

/// monday.com's per-minute limits (the complexity budget, the minute's request count,
/// concurrency) as HTTPKit's pacing understands them. monday.com refuses over-budget queries
/// with HTTP 200 and an error whose `extensions` carry `retry_in_seconds`
/// (`COMPLEXITY_BUDGET_EXHAUSTED`; before API 2025-01 `ComplexityException`, "… reset in N
/// seconds"), or with a 429 whose `Retry-After` may be missing. This link turns each into
/// what `Retry` and `RateLimit` act on: a 429 with `Retry-After` set to the seconds monday.com
/// gave. So the limiter stops every request until then and `Retry` sends this one again —
/// nothing was done, so even a create is sent again — and the run pauses and goes on.
///
/// | monday.com answers | the chain sees |
/// | --- | --- |
/// | 200, `COMPLEXITY_BUDGET_EXHAUSTED`, `retry_in_seconds: 40` | 429, `Retry-After: 40` |
/// | 200, `ComplexityException`, "… reset in 3 seconds" | 429, `Retry-After: 3` |
/// | 429 with `Retry-After` | as it is |
/// | 429 without, `retry_in_seconds` in the body | 429, `Retry-After` from the body |
/// | 429 with neither | as it is: `Retry` backs off through the minute (`quotaWindow`) |
/// | 200, `DAILY_LIMIT_EXCEEDED` | as it is: the client stops until midnight UTC |
struct MondayMinuteLimits: HTTPMiddleware {
    func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        var response = try next(request)
        guard response.status == 200 || response.status == 429, response.headers["Retry-After"] == nil,
              response.body.count < 65_536, response.text.contains("rror") else { return response }
        let errors = MondayGraphQLError.all(in: (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])
        guard let limit = errors.first(where: \.isMinuteLimit) ?? (response.status == 429 ? errors.first : nil) else { return response }
        response.status = 429
        if let seconds = limit.retryIn { response.headers.add("Retry-After", String(Int(seconds.rounded(.up)))) }
        return response
    }
}
