import Foundation
import HTTPKit
import LeadCore
import LeadEngine
import LeadEnrich
import LeadSync

/// Renders the engine's progress events on stderr: a bar redrawn at most 10 times a second,
/// plain lines every few seconds, or JSON lines (design.md §4.5); then a summary.
/// Events come from one thread at a time (ImportRun's contract), retries included: they happen on the delivery thread.
final class ProgressReporter: @unchecked Sendable {
    private let style: Import.ProgressStyle
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var total = 0
    /// Input rows finished at every destination: each row is counted once, however many
    /// destinations it goes to (two used to make 36001/20000).
    private var done = 0
    /// With several destinations: each one's rows so far, in the order of `--to`.
    private var destinations: [String] = []
    private var doneAt: [String: Int] = [:]
    /// Rows by outcome: an import's (`Outcome`), or an enrichment's (`Enrichment.RowOutcome`).
    private var counts: [String: Int] = [:]
    /// The enrichment's spending so far (`--enrich`, `leadport enrich`).
    private var usage: Enricher.Summary?
    /// Events come from the engine's threads one at a time, and from the enrichment's as it
    /// spends: each is handled whole before the next.
    private let lock = NSLock()
    static let order = Outcome.allCases.map(\.rawValue) + ["enriched"]

    /// Where every event is also written as a JSON line, whatever the style (`leadport sync`'s
    /// log), with a `job` field when one is set.
    var log: RotatingLog?
    var job: String?

    init(style: Import.ProgressStyle) {
        self.style = style
        start = clock.now
        lastDraw = start
    }

    private var elapsed: Double { (clock.now - start).inSeconds }

    func handle(_ event: ProgressEvent) {
        lock.lock()
        defer { lock.unlock() }
        if let log, let line = json(event) { log.write(KnownSecrets.redact(line) + "\n") }
        switch style {
        case .jsonl: if let line = json(event) { ExitStatus.printError(line) }
        case .none:
            // No progress, but the summary and the warnings all the same.
            if case .runFinished(let s) = event { summary(s) }
            if case .warning = event { human(event) }
        case .bar, .plain, .auto: human(event)
        }
    }

    private func json(_ event: ProgressEvent) -> String? {
        var o = JSONObject()
        switch event {
        case .runStarted(let run, let inputs, let destinations, let total):
            o.set("event", "run_started")
            o.set("t", elapsed)
            o.set("run_id", run)
            o.set("inputs", json: JSONText.array(inputs))
            o.set("destinations", json: JSONText.array(destinations))
            o.set("total", total)
        case .row(let r):
            o.set("event", "row")
            o.set("t", elapsed)
            o.set("row", r.location.row)
            o.set("sheet", r.location.sheet)
            o.set("file", r.location.file)
            o.set("destination", r.destination)
            o.set("outcome", r.outcome.rawValue)
            if let id = r.remoteID { o.set("remote_id", id) }
            if let reason = r.reason { o.set("reason", reason) }
            // A dry run's plan: each field that would change, old (null: none) and new.
            if let fields = r.planned?.fields { o.set("changes", json: PlanWriter.changes(fields)) }
            // What cleaning decided, so that a program needs no processed sheet to see it.
            if !r.issues.isEmpty {
                o.set("issues", json: "[" + r.issues.map { issue in
                    var i = JSONObject()
                    i.set("code", issue.code.rawValue)
                    i.set("message", KnownSecrets.redact(issue.message))
                    if let column = issue.location?.column { i.set("column", column.name ?? Column.letters(for: column.index)) }
                    return i.text
                }.joined(separator: ",") + "]")
            }
        case .enrichedRow(let location, let outcome):
            o.set("event", "row")
            o.set("t", elapsed)
            o.set("row", location.row)
            o.set("sheet", location.sheet)
            o.set("file", location.file)
            o.set("destination", "enrich")
            o.set("outcome", outcome.name)
            if case .enriched(_, let cached) = outcome { o.set("cached", cached) }
            if let reason = outcome.reason { o.set("reason", reason) }
        case .enrichment(let u):
            o.set("event", "enrich_usage")
            o.set("t", elapsed)
            o.set("requests", u.requests)
            o.set("prompt_tokens", u.promptTokens)
            o.set("completion_tokens", u.completionTokens)
            if let cost = u.cost { o.set("cost", json: String(format: "%.6f", cost)) }
        case .batch(let b):
            o.set("event", "batch")
            o.set("t", elapsed)
            o.set("destination", b.destination)
            o.set("size", b.size)
            o.set("status", b.status)
            o.set("attempt", b.attempt)
            if let retry = b.retryAfter { o.set("retry_after", retry) }
        case .warning(let w):
            o.set("event", "warning")
            o.set("t", elapsed)
            o.set("code", w.code)
            if let destination = w.destination { o.set("destination", destination) }
            o.set("message", KnownSecrets.redact(w.message))
        case .runFinished(let s):
            o.set("event", "run_finished")
            o.set("t", elapsed)
            o.set("run_id", s.runID)
            o.set("rows", s.rows)
            // `leadport enrich`: the enrichment's outcomes and spending are the run's.
            if s.destinations.isEmpty, let e = s.enrichment {
                Self.fill(&o, e)
                o.set("seconds", s.seconds)
                o.set("dry_run", s.dryRun)
                break
            }
            for outcome in Outcome.allCases { o.set(outcome.rawValue, s.counts[outcome] ?? 0) }
            var destinations = JSONObject()
            for d in s.destinations {
                var counts = JSONObject()
                for outcome in Outcome.allCases { counts.set(outcome.rawValue, d.counts[outcome] ?? 0) }
                if let stopped = d.stopped { counts.set("stopped", "\(stopped)") }
                destinations.set(d.name, json: counts.text)
            }
            o.set("destinations", json: destinations.text)
            o.set("unmapped_columns", json: JSONText.array(s.unmappedColumns))
            o.set("without_name", s.withoutName.count)
            o.set("without_contact", s.withoutContact.count)
            if !s.mailingAsAddress.isEmpty { o.set("mailing_as_address", json: JSONText.array(s.mailingAsAddress)) }
            o.set("seconds", s.seconds)
            o.set("dry_run", s.dryRun)
            if let e = s.enrichment { o.set("enrichment", json: Self.json(e)) }
        }
        if let job { o.set("job", job) }
        return o.text
    }

    private func human(_ event: ProgressEvent) {
        switch event {
        case .runStarted(_, let inputs, let destinations, let total):
            self.total = total
            self.destinations = destinations
            guard style == .plain else { break }
            ExitStatus.printError(destinations == ["enrich"] ? "enriching \(inputs.joined(separator: ", ")): \(numbered(total, "row"))"
                                  : "importing \(inputs.joined(separator: ", ")) → \(destinations.joined(separator: ", ")): \(numbered(total, "row"))")
        case .row(let r):
            counted(r.outcome.rawValue, at: r.destination)
        case .enrichedRow(_, let outcome):
            counted(outcome.name)
        case .enrichment(let u):
            usage = u
        case .batch:
            break
        case .warning(let w):
            // Above the bar, which is drawn again under it.
            if style == .bar { writeRaw("\r\u{1B}[K") }
            ExitStatus.printError("leadport: " + w.message)
        case .runFinished(let s):
            if style == .bar { draw(); writeRaw("\n") }
            summary(s)
        }
    }

    private func counted(_ outcome: String, at destination: String? = nil) {
        counts[outcome, default: 0] += 1
        if let destination, destinations.count > 1 {
            doneAt[destination, default: 0] += 1
            done = destinations.map { doneAt[$0] ?? 0 }.min() ?? 0
        } else {
            done += 1
        }
        let now = clock.now
        let interval: Duration = style == .bar ? .milliseconds(100) : .seconds(5)
        if now - lastDraw >= interval {
            lastDraw = now
            draw()
        }
    }

    private func line() -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 && total > done ? String(format: " ETA %.0fs", Double(total - done) / rate) : ""
        // With several destinations, each one's rows beside the rows done at all of them (the
        // outcomes summed over destinations would count each row twice).
        let parts = destinations.count > 1 ? destinations.map { "\($0) \(doneAt[$0] ?? 0)/\(total)" }.joined(separator: ", ")
            : Self.order.compactMap { o in counts[o].map { "\(o) \($0)" } }.joined(separator: ", ")
        return "\(done)/\(numbered(total, "row")), \(rate >= 10 ? String(Int(rate)) : String(format: "%.1f", rate)) rows/s\(eta)" + (parts.isEmpty ? "" : " — " + parts)
            + (usage.map { " · " + Self.spent($0) } ?? "")
    }

    /// "12 requests, 8,210 tokens, $0.0021": what the model was sent so far.
    static func spent(_ u: Enricher.Summary) -> String {
        let tokens = u.promptTokens + u.completionTokens
        let grouped = NumberFormatter.localizedString(from: NSNumber(value: tokens), number: .decimal)
        return "\(u.requests) request\(u.requests == 1 ? "" : "s"), \(grouped) tokens" + (u.cost.map { String(format: ", $%.4f", $0) } ?? "")
    }

    /// The enrichment's part of `run_finished`.
    static func json(_ e: Enrichment.Tally) -> String {
        var o = JSONObject()
        o.set("rows", e.rows)
        fill(&o, e)
        return o.text
    }

    static func fill(_ o: inout JSONObject, _ e: Enrichment.Tally) {
        o.set("enriched", e.enriched)
        o.set("cached", e.cached)
        o.set("skipped", e.skipped)
        o.set("rejected", e.rejected)
        o.set("pending", e.pending)
        o.set("requests", e.usage.requests)
        o.set("prompt_tokens", e.usage.promptTokens)
        o.set("completion_tokens", e.usage.completionTokens)
        if let cost = e.usage.cost { o.set("cost", json: String(format: "%.6f", cost)) }
        if let stopped = e.stopped { o.set("stopped", stopped) }
        if e.estimate.rows > 0 {
            var estimate = JSONObject()
            estimate.set("rows", e.estimate.rows)
            estimate.set("requests", e.estimate.requests)
            estimate.set("prompt_tokens", e.estimate.promptTokens)
            estimate.set("completion_tokens_at_most", e.estimate.completionTokens)
            if let cost = e.estimate.cost { estimate.set("cost_at_most", json: String(format: "%.6f", cost)) }
            o.set("estimate", json: estimate.text)
        }
    }

    /// For people: the enrichment's outcomes and spending, and a dry run's estimate.
    static func describe(_ e: Enrichment.Tally, dryRun: Bool, run: String) -> [String] {
        let outcomes = "enriched \(e.enriched) (\(e.cached) from the cache), skipped \(e.skipped), rejected \(e.rejected)" + (e.pending > 0 ? ", pending \(e.pending)" : "")
        var lines = [dryRun ? "dry run, nothing sent to the model: " + run + (e.cached > 0 ? "\(e.cached) answered from the cache" : "none answered from the cache yet")
                            : run + outcomes + "; " + spent(e.usage)]
        if dryRun {
            let grouped = { (n: Int) in NumberFormatter.localizedString(from: NSNumber(value: n), number: .decimal) }
            lines.append("to send: \(e.estimate.rows) row\(e.estimate.rows == 1 ? "" : "s") in \(e.estimate.requests) request\(e.estimate.requests == 1 ? "" : "s"), "
                         + "about \(grouped(e.estimate.promptTokens)) prompt tokens and at most \(grouped(e.estimate.completionTokens)) answer tokens"
                         + (e.estimate.cost.map { String(format: ", at most $%.4f", $0) } ?? " (no prices for this model: add prices: to the spec for a cost)"))
            if let budget = e.budget, let cost = e.estimate.cost, cost > budget {
                lines.append("that may be more than max_cost (\(EnrichSpec.Prices.dollars(budget))): the run stops before a request could pass it, and leaves the rows after it pending")
            }
        }
        return lines
    }

    private func draw() {
        if style == .bar {
            let width = 24
            let filled = total > 0 ? min(width, done * width / total) : 0
            writeRaw("\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] " + line())
        } else {
            ExitStatus.printError(line())
        }
    }

    private func summary(_ s: RunSummary) {
        // `pending` only when some are: most runs have none, and the line is read by people.
        func parts(_ counts: [Outcome: Int]) -> String {
            Outcome.allCases.filter { $0 != .pending || (counts[$0] ?? 0) > 0 }.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ")
        }
        // `leadport enrich` has no destinations: its outcomes are the enrichment's.
        if let e = s.enrichment {
            let run = s.destinations.isEmpty ? "\(numbered(s.rows, "row")) in \(String(format: "%.2f", s.seconds)) s: " : "enrichment: "
            for line in Self.describe(e, dryRun: s.dryRun, run: run) { ExitStatus.printError(line) }
        }
        guard !s.destinations.isEmpty else { return }
        let head = (s.dryRun ? "dry run, nothing written: " : "") + "\(numbered(s.rows, "row")) in \(String(format: "%.2f", s.seconds)) s"
        if s.destinations.count == 1 {
            ExitStatus.printError(head + ": " + parts(s.counts))
        } else {
            // With several destinations each row has an outcome at each: their counts, never
            // summed (30 rows to two CRMs are not "created 52").
            ExitStatus.printError(head + ", each row at each of \(s.destinations.count) destinations:")
            for d in s.destinations { ExitStatus.printError("  \(d.name): \(parts(d.counts))\(d.stopped == nil ? "" : " (stopped)")") }
        }
        // What a person would want to know before the postcards go out.
        for file in s.mailingAsAddress {
            ExitStatus.printError("\(file) has a mailing address and no property address: the mailing address is each lead's address (and the campaign's)")
        }
        if !s.unmappedColumns.isEmpty {
            let n = s.unmappedColumns.count
            ExitStatus.printError("\(numbered(n, "column")) not mapped to any field: \(s.unmappedColumns.map { "\"\($0)\"" }.joined(separator: ", ")) "
                                  + "(kept as extras; name \(n == 1 ? "it" : "them") in a mapping, --mapping, to use \(n == 1 ? "it" : "them"); `leadport inspect FILE` shows the guesses)")
        }
        for (tally, what) in [(s.withoutName, "without a usable name"), (s.withoutContact, "without an email, phone or address")] where tally.count > 0 {
            let rows = tally.first.map { "\($0.row)" }.joined(separator: ", ") + (tally.count > tally.first.count ? ", …" : "")
            ExitStatus.printError("\(numbered(tally.count, "row")) delivered \(what) (row\(tally.count == 1 ? "" : "s") \(rows))")
        }
        // Last, where people look: the id `leadport status` lists and `leadport undo` takes.
        if !s.dryRun { ExitStatus.printError("recorded as run \(s.runID)") }
    }

    private func writeRaw(_ text: String) {
        var t = KnownSecrets.redact(text)
        t.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
