import Foundation
import LeadCore
import LeadEngine
import LeadPrint

/// `export vdp`'s progress on stderr: with `jsonl`, `run_started`, a `row` event per address and
/// `run_finished`; otherwise a line every few seconds and the summary (`none`: the summary).
final class VDPProgress {
    private let style: Import.ProgressStyle
    private let destination: String
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastLine: ContinuousClock.Instant
    private var total = 0
    private var done = 0

    init(style: Import.ProgressStyle, destination: String) {
        self.style = style
        self.destination = destination
        start = clock.now
        lastLine = start
    }

    private var elapsed: Double { (clock.now - start).inSeconds }

    func started(_ id: String, _ name: String, _ total: Int) {
        self.total = total
        guard style == .jsonl else { return }
        var o = JSONObject()
        o.set("event", "run_started")
        o.set("t", elapsed)
        o.set("campaign_id", id)
        o.set("campaign", name)
        o.set("destination", destination)
        o.set("total", total)
        ExitStatus.printError(o.text)
    }

    func row(_ row: VDPExport.Row) {
        done += 1
        switch style {
        case .jsonl:
            var o = JSONObject()
            o.set("event", "row")
            o.set("t", elapsed)
            o.set("sequence", row.sequence)
            o.set("address_id", row.address.id)
            o.set("outcome", row.outcome.rawValue)
            // As import's row events: a field the row has not is left out.
            for (key, value) in [("slug", row.slug), ("qr_url", row.url), ("image", row.image), ("reason", row.reason)] {
                if let value { o.set(key, value) }
            }
            ExitStatus.printError(o.text)
        case .none:
            break
        case .auto, .bar, .plain:
            if clock.now - lastLine > .seconds(3) {
                lastLine = clock.now
                ExitStatus.printError("\(done)/\(total) addresses")
            }
        }
    }

    func finished(_ s: VDPExport.Summary, output: String, bytes: Int64) {
        let counts = VDPExport.Outcome.allCases.map { "\($0.rawValue) \(s.counts[$0] ?? 0)" }.joined(separator: ", ")
        if style == .jsonl {
            var o = JSONObject()
            o.set("event", "run_finished")
            o.set("t", elapsed)
            o.set("campaign_id", s.campaignID)
            o.set("rows", s.rows)
            for outcome in VDPExport.Outcome.allCases { o.set(outcome.rawValue, s.counts[outcome] ?? 0) }
            o.set("output", output)
            o.set("bytes", Int(bytes))
            o.set("seconds", elapsed)
            ExitStatus.printError(o.text)
            return
        }
        let seconds = String(format: "%.2f", elapsed)
        ExitStatus.printError("\(numbered(s.rows, "address", plural: "addresses")) of \"\(s.campaignName)\" in \(seconds) s: \(counts) → \(output) (\(bytes) bytes)")
        if let skipped = s.counts[.skipped], skipped > 0 {
            ExitStatus.printError("\(skipped) address\(skipped == 1 ? "" : "es") cannot be mailed and got no QR code: see the outcome and reason columns of vdp-manifest.csv")
        }
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
