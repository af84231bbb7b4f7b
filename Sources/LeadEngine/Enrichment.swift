import Foundation
import LeadCore
import LeadEnrich
import LeadPortKit
import LeadReaders
import LeadStore

/// The LLM stage for `leadport enrich` and `import --enrich`: rows in, each row's
/// answer out, from the cache in the ledger when it is there, else from the model, and every
/// row with an outcome (values, or why not).
public final class Enrichment: @unchecked Sendable {
    public let spec: EnrichSpec
    public let specPath: String
    private let enricher: Enricher
    private let endpoint: String
    private let model: String
    private let fingerprint: String
    /// Whether answers are taken from the cache (`--no-cache`: no; they are still saved).
    private let readsCache: Bool
    /// A dry run sends nothing: it counts what would be sent.
    private let dryRun: Bool
    private let lock = NSLock()
    private var tally = Tally()

    /// What happened to one row.
    public enum RowOutcome: Sendable, Equatable {
        /// Its values; `cached`: from an earlier answer, at no cost.
        case enriched([String: EnrichValue], cached: Bool)
        /// Not sent: a blank row, or one whose sent columns are all empty.
        case skipped(String)
        case rejected(String)
        /// Not processed yet (the budget, the endpoint stopped, a dry run): the next run does it.
        case pending(String)

        public var name: String {
            switch self {
            case .enriched: return "enriched"
            case .skipped: return "skipped"
            case .rejected: return "rejected"
            case .pending: return "pending"
            }
        }

        public var reason: String? {
            switch self {
            case .enriched: return nil
            case .skipped(let why), .rejected(let why), .pending(let why): return why
            }
        }

        public var values: [String: EnrichValue]? {
            if case .enriched(let values, _) = self { return values }
            return nil
        }
    }

    /// The run so far: rows by outcome, what was sent and what it cost, and a dry run's estimate.
    public struct Tally: Sendable {
        public var rows = 0
        public var enriched = 0
        public var cached = 0
        public var skipped = 0
        public var rejected = 0
        public var pending = 0
        public var usage = Enricher.Summary()
        /// A dry run: what sending the rows not cached would take.
        public var estimate = Estimate()
        /// The spec's `max_cost`.
        public var budget: Double?
        /// Why rows were left pending, when they were.
        public var stopped: String? { usage.stopped }
    }

    public struct Estimate: Sendable, Equatable {
        public var rows = 0
        public var requests = 0
        public var promptTokens = 0
        public var completionTokens = 0
        public var cost: Double?
    }

    public init(spec: EnrichSpec, specPath: String, client: OpenAIClient, concurrency: Int = 4, readsCache: Bool = true, dryRun: Bool = false,
                onUsage: (@Sendable (Enricher.Summary) -> Void)? = nil) {
        (self.spec, self.specPath, self.readsCache, self.dryRun) = (spec, specPath, readsCache, dryRun)
        enricher = Enricher(spec: spec, client: client, concurrency: concurrency)
        enricher.onUsage = onUsage
        endpoint = client.config.baseURL.absoluteString
        model = client.config.model
        fingerprint = EnrichCache.fingerprint(spec)
        tally.budget = spec.maxCost
        if spec.prices(for: model) != nil { tally.usage.cost = 0 }
    }

    public var summary: Tally { lock.withLock { tally } }

    /// Rows worth sending at once from a file: enough requests to keep every connection busy
    /// several times over, few enough that the progress moves and little is held in memory.
    public var chunkRows: Int { spec.rowsPerRequest * 16 }

    /// The columns of `plan` sent to the model, by index: `send:` when the spec has it, else
    /// every column the mapping keeps (mapped to a field or carried as an extra), never one in
    /// `exclude:` (headers compared without regard to case).
    public func columns(for plan: ColumnPlan, file: String) throws -> [Int] {
        let names = plan.columnNames
        func index(_ header: String) -> Int? {
            names.firstIndex(of: header) ?? names.firstIndex { $0.caseInsensitiveCompare(header) == .orderedSame }
        }
        // A field named like a column of the list would write a second column of that name.
        if let clash = spec.fields.first(where: { index($0.name) != nil }) {
            throw EnrichSpecError(path: specPath, line: nil, message: "the field \(clash.name) is also a column of \(file): name the field otherwise (as in \(clash.name.lowercased())_checked)")
        }
        // A column meant never to be sent, misspelt, would be sent: one the list does not have
        // but has one much like it is refused (a list without the column at all is fine).
        for missing in spec.exclude where index(missing) == nil {
            if let near = names.first(where: { Self.alike($0, missing) }) {
                throw EnrichSpecError(path: specPath, line: nil, message: "exclude names the column \"\(missing)\", which \(file) does not have; "
                                      + "it has \"\(near)\": is that the one never to send? Write it as the list does")
            }
        }
        let excluded = Set(spec.exclude.compactMap(index))
        if let send = spec.send {
            return try send.map { header in
                guard let k = index(header) else {
                    throw EnrichSpecError(path: specPath, line: nil, message: "send names the column \"\(header)\", which \(file) does not have; its columns: "
                                          + names.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                return k
            }
        }
        return (0..<plan.width).filter { k in
            !excluded.contains(k) && !plan.ignored.contains(k) && (plan.fields[k] != nil || plan.mapping.extras != .drop)
        }
    }

    /// Whether two headers differ only in case, spaces and punctuation, by a letter or two, or
    /// one is the other with more words (`Note` and `Internal Notes`).
    static func alike(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().filter { $0.isLetter || $0.isNumber }), y = Array(b.lowercased().filter { $0.isLetter || $0.isNumber })
        guard !x.isEmpty, !y.isEmpty else { return false }
        if String(x).contains(String(y)) || String(y).contains(String(x)) { return true }
        // Edit distance, stopping early past 2.
        guard abs(x.count - y.count) <= 2 else { return false }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count] <= 2
    }

    /// Each row's outcome, in the order given. `columns` from `columns(for:file:)`; `store`
    /// keeps the answers (written in its open transaction, if it has one).
    /// `skipping`: rows not to send (on a do-not-contact list), by position. `onOutcome` is told
    /// each row's outcome (by position) as it is known, the model's answers as they come, on
    /// any thread, one at a time.
    public func process(_ rows: [RawRow], columns: [Int], names: [String], store: LeadStore, skipping: [Bool]? = nil,
                        onOutcome: (@Sendable (Int, RowOutcome) -> Void)? = nil) throws -> [RowOutcome] {
        var outcomes = [RowOutcome?](repeating: nil, count: rows.count)
        var asked: [(index: Int, row: EnrichRow, key: String)] = []
        for (i, raw) in rows.enumerated() {
            if skipping?[i] == true {
                outcomes[i] = .skipped("not sent to the model: excluded, or rejected by the rules")
                continue
            }
            if raw.isBlank || raw.cells.allSatisfy({ $0.trimmed.isEmpty }) {
                outcomes[i] = .skipped("blank row")
                continue
            }
            let cells: [(header: String, value: String)] = columns.compactMap { k in
                guard k < raw.cells.count else { return nil }
                let value = raw.cells[k].trimmed
                return value.isEmpty ? nil : (names[k], value)
            }
            guard !cells.isEmpty else {
                outcomes[i] = .skipped("nothing to send: the columns sent are empty in this row")
                continue
            }
            // The row's id: its place in the list, unique within any one request.
            let row = EnrichRow(id: String(raw.location.recordIndex + 1), cells: cells)
            asked.append((i, row, EnrichCache.key(endpoint: endpoint, model: model, fingerprint: fingerprint, row: row)))
        }
        if readsCache, !asked.isEmpty {
            let known = try store.enrichAnswers(keys: asked.map(\.key))
            asked.removeAll { item in
                guard let text = known[item.key], let values = EnrichCache.decode(text, spec: spec) else { return false }
                outcomes[item.index] = .enriched(values, cached: true)
                return true
            }
        }
        if let onOutcome {
            for (i, outcome) in outcomes.enumerated() { if let outcome { onOutcome(i, outcome) } }
        }
        if dryRun {
            let estimate = enricher.estimate(asked.map(\.row))
            lock.withLock {
                tally.estimate.rows += asked.count
                tally.estimate.requests += estimate.requests
                tally.estimate.promptTokens += estimate.promptTokens
                tally.estimate.completionTokens += estimate.completionTokens
                if let cost = estimate.cost { tally.estimate.cost = (tally.estimate.cost ?? 0) + cost }
            }
            for item in asked {
                outcomes[item.index] = .pending("not sent: a dry run sends nothing to the model")
                onOutcome?(item.index, outcomes[item.index]!)
            }
        } else if !asked.isEmpty {
            let byID = Dictionary(uniqueKeysWithValues: asked.map { ($0.row.id, $0) })
            let answers = Answers()
            let usage = enricher.run(asked.map(\.row)) { id, answer in
                guard let item = byID[id] else { return }
                let outcome: RowOutcome
                switch answer {
                case .values(let values): outcome = .enriched(values, cached: false)
                case .rejected(let why): outcome = .rejected(why)
                case .pending(let why): outcome = .pending(why)
                }
                answers.add(item.index, outcome)
                onOutcome?(item.index, outcome)
            }
            let keyAt = Dictionary(uniqueKeysWithValues: asked.map { ($0.index, $0.key) })
            var fresh: [(key: String, answer: String)] = []
            for (index, outcome) in answers.all {
                outcomes[index] = outcome
                if case .enriched(let values, _) = outcome, let key = keyAt[index] { fresh.append((key, EnrichCache.encode(values, spec: spec))) }
            }
            try store.saveEnrichAnswers(fresh)
            lock.withLock { tally.usage = usage }
        }
        let settled = outcomes.map { $0 ?? .rejected("no answer was given for this row") }
        lock.withLock {
            tally.rows += settled.count
            for outcome in settled {
                switch outcome {
                case .enriched(_, let cached):
                    tally.enriched += 1
                    if cached { tally.cached += 1 }
                case .skipped: tally.skipped += 1
                case .rejected: tally.rejected += 1
                case .pending: tally.pending += 1
                }
            }
        }
        return settled
    }

    /// The answers as they come, from the enricher's threads.
    private final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(Int, RowOutcome)] = []
        func add(_ index: Int, _ outcome: RowOutcome) { lock.withLock { items.append((index, outcome)) } }
        var all: [(Int, RowOutcome)] { lock.withLock { items } }
    }
}

extension ColumnPlan {
    /// The plan with the spec's fields as columns after the list's own (their cells appended
    /// to each row by the enrichment): a field that `maps_to` a lead field fills it, over the
    /// list's own column for it when the model gave a value; the others travel as extras.
    public func enriched(by spec: EnrichSpec) -> ColumnPlan {
        var plan = self
        plan.headers = columnNames + spec.fields.map(\.name)
        for (n, field) in spec.fields.enumerated() {
            let k = width + n
            plan.ignored.remove(k)
            if let target = field.mapsTo {
                plan.fields[k] = target
                plan.overriding.insert(k)
            }
        }
        plan.width = width + spec.fields.count
        return plan
    }
}
