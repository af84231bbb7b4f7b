import Foundation
import HTTPKit
import LeadCore

/// `--to monday`: each lead as an item of a monday.com board, through `MondayAPI`.
///
/// | lead | how it is written |
/// | --- | --- |
/// | sent before (the ledger knows its item) | `change_multiple_column_values` on that item; an item gone from the board since is looked for, else created |
/// | an item holds its dedupe value (`prepare`: `items_page_by_column_values`) | `change_multiple_column_values` on the oldest such item, or nothing when it holds every value already |
/// | not found | `create_item`; a lost answer is settled by looking the item up by its dedupe value before creating again (`MondayDestination+Settle`) |
/// | no dedupe value | rejected: nothing could find its item again, and a create sent twice would make it twice |
///
/// Items are written one request each (a create is the unit monday.com answers for), 25 to a
/// batch, paced by HTTPKit's limiter; monday.com's per-minute budget refusals pause the run
/// until `retry_in_seconds` (`MondayMinuteLimits`).
public final class MondayDestination: Destination {
    public static let kind = "monday"
    public let name = MondayDestination.kind
    /// The ledger is the account's and `MONDAY_BOARD_ID`'s (a mapping's board is read after
    /// the engine has named the ledger: each lead's hash holds the board, so another board is
    /// an update, which finds or makes the item there).
    public let ledgerName: String
    public internal(set) var capabilities: DestinationCapabilities
    public let reconciliation = Reconciliation.lookUp(how: "the item is looked up by its dedupe column (items_page_by_column_values) and created again only when not found")
    let api: MondayAPI
    let lock = NSLock()
    /// Set by `configure`, before the rows.
    var mapping = MondayMapping()
    var policy = DestinationPolicy()
    /// The board's columns for `mapping`, read once at the first batch.
    private var resolved: MondayLayout?
    /// Items' values read by `prepare` for the field policies, by id, until `send` takes them.
    var read: [String: MondayItem] = [:]
    /// Set when a batch stopped after some of its writes were confirmed: the next batch stops.
    var stopped: DestinationError?

    public static let largestBatch = 25

    public init(api: MondayAPI) {
        self.api = api
        ledgerName = "monday:" + api.config.baseURL.absoluteString + (api.config.board.map { "/boards/" + $0 } ?? "")
        mapping.board = api.config.board
        capabilities = DestinationCapabilities(largestBatch: Self.largestBatch, remoteDedupeKeys: ["email"], requests: api.policy.requests, per: api.policy.interval, upserts: false)
    }

    public var encoder: @Sendable (Lead) -> Encoded {
        { [board = lock.withLock { mapping.board ?? "" }] lead in Encoded(hash: MondayItemPayload(lead: lead).hash(salt: board)) }
    }

    /// The board the items go to and its layout, the columns read at the first call.
    func layout() throws(MondayError) -> (board: String, layout: MondayLayout) {
        let (mapping, known): (MondayMapping, MondayLayout?) = lock.withLock { (self.mapping, self.resolved) }
        guard let board = mapping.board else {
            throw MondayError(.configuration, "set \(MondayConfig.boardVariable) to the board's id (the number in its address), or name it in the mapping's destinations.monday.board")
        }
        if let known { return (board, known) }
        let origin = mapping.board == api.config.board ? MondayConfig.boardVariable : "destinations.monday.board"
        let layout = try mapping.layout(try api.columns(board: board, from: origin), board: board)
        lock.withLock { resolved = layout }
        return (board, layout)
    }

    /// Finds, for each new lead, the oldest item holding its dedupe value: it becomes an update
    /// of that item (or nothing, when the item holds every value already). Updates' items are
    /// read too when a field policy needs their values. One look-up for the batch.
    public func prepare(_ leads: inout [OutboundLead]) throws {
        do throws(MondayError) {
            let (board, layout) = try self.layout()
            let payloads = leads.map { MondayItemPayload(lead: $0.lead) }
            let wanted = leads.indices.filter { leads[$0].action == .create || !policy.overwritesAll }
            let values = Array(Set(wanted.compactMap { payloads[$0][layout.dedupe.field] }))
            guard !values.isEmpty else { return }
            let found = try api.items(board: board, column: layout.dedupe.column.id, values: values).sorted { (Int($0.id) ?? 0) < (Int($1.id) ?? 0) }
            var byID: [String: MondayItem] = [:]
            for item in found { byID[item.id] = item }
            for k in wanted {
                guard let value = payloads[k][layout.dedupe.field] else { continue }
                let item: MondayItem?
                if leads[k].action == .update, let id = leads[k].remoteID {
                    item = byID[id]
                } else {
                    item = found.first { layout.fields(of: $0)[layout.dedupe.field]?.caseInsensitiveCompare(value) == .orderedSame }
                    if let item { (leads[k].remoteID, leads[k].action, leads[k].found) = (item.id, .update, true) }
                }
                guard let item else { continue }
                let (name, fields) = updating(payloads[k], over: item, layout)
                if layout.holds(item, name: name, fields) { leads[k].alreadyThere = true }
                if !policy.overwritesAll { lock.withLock { read[item.id] = item } }
            }
        } catch {
            throw error.stop
        }
    }

    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        if let stopped = lock.withLock({ stopped }) { throw stopped }
        var results: [DeliveryResult] = []
        do throws(MondayError) {
            let (board, layout) = try self.layout()
            for lead in leads { results.append(try write(lead, board: board, layout: layout)) }
        } catch {
            let stop = error.stop
            guard !results.isEmpty else { throw stop }
            // Items written before the stop are answered, to be recorded; the next batch stops.
            lock.withLock { stopped = stop }
            results += Array(repeating: DeliveryResult.failed(reason: "not sent: " + stop.message), count: leads.count - results.count)
        }
        return .rows(results)
    }
}
