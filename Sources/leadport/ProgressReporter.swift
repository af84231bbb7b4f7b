import Foundation
import HTTPKit
import LeadEngine

/// Renders the engine's progress events on stderr: a bar redrawn at most 10 times a second,
/// plain lines every few seconds, or JSON lines (design.md §4.5); then a summary.
/// Events come from one thread at a time (ImportRun's contract), retries included: they happen on the delivery thread.
final class ProgressReporter: @unchecked Sendable {
    private let style: Import.ProgressStyle
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var total = 0
    private var done = 0
    private var counts: [Outcome: Int] = [:]

    init(style: Import.ProgressStyle) {
        self.style = style
        start = clock.now
        lastDraw = start
    }

    private var elapsed: Double {
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func handle(_ event: ProgressEvent) {
        switch style {
        case .jsonl: json(event)
        case .none: if case .runFinished(let s) = event { summary(s) }
        case .bar, .plain, .auto: human(event)
        }
    }

    private func json(_ event: ProgressEvent) {
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
        case .batch(let b):
            o.set("event", "batch")
            o.set("t", elapsed)
            o.set("destination", b.destination)
            o.set("size", b.size)
            o.set("status", b.status)
            o.set("attempt", b.attempt)
            if let retry = b.retryAfter { o.set("retry_after", retry) }
        case .runFinished(let s):
            o.set("event", "run_finished")
            o.set("t", elapsed)
            o.set("run_id", s.runID)
            o.set("rows", s.rows)
            for outcome in Outcome.allCases { o.set(outcome.rawValue, s.counts[outcome] ?? 0) }
            var destinations = JSONObject()
            for d in s.destinations {
                var counts = JSONObject()
                for outcome in Outcome.allCases { counts.set(outcome.rawValue, d.counts[outcome] ?? 0) }
                if let stopped = d.stopped { counts.set("stopped", "\(stopped)") }
                destinations.set(d.name, json: counts.text)
            }
            o.set("destinations", json: destinations.text)
            o.set("seconds", s.seconds)
            o.set("dry_run", s.dryRun)
        }
        ExitStatus.printError(o.text)
    }

    private func human(_ event: ProgressEvent) {
        switch event {
        case .runStarted(_, let inputs, let destinations, let total):
            self.total = total
            if style == .plain { ExitStatus.printError("importing \(inputs.joined(separator: ", ")) → \(destinations.joined(separator: ", ")): \(total) rows") }
        case .row(let r):
            done += 1
            counts[r.outcome, default: 0] += 1
            let now = clock.now
            let interval: Duration = style == .bar ? .milliseconds(100) : .seconds(5)
            if now - lastDraw >= interval {
                lastDraw = now
                draw()
            }
        case .batch:
            break
        case .runFinished(let s):
            if style == .bar { draw(); writeRaw("\n") }
            summary(s)
        }
    }

    private func line() -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 && total > done ? String(format: " ETA %.0fs", Double(total - done) / rate) : ""
        let parts = Outcome.allCases.compactMap { o in counts[o].map { "\(o.rawValue) \($0)" } }.joined(separator: ", ")
        return "\(done)/\(total) rows, \(Int(rate)) rows/s\(eta)" + (parts.isEmpty ? "" : " — " + parts)
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
        ExitStatus.printError((s.dryRun ? "dry run, nothing written: " : "") + "\(s.rows) row\(s.rows == 1 ? "" : "s") in \(String(format: "%.2f", s.seconds)) s: \(parts(s.counts))")
        // With several destinations, each one's own line.
        if s.destinations.count > 1 {
            for d in s.destinations { ExitStatus.printError("  \(d.name): \(parts(d.counts))\(d.stopped == nil ? "" : " (stopped)")") }
        }
    }

    private func writeRaw(_ text: String) {
        var t = KnownSecrets.redact(text)
        t.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
