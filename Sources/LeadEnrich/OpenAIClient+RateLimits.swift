import Foundation
import HTTPKit

extension RateLimits {
    /// An OpenAI-compatible endpoint's two limits, requests and tokens, each a bucket that
    /// refills continuously over its window, as OpenAI describes its limits. A request spends
    /// one request and its estimated tokens (its prompt's characters / 4 plus its `max_tokens`:
    /// what OpenAI charges when it admits one). The limits are learnt from the answers'
    /// `x-ratelimit-limit-*` headers and the levels brought down to their
    /// `x-ratelimit-remaining-*` (other clients of the same key spend from them too); until the
    /// first answer states them, one request at a time goes. A 429 holds both back for its
    /// `retry-after-ms` (else `retry-after`), or, without either, the limits left at nothing
    /// until their `x-ratelimit-reset-*`.
    ///
    /// The window is learnt too, not assumed a minute: `x-ratelimit-reset-*` says how long until
    /// the bucket is full again, so it refills `limit − remaining` in that time and the whole
    /// `limit` in `limit × reset / (limit − remaining)` seconds. That is a minute for OpenAI's
    /// per-minute limits, ten seconds or one for Azure's shorter evaluation windows, and a day
    /// for Groq, whose request limit is per day. Until an answer gives a reset, 60 s.
    ///
    /// | header sample | read as |
    /// | --- | --- |
    /// | OpenAI: limit-requests 60, remaining 59, reset-requests `1s` | window 60 s |
    /// | Groq: limit-requests 14400, remaining 14370, reset-requests `2m59.56s` | window ≈ 1 day |
    /// | OpenAI: limit-tokens 150000, remaining 149984, reset-tokens `6m0s`; Groq: limit-tokens 18000, remaining 17997, reset-tokens `7.66s` | the window kept (under a thousandth spent: rounding) |
    /// | Azure: limit-tokens `-1`, reset-tokens `0` | nothing (no limit stated) |
    public static let openAI: RateLimits = {
        func bucket(_ name: String, weighted: Bool) -> RateWindow {
            let headers = RateLimitHeaders(limit: ["x-ratelimit-limit-" + name], remaining: ["x-ratelimit-remaining-" + name],
                                           reset: [TimedHeader("x-ratelimit-reset-" + name, .duration)], resetMeans: .fullAgain)
            return RateWindow(name, .refilling, limit: nil, span: 60, weighted: weighted, headers: headers, refusal: .reset)
        }
        return RateLimits(windows: [bucket("requests", weighted: false), bucket("tokens", weighted: true)],
                          retryAfter: [TimedHeader("retry-after-ms", .milliseconds), TimedHeader("retry-after", .seconds)], oneAtATimeUntilKnown: true)
    }()
}
