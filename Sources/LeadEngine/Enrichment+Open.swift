import Foundation
import LeadConnectors
import LeadCore
import LeadEnrich

extension Enrichment {
    /// The stage for `spec`, its client set up from the settings (the environment and the
    /// config file), its retries and spending given to `onEvent` as the progress's events.
    public static func open(spec: String, model: String?, noCache: Bool, concurrency: Int, dryRun: Bool,
                            onEvent: @escaping @Sendable (ProgressEvent) -> Void) throws -> Enrichment {
        let loaded = try EnrichSpec.load(path: spec)
        let settings = try Settings.load()
        let config = try OpenAIConfig(environment: settings.values, model: model ?? loaded.model, requiresKey: !dryRun)
        if loaded.maxCost != nil, loaded.prices(for: config.model) == nil {
            throw EnrichSpecError(path: spec, line: nil, message: "max_cost needs the prices of \(config.model): add prices: {input: …, output: …} (dollars per million tokens)")
        }
        let endpoint = config.baseURL.host ?? "the endpoint"
        let client = OpenAIClient(config: config, onRetry: { event in
            let cause = event.status.map { "HTTP \($0)" } ?? event.error.map { "\($0)" } ?? "an error"
            onEvent(.batch(BatchResult(destination: "enrich (\(endpoint))", size: 0, status: "retry after \(cause)", attempt: event.attempt,
                                       retryAfter: event.retryAfter ?? event.wait)))
        })
        return Enrichment(spec: loaded, specPath: spec, client: client, concurrency: concurrency, readsCache: !noCache, dryRun: dryRun,
                          onUsage: { usage in onEvent(.enrichment(usage)) })
    }

    /// After the run: the budget or the endpoint that stopped it (exit 1, or 2 when the
    /// endpoint refused the key or the model), or the rows it rejected (exit 3).
    /// `withheld`: the `--export` not written for it, whose file is left as it was.
    public static func finish(_ tally: Enrichment.Tally?, spec: String, withheld: String? = nil) throws {
        guard let tally else { return }
        if let stopped = tally.stopped {
            let budget = stopped.contains("max_cost")
            let pending = "\(tally.pending) row\(tally.pending == 1 ? " is" : "s are") pending"
            let message: String
            if budget {
                message = stopped + " (\(spec)); \(pending): run the same command again to process them (each run may spend up to max_cost; the answers so far are kept and cost nothing again)"
            } else if tally.usage.refused {
                message = "the enrichment stopped: " + stopped + "; \(pending): fix that, then run the same command again"
                    + (withheld.map { "; --export \($0) was not written (what it held is kept)" } ?? "")
            } else {
                message = "the enrichment stopped: " + stopped + "; \(pending): run the same command again to process them (the answers so far are kept)"
            }
            throw EnrichmentStopped(message: message, disposition: tally.usage.refused ? .usage : .terminal)
        }
        if tally.rejected > 0 { throw FinishedWithStatus(ExitStatus.someRejected) }
    }
}

/// The enrichment stopped before every row had its answer.
public struct EnrichmentStopped: Error, CustomStringConvertible, Classified {
    public var message: String
    public var disposition: FailureDisposition
    public var description: String { message }
}
