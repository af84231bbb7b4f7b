import Foundation
import HTTPKit
import LeadCore

/// Where enrichment requests go: any OpenAI-compatible endpoint — OpenAI
/// itself, or a local llama.cpp server or Ollama, which speak the same API and keep the data on
/// the machine.
///
/// | variable | meaning |
/// | --- | --- |
/// | `OPENAI_BASE_URL` | the API's base, with its `/v1`, as OpenAI's own clients take it (default `https://api.openai.com/v1`) |
/// | `OPENAI_API_KEY` | the key, sent as a bearer token; needed by OpenAI, not by most local servers |
public struct OpenAIConfig: Sendable {
    public var baseURL: URL
    public var apiKey: String?
    public var model: String

    public static let defaultBaseURL = "https://api.openai.com/v1"

    public init(baseURL: URL, apiKey: String?, model: String) {
        (self.baseURL, self.apiKey, self.model) = (baseURL, apiKey, model)
    }

    /// From the settings; `model` from `--model`, else the spec.
    /// `requiresKey`: false for a dry run, which sends nothing (OpenAI's endpoint needs a key
    /// only to be asked).
    public init(environment: [String: String], model: String?, requiresKey: Bool = true) throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } }
        let base = value("OPENAI_BASE_URL") ?? Self.defaultBaseURL
        guard let url = URL(string: base.hasSuffix("/") ? String(base.dropLast()) : base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw OpenAIError(message: "OPENAI_BASE_URL is not an http(s) URL (as in https://api.openai.com/v1, or http://127.0.0.1:8080/v1 for a local server)", disposition: .usage)
        }
        guard let model else {
            throw OpenAIError(message: "no model: give one in the spec (model: gpt-4o-mini) or with --model", disposition: .usage)
        }
        let key = value("OPENAI_API_KEY")
        if key == nil, requiresKey, url.host == "api.openai.com" {
            throw OpenAIError(message: "set OPENAI_API_KEY to an OpenAI API key, or OPENAI_BASE_URL to a local server that needs none", disposition: .usage)
        }
        if let key { KnownSecrets.add([key]) }
        self.init(baseURL: url, apiKey: key, model: model)
    }
}

/// What stops enrichment, or one request of it.
public struct OpenAIError: Error, CustomStringConvertible, Classified {
    public var message: String
    public var disposition: FailureDisposition
    /// The prompt was longer than the model takes: the rows are to be sent in smaller groups.
    public var contextTooLong = false

    public init(message: String, disposition: FailureDisposition = .terminal, contextTooLong: Bool = false) {
        (self.message, self.disposition, self.contextTooLong) = (KnownSecrets.redact(message), disposition, contextTooLong)
    }

    public var description: String { message }
}

/// One chat completion request: the messages, the answer's format, and what it may cost.
public struct ChatRequest: Sendable {
    public var messages: [(role: String, content: String)]
    /// The `response_format` object, as JSON text (nil: none).
    public var responseFormat: String?
    public var maxTokens: Int

    public init(messages: [(role: String, content: String)], responseFormat: String?, maxTokens: Int) {
        (self.messages, self.responseFormat, self.maxTokens) = (messages, responseFormat, maxTokens)
    }

    /// The tokens OpenAI charges against the per-minute limit when it admits the request: its
    /// text's characters / 4 (the schema's included), plus `max_tokens`.
    public var estimatedTokens: Int {
        let characters = messages.reduce(0) { $0 + $1.content.count } + (responseFormat?.count ?? 0)
        return (characters + 3) / 4 + maxTokens
    }

    func body(model: String) -> Data {
        var o = JSONObject()
        o.set("model", model)
        o.set("messages", json: "[" + messages.map { m in
            var message = JSONObject()
            message.set("role", m.role)
            message.set("content", m.content)
            return message.text
        }.joined(separator: ",") + "]")
        if let responseFormat { o.set("response_format", json: responseFormat) }
        o.set("max_tokens", maxTokens)
        o.set("temperature", 0)
        return Data(o.text.utf8)
    }
}

/// A completion's answer.
public struct ChatAnswer: Sendable, Equatable {
    public var content: String
    /// `stop`, or `length` when the answer was cut at `max_tokens`.
    public var finishReason: String?
    public var promptTokens: Int
    public var completionTokens: Int
}

/// Sends chat completions to an OpenAI-compatible endpoint, from several threads at once, each
/// paced by one shared `RateLimit` (`RateLimits.openAI`); 429s are waited out as their headers say, 5xx and lost
/// connections retried with backoff, and what no retry helps (a refused key, an unknown model,
/// a prompt too long, the quota spent) thrown at once.
public final class OpenAIClient: @unchecked Sendable {
    public let config: OpenAIConfig
    public let pacer: RateLimit
    private let transport: any HTTPTransport
    private let clock: any HTTPClock
    private let timeout: Double
    private let backoff: BackoffPolicy
    private let onRetry: @Sendable (Retry.Event) -> Void

    public init(config: OpenAIConfig, transport: any HTTPTransport = CurlTransport(), clock: any HTTPClock = SystemClock(), timeout: Double = 120,
                backoff: BackoffPolicy = BackoffPolicy(base: 1, cap: 30, maxAttempts: 6), onRetry: @escaping @Sendable (Retry.Event) -> Void = { _ in }) {
        (self.config, self.transport, self.clock, self.timeout, self.backoff, self.onRetry) = (config, transport, clock, timeout, backoff, onRetry)
        pacer = RateLimit(.openAI, clock: clock)
    }

    /// 429s waited out for one request before it gives up: a limit that still refuses after
    /// this many waits is not one a wait helps.
    static let most429s = 30

    public func complete(_ request: ChatRequest) throws -> ChatAnswer {
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        if let key = config.apiKey { headers.add("Authorization", "Bearer " + key) }
        let http = HTTPRequest(method: "POST", url: config.baseURL.appendingPathComponent("chat/completions"), headers: headers,
                               body: request.body(model: config.model), replayable: true, timeout: timeout)
        var retries = Backoff(policy: backoff)
        var refusals = 0
        var quota: Backoff?
        let cost = request.estimatedTokens
        while true {
            let grant = pacer.acquire(cost: Double(cost)).grant
            let response: HTTPResponse
            do {
                response = try transport.send(http)
            } catch let error as HTTPTransportError {
                pacer.complete(grant, status: nil)
                if case .unreachable = error {
                    throw OpenAIError(message: "\(config.baseURL.absoluteString) cannot be reached (\(error)); check OPENAI_BASE_URL and that the server runs")
                }
                guard case .retry(let wait) = retries.failed() else { throw OpenAIError(message: "no answer from \(config.baseURL.host ?? "the endpoint") after \(retries.attempts) attempts: \(error)") }
                onRetry(Retry.Event(attempt: retries.attempts, status: nil, error: error, wait: wait, retryAfter: nil))
                clock.sleep(wait)
                continue
            }
            pacer.complete(grant, status: response.status, headers: response.headers)
            let problem = Self.problem(response)
            switch response.status {
            case 200..<300:
                return try Self.answer(response)
            case 429:
                if problem.code == "insufficient_quota" {
                    throw OpenAIError(message: "the API key's quota is spent (\(problem.message)); see the account's billing, then run again: what is done is kept")
                }
                refusals += 1
                guard refusals <= Self.most429s else {
                    throw OpenAIError(message: "the endpoint keeps refusing for its rate limits (\(problem.message))")
                }
                if let asked = RateLimits.openAI.retryAfter(response.headers) {
                    onRetry(Retry.Event(attempt: refusals, status: 429, error: nil, wait: asked, retryAfter: asked))
                    // The pacer holds every request back for the time the 429 asked.
                    continue
                }
                if pacer.blocked {
                    // No Retry-After, but the limit it spent says when it is full again: the
                    // pacer holds every request back until then.
                    onRetry(Retry.Event(attempt: refusals, status: 429, error: nil, wait: 0))
                    continue
                }
                // Neither: backed off until the limits' window (the longest known) has passed.
                let window = ["requests", "tokens"].compactMap { pacer.reading($0) }.filter { $0.limit != nil }.map(\.span).max() ?? 60
                if quota == nil { quota = Backoff(policy: BackoffPolicy(base: backoff.base, cap: backoff.cap, maxAttempts: backoff.maxAttempts, quotaWindow: window)) }
                guard case .retry(let wait) = quota!.failed(quota: true) else {
                    throw OpenAIError(message: "the endpoint kept refusing for its rate limits for longer than their window (\(Int(window)) s): \(problem.message)")
                }
                onRetry(Retry.Event(attempt: refusals, status: 429, error: nil, wait: wait))
                clock.sleep(wait)
            case 400 where Self.isContextTooLong(problem):
                throw OpenAIError(message: problem.message, contextTooLong: true)
            case 401, 403:
                throw OpenAIError(message: "the endpoint refused the key (\(response.status): \(problem.message)); check OPENAI_API_KEY", disposition: .usage)
            case 404:
                throw OpenAIError(message: "\(response.status): \(problem.message); check the model's name and OPENAI_BASE_URL (with its /v1)", disposition: .usage)
            case 500..<600, 408, 409:
                guard case .retry(let wait) = retries.failed(retryAfter: RateLimits.openAI.retryAfter(response.headers)) else {
                    throw OpenAIError(message: "the endpoint kept failing (\(response.status): \(problem.message))")
                }
                onRetry(Retry.Event(attempt: retries.attempts, status: response.status, error: nil, wait: wait, retryAfter: RateLimits.openAI.retryAfter(response.headers)))
                clock.sleep(wait)
            default:
                throw OpenAIError(message: "the endpoint refused the request (\(response.status): \(problem.message))", disposition: .usage)
            }
        }
    }

    /// OpenAI's error envelope, `{"error": {"message", "type", "param", "code"}}`.
    static func problem(_ response: HTTPResponse) -> (message: String, code: String?, type: String?) {
        guard let error = ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])?["error"] as? [String: Any] else {
            return (String(response.text.prefix(200)), nil, nil)
        }
        return (error["message"] as? String ?? "no message", error["code"] as? String, error["type"] as? String)
    }

    /// A prompt longer than the model takes, as OpenAI says it (`code` context_length_exceeded)
    /// and as llama.cpp's server does (`type` exceed_context_size_error, a number for `code`).
    static func isContextTooLong(_ problem: (message: String, code: String?, type: String?)) -> Bool {
        problem.code == "context_length_exceeded" || problem.type == "exceed_context_size_error"
    }

    static func answer(_ response: HTTPResponse) throws -> ChatAnswer {
        guard let top = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
              let choice = (top["choices"] as? [[String: Any]])?.first, let message = choice["message"] as? [String: Any] else {
            throw OpenAIError(message: "the endpoint's answer is not a chat completion: \(response.text.prefix(200))")
        }
        let usage = top["usage"] as? [String: Any]
        // A refusal (structured outputs' `refusal`) has no content: its rows are asked again.
        let content = message["content"] as? String ?? (message["refusal"] as? String).map { "refused: " + $0 } ?? ""
        return ChatAnswer(content: content, finishReason: choice["finish_reason"] as? String,
                          promptTokens: usage?["prompt_tokens"] as? Int ?? 0, completionTokens: usage?["completion_tokens"] as? Int ?? 0)
    }
}
