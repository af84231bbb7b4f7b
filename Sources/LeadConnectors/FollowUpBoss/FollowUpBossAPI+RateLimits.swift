import Foundation
import HTTPKit

extension RateLimits {
    /// Follow Up Boss's rate limits: a sliding window per context (crm-apis.md §2.5), each
    /// followed on its own from the headers of its answers.
    ///
    /// | what | what the windows do |
    /// | --- | --- |
    /// | (start) | the documented table: `global` 250 per 10 s (125 without a system key), `events` (GET /v1/events) 20 (10), `POST.events` unlimited |
    /// | `X-RateLimit-Context: c` | the request's route (`PUT.people`) belongs to context c from now on |
    /// | `X-RateLimit-Limit`, `-Window` | that context's limit and window (seconds); a context answered without a limit is unlimited |
    /// | `X-RateLimit-Remaining: r` | requests the window holds that are not ours (another process on the same key) are counted as made just now |
    /// | 429 with `Retry-After: s` | nothing goes to that context for s seconds (other contexts go on); without, a whole window |
    ///
    /// `registered`: whether the client sends a system key (which picks the higher table).
    public static func followUpBoss(registered: Bool) -> RateLimits {
        let headers = RateLimitHeaders(limit: ["X-RateLimit-Limit"], remaining: ["X-RateLimit-Remaining"], span: [TimedHeader("X-RateLimit-Window", .seconds)])
        let window: @Sendable (String) -> RateWindow = { context in
            let limit: Double? = switch context {
            case "events": registered ? 20 : 10
            case "POST.events": nil
            default: registered ? 250 : 125
            }
            return RateWindow(context, .sliding, limit: limit, span: 10, headers: headers, refusal: .span)
        }
        return RateLimits(windows: ["global", "events", "POST.events"].map(window),
                          route: { followUpBossRoute(method: $0.method, path: $0.url.path) },
                          windowsOf: { route in
                              // The context a route is in until an answer says otherwise.
                              switch route {
                              case "GET.events": ["events"]
                              case "POST.events": ["POST.events"]
                              default: ["global"]
                              }
                          },
                          context: (header: "X-RateLimit-Context", window: window))
    }

    /// `METHOD.resource` for a path under `/v1/`: `PUT.people` for `PUT /v1/people/12`.
    public static func followUpBossRoute(method: String, path: String) -> String {
        let parts = path.split(separator: "/")
        let resource = parts.first == "v1" ? parts.dropFirst().first : parts.first
        return method.uppercased() + "." + (resource.map(String.init) ?? "")
    }
}
