import CLeadPQ
import Foundation
import HTTPKit
import LeadCore

/// A PostgreSQL error as the server reported it.
public struct PostgresError: Error, CustomStringConvertible {
    /// SQLSTATE (`23505`), or nil when the connection itself failed.
    public var code: String?
    public var message: String
    public var detail: String?
    public var hint: String?

    public var description: String {
        var text = message
        if let detail, !detail.isEmpty { text += " (\(detail))" }
        if let hint, !hint.isEmpty { text += "; hint: \(hint)" }
        return text
    }

    /// Caused by the rows sent: bad data (class 22) or a constraint (class 23). Another batch
    /// without the bad rows would go through.
    public var isRowLevel: Bool { code.map { $0.hasPrefix("22") || $0.hasPrefix("23") } ?? false }

    /// Worth trying again: the connection went, a serialization failure or deadlock, the
    /// server shutting down or short of resources, a statement timeout.
    public var isTransient: Bool {
        guard let code else { return true }
        return code.hasPrefix("08") || code.hasPrefix("40") || code.hasPrefix("53") || code.hasPrefix("57")
    }
}

/// One libpq connection, used from one thread at a time.
public final class PostgresConnection {
    private var conn: OpaquePointer?
    private let url: String

    public init(url: String) throws {
        self.url = url
        try connect()
    }

    deinit { lp_PQfinish(conn) }

    private func connect() throws {
        guard lp_pq_load() != 0 else { throw PostgresError(code: nil, message: String(cString: lp_pq_load_error())) }
        lp_PQfinish(conn)
        conn = lp_PQconnectdb(url)
        guard lp_PQstatus(conn) == Int32(LP_CONNECTION_OK) else {
            let message = String(cString: lp_PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
            lp_PQfinish(conn)
            conn = nil
            throw PostgresError(code: nil, message: "cannot connect to \(Postgres.displayName(url)): \(message)")
        }
        // Our writes stand alone; notices (`relation already exists, skipping`) are not news.
        _ = try? execute("SET client_min_messages = warning")
    }

    /// Connects again when the connection was lost.
    public func reconnectIfNeeded() throws {
        if conn == nil || lp_PQstatus(conn) != Int32(LP_CONNECTION_OK) { try connect() }
    }

    /// Runs statements separated by semicolons, without parameters (a schema file).
    public func run(script: String) throws {
        let result = lp_PQexec(conn, script)
        defer { lp_PQclear(result) }
        let status = lp_PQresultStatus(result)
        guard status == Int32(LP_PGRES_COMMAND_OK) || status == Int32(LP_PGRES_TUPLES_OK) || status == Int32(LP_PGRES_EMPTY_QUERY) else {
            throw PostgresError(code: lp_PQresultErrorField(result, Int32(Character("C").asciiValue!)).map { String(cString: $0) },
                                message: String(cString: lp_PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Runs `sql` with text parameters (`$1`, `$2`, …; nil is NULL) and returns the rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        // The parameters' bytes, NUL-terminated, in one buffer; pointers into it for libpq.
        var bytes: [CChar] = []
        var offsets: [Int] = []
        for parameter in parameters {
            guard let parameter else {
                offsets.append(-1)
                continue
            }
            offsets.append(bytes.count)
            // PostgreSQL's text holds no NUL (a CSV cell may: the readers keep it); it is left
            // out, as in COPY, rather than cutting the value short there.
            for b in parameter.utf8 where b != 0 { bytes.append(CChar(bitPattern: b)) }
            bytes.append(0)
        }
        let result: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            let values: [UnsafePointer<CChar>?] = offsets.map { $0 < 0 ? nil : buffer.baseAddress! + $0 }
            return values.withUnsafeBufferPointer { pointers in
                lp_PQexecParams(conn, sql, Int32(parameters.count), pointers.baseAddress)
            }
        }
        defer { lp_PQclear(result) }
        switch lp_PQresultStatus(result) {
        case Int32(LP_PGRES_COMMAND_OK), Int32(LP_PGRES_EMPTY_QUERY):
            return []
        case Int32(LP_PGRES_TUPLES_OK):
            let rows = lp_PQntuples(result), columns = lp_PQnfields(result)
            var out: [[String?]] = []
            out.reserveCapacity(Int(rows))
            for r in 0..<rows {
                out.append((0..<columns).map { c in lp_PQgetisnull(result, r, c) != 0 ? nil : String(cString: lp_PQgetvalue(result, r, c)) })
            }
            return out
        default:
            throw error(result)
        }
    }

    private func error(_ result: OpaquePointer?) -> PostgresError {
        func field(_ code: Character) -> String? {
            lp_PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        let message = field("M") ?? String(cString: lp_PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
        return PostgresError(code: lp_PQstatus(conn) == Int32(LP_CONNECTION_OK) ? field("C") : nil, message: message, detail: field("D"), hint: field("H"))
    }

    /// `COPY table (columns) FROM STDIN` with `rows` in COPY's text format (`CopyText`).
    public func copy(_ table: String, columns: String, rows: [UInt8]) throws {
        let start = lp_PQexec(conn, "COPY \(table) (\(columns)) FROM STDIN")
        let status = lp_PQresultStatus(start)
        if status != Int32(LP_PGRES_COPY_IN) {
            defer { lp_PQclear(start) }
            throw error(start)
        }
        lp_PQclear(start)
        let sent = rows.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lp_PQputCopyData(conn, $0.baseAddress, Int32($0.count)) }
        }
        _ = lp_PQputCopyEnd(conn, sent == 1 ? nil : "LeadPort could not send the rows")
        var failure: PostgresError?
        while let result = lp_PQgetResult(conn) {
            if failure == nil && lp_PQresultStatus(result) != Int32(LP_PGRES_COMMAND_OK) { failure = error(result) }
            lp_PQclear(result)
        }
        if let failure { throw failure }
    }
}

/// Rows in COPY's text format: tab between values, a newline after each row, `\N` for NULL,
/// and backslash, tab, newline and carriage return escaped. NUL, which PostgreSQL's text cannot
/// hold, is left out.
struct CopyText {
    private(set) var bytes: [UInt8] = []
    private var atRowStart = true

    /// The next value of the current row (`end()` closes the row). Written straight into the
    /// buffer: no array of the row's values is made on the way.
    mutating func value(_ value: String?) {
        if !atRowStart { bytes.append(9) }
        atRowStart = false
        guard var value else {
            bytes.append(92)
            bytes.append(78)  // \N
            return
        }
        value.withUTF8 { utf8 in
            // Most values have nothing to escape: copied whole, not byte by byte.
            guard utf8.contains(where: { $0 == 92 || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 0 }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for b in utf8 {
                switch b {
                case 92: bytes.append(92); bytes.append(92)
                case 9: bytes.append(92); bytes.append(116)
                case 10: bytes.append(92); bytes.append(110)
                case 13: bytes.append(92); bytes.append(114)
                case 0: break
                default: bytes.append(b)
                }
            }
        }
    }

    mutating func end() {
        bytes.append(10)
        atRowStart = true
    }
}

public enum Postgres {
    /// `postgres://user@host:port/db`: the URL without its password or query, for reports.
    public static func displayName(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "postgres://(unreadable URL)" }
        parts.password = nil
        parts.query = nil
        return parts.string ?? "postgres://"
    }

    /// `postgres://host:port/db`: the same for every user, password and spelling of the scheme.
    public static func ledgerName(_ url: String) -> String {
        let parts = URLComponents(string: url)
        let host = parts?.host ?? "localhost"
        let port = parts?.port ?? 5432
        let db = parts.map { $0.path.hasPrefix("/") ? String($0.path.dropFirst()) : $0.path } ?? ""
        return "postgres://\(host):\(port)/\(db.isEmpty ? (parts?.user ?? "postgres") : db)"
    }
}

/// `--to postgres://…`: FLYR's tables in any PostgreSQL, Supabase's database included.
///
/// Each batch is one transaction: new addresses, then new contacts, each one COPY, then the
/// changed rows, one UPDATE per table. Ids are fixed by the lead, so a batch sent again after a
/// crash finds its rows there: COPY refuses it (a duplicate primary key), and the batch is
/// written again as multi-row INSERTs with `ON CONFLICT (id) DO NOTHING`, which add nothing. A batch that fails for a
/// row's data or a constraint is rolled back and split (`BatchSplitter`) until the bad rows
/// stand alone.
public final class PostgresDestination: Destination {
    public let name: String
    public let ledgerName: String
    /// A thousand rows per statement: 12 parameters a row stays under PostgreSQL's 65,535.
    public let capabilities = DestinationCapabilities(largestBatch: 1000, requests: 1_000_000, per: 1, upserts: true)
    public let reconciliation = Reconciliation.resend(how: "it connects again and sends the batch again; the rows' ids are fixed by the lead and the campaign, and written ON CONFLICT (id) DO NOTHING")
    public var encoder: @Sendable (Lead) -> Encoded { FlyrRows.encoder(scope) }
    private let connection: PostgresConnection
    /// `prepare` (which may read the campaign's rows) and `send` are called from different
    /// threads, for different batches at once; libpq's connection is for one at a time.
    private let connectionLock = NSLock()
    private let retry: BackoffPolicy
    private let clock: any HTTPClock
    /// Set by `configure`, before the rows.
    private var policy = DestinationPolicy()
    private lazy var planner = FlyrPlanner(ledgerName: ledgerName, load: { [unowned self] campaign in try self.index(campaign: campaign) },
                                           read: { [unowned self] table, columns, ids in try self.currentRows(table, columns, ids: ids) })
    /// The next `seq` per campaign, read once and counted on (gaps after a failed batch are harmless).
    private var nextSeq: [String: Int] = [:]

    /// Every mode and field policy (`append` as `fill_blank`: a column holds one value); no option.
    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: kind, fieldPolicies: Set(FieldPolicy.allCases), options: [])
        self.policy = policy
    }

    public init(url: String, retry: BackoffPolicy = BackoffPolicy(base: 0.5, cap: 8, maxAttempts: 5), clock: any HTTPClock = SystemClock()) throws {
        name = Postgres.displayName(url)
        ledgerName = Postgres.ledgerName(url)
        self.retry = retry
        self.clock = clock
        do {
            connection = try PostgresConnection(url: url)
            let missing = try connection.execute("""
                SELECT t FROM unnest(ARRAY['campaigns', 'campaign_addresses', 'contacts']) AS t WHERE to_regclass('public.' || t) IS NULL
                """).compactMap { $0[0] }
            if !missing.isEmpty {
                throw DestinationError(destination: name, message: "the database has no \(missing.joined(separator: ", ")) table; "
                                       + "create FLYR's tables with: psql \"URL\" -f sql/flyr-schema.sql")
            }
        } catch let error as PostgresError {
            throw DestinationError(destination: name, message: error.description)
        }
    }

    /// The run's campaign and whose its rows are (`FlyrScope`), kept for every batch after.
    private var scope = FlyrScope()

    public func enter(_ given: RunScope) throws -> Scope {
        scope = try FlyrScope(given, destination: name) { try campaign($0, owner: $1, create: $2) }
        return scope.answer
    }

    /// The campaign `reference` names, at every FLYR destination alike (`FlyrScope`): an id (a
    /// UUID) is looked up by id alone, whoever owns it, and never created; a name is looked up
    /// among `owner`'s campaigns (everyone's when `owner` is nil) and, when there is none and
    /// `create`, created as an `import_list` campaign of `owner`.
    public func campaign(_ reference: String, owner: String?, create: Bool) throws -> CampaignMatch? {
        try connectionLock.withLock { try fatal {
            let found = CampaignMatch.isID(reference)
                ? try connection.execute("SELECT id, owner_id FROM campaigns WHERE id = $1::uuid", [reference])
                : try connection.execute("SELECT id, owner_id FROM campaigns WHERE name = $1 AND ($2::uuid IS NULL OR owner_id = $2::uuid) ORDER BY created_at, id LIMIT 2",
                                         [reference, owner])
            if found.count > 1 { throw AmbiguousCampaign(name: reference, ids: found.compactMap { $0[0] }) }
            if let row = found.first, let id = row[0] { return CampaignMatch(id: id, owner: row[1]) }
            guard create, !CampaignMatch.isID(reference) else { return nil }
            guard let owner else {
                throw DestinationError(destination: name, message: "no campaign is named \"\(reference)\"; to create it, give its owner, a FLYR user's id, with --user")
            }
            do {
                // The id is fixed by the owner and the name, as for Supabase (where it matters).
                let id = FlyrID.stable(ledgerName, "campaign", owner, reference)
                try connection.execute("""
                    INSERT INTO campaigns (id, owner_id, name, type, address_source, status) VALUES ($1::uuid, $2::uuid, $3, 'flyer', 'import_list', 'draft')
                    ON CONFLICT (id) DO NOTHING
                    """, [id, owner, reference])
                return CampaignMatch(id: id, owner: owner)
            } catch let error as PostgresError where error.code == "23503" || error.code == "22P02" {
                throw PostgresError(code: error.code, message: "cannot create campaign \"\(reference)\": its owner \(owner) is not a user of the database (auth.users); "
                                    + "give a FLYR user's id with --user")
            }
        } }
    }

    public func prepare(_ leads: inout [OutboundLead]) throws {
        try fatal { try planner.prepare(&leads, campaign: scope.campaign, policy: policy) }
    }

    /// For a plan: the changed leads' rows as read, and what would be written over them.
    public func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? {
        try fatal { try FlyrPlan.snapshots(leads, policy: policy, read: currentRows) }
    }

    public var undoesUpdates: Bool { true }

    public func writtenVersion(_ lead: OutboundLead) -> String? { FlyrVersion.of(lead) }

    /// `leadport undo` on FLYR's tables (`FlyrUndo`).
    public func undo(_ items: [UndoItem], dryRun: Bool) throws -> [UndoResult] {
        try fatal {
            try FlyrUndo.undo(items, dryRun: dryRun, FlyrUndo.Access(read: currentRows, delete: { [self] table, ids in
                connectionLock.lock()
                defer { connectionLock.unlock() }
                try connection.execute("DELETE FROM \(table) WHERE id = ANY($1::uuid[])", ["{" + ids.joined(separator: ",") + "}"])
            }, set: { [self] table, id, values in
                connectionLock.lock()
                defer { connectionLock.unlock() }
                let assignments = values.enumerated().map { "\($0.element.column) = $\($0.offset + 1)" }.joined(separator: ", ")
                let stamp = table == "contacts" ? ", updated_at = now()" : ""
                try connection.execute("UPDATE \(table) SET \(assignments)\(stamp) WHERE id = $\(values.count + 1)::uuid", values.map(\.value) + [id])
            }))
        }
    }

    /// `columns` of the rows of `table` with these ids, by id.
    private func currentRows(_ table: String, _ columns: [String], ids: [String]) throws -> [String: [String: String]] {
        connectionLock.lock()
        defer { connectionLock.unlock() }
        var found: [String: [String: String]] = [:]
        let list = "{" + ids.joined(separator: ",") + "}"
        for row in try connection.execute("SELECT id::text, " + columns.joined(separator: ", ") + " FROM \(table) WHERE id = ANY($1::uuid[])", [list]) {
            guard let id = row[0] else { continue }
            var values: [String: String] = [:]
            for (k, column) in columns.enumerated() { if let value = row[k + 1] { values[column] = value } }
            found[id] = values
        }
        return found
    }

    private func index(campaign: String) throws -> FlyrIndex {
        connectionLock.lock()
        defer { connectionLock.unlock() }
        var index = FlyrIndex()
        for row in try connection.execute("SELECT id, house_number, street_name, postal_code FROM campaign_addresses WHERE campaign_id = $1::uuid", [campaign]) {
            index.addAddress(id: row[0]!, house: row[1], street: row[2], postal: row[3])
        }
        for row in try connection.execute("SELECT id, email, phone, full_name FROM contacts WHERE campaign_id = $1::uuid", [campaign]) {
            index.addContact(id: row[0]!, email: row[1], phone: row[2], name: row[3])
        }
        return index
    }

    /// A failure of the database itself (not of a batch's rows) stops the run.
    private func fatal<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PostgresError { throw DestinationError(destination: name, message: error.description) }
    }

    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        connectionLock.lock()
        defer { connectionLock.unlock() }
        var backoff = Backoff(policy: retry)
        // COPY first: it is the fast way in, but it cannot skip rows already there. A batch
        // some of whose ids exist (sent before a crash, its answer never recorded) is written
        // again with INSERT … ON CONFLICT DO NOTHING.
        var copying = true
        while true {
            do {
                try connection.reconnectIfNeeded()
                try write(leads, campaign: scope.campaign, user: scope.user, copying: copying)
                return .rows(leads.map { $0.action == .update ? .updated(remoteID: $0.remoteID ?? $0.flyr.remoteID) : .created(remoteID: $0.remoteID ?? $0.flyr.remoteID) })
            } catch let error as PostgresError {
                _ = try? connection.execute("ROLLBACK")
                if copying && error.code == "23505" && (error.message.contains("_pkey") || error.detail?.hasPrefix("Key (id)") == true) {
                    copying = false
                    continue
                }
                if error.isRowLevel { return .failed(reason: error.description, rowLevel: true) }
                guard error.isTransient, case .retry(let wait) = backoff.failed() else {
                    return .rows(leads.map { _ in .failed(reason: "PostgreSQL: \(error.description)") })
                }
                clock.sleep(wait)
            }
        }
    }

    private func write(_ leads: ArraySlice<OutboundLead>, campaign: String?, user: String, copying: Bool) throws {
        try connection.execute("BEGIN")
        // Indices, not filtered copies of the leads: a copy retains every string of a lead.
        let newAddresses = leads.indices.filter { leads[$0].action == .create && leads[$0].flyr.createsAddress }
        if !newAddresses.isEmpty, let campaign {
            var seq: Int
            if let next = nextSeq[campaign] {
                seq = next
            } else {
                seq = Int(try connection.execute("SELECT coalesce(max(seq), 0) + 1 FROM campaign_addresses WHERE campaign_id = $1::uuid", [campaign]).first?[0] ?? "1") ?? 1
            }
            var rows: [NewAddress] = []
            for k in newAddresses {
                guard let id = leads[k].flyr.addressID, let address = leads[k].flyr.address else { continue }
                rows.append(NewAddress(id: id, campaign: campaign, address: address, seq: seq))
                seq += 1
            }
            nextSeq[campaign] = seq
            try insert(rows, FlyrColumns.newAddress, into: "campaign_addresses", copying: copying)
        }
        let newContacts = leads.indices.filter { leads[$0].action == .create && leads[$0].flyr.createsContact }
        if !newContacts.isEmpty {
            let rows = newContacts.compactMap { k in
                leads[k].flyr.contactID.map { NewContact(id: $0, user: user, contact: leads[k].flyr.contact!, campaign: campaign, addressID: leads[k].flyr.addressID) }
            }
            try insert(rows, FlyrColumns.newContact, into: "contacts", copying: copying)
        }
        // Each part as the policy of `address` says (never: the rows stay); a blank part wipes
        // nothing. An address deleted since it was written is written again under its id.
        let changedAddresses = leads.filter { $0.action == .update && $0.flyr.addressID != nil && $0.flyr.hasAddress }
        if !changedAddresses.isEmpty, policy.addressPolicy != .never {
            var values: [String?] = []
            for lead in changedAddresses { values += [lead.flyr.addressID] + lead.flyr.address!.columns.map(\.value) }
            let columns = changedAddresses[0].flyr.address!.columns.map(\.column)
            let sets = columns.compactMap { column in policy.addressPolicy.sqlAssignment(current: "a." + column, new: "v." + column).map { "\(column) = \($0)" } }
            let updated = Set(try connection.execute(Self.rows("UPDATE campaign_addresses AS a SET " + sets.joined(separator: ", ") + " FROM (VALUES",
                                                               types: ["uuid"] + Array(repeating: "text", count: columns.count), count: changedAddresses.count)
                + ") AS v(id, " + columns.joined(separator: ", ") + ") WHERE a.id = v.id RETURNING a.id::text", values).compactMap { $0[0] })
            // The coordinate (jsonb) in a statement of its own, as the other parts' policy says.
            let located = changedAddresses.filter { updated.contains($0.flyr.addressID!.lowercased()) && $0.flyr.address!.coordinate != nil }
            if !located.isEmpty {
                let value = policy.addressPolicy == .overwrite ? "v.coordinate" : "COALESCE(a.coordinate, v.coordinate)"
                try connection.execute(Self.rows("UPDATE campaign_addresses AS a SET coordinate = " + value + " FROM (VALUES", types: ["uuid", "jsonb"], count: located.count)
                                       + ") AS v(id, coordinate) WHERE a.id = v.id", located.flatMap { [$0.flyr.addressID, $0.flyr.address!.coordinate] })
            }
            let gone = changedAddresses.filter { !updated.contains($0.flyr.addressID!.lowercased()) }
            if !gone.isEmpty, let campaign {
                var seq = Int(try connection.execute("SELECT coalesce(max(seq), 0) + 1 FROM campaign_addresses WHERE campaign_id = $1::uuid", [campaign]).first?[0] ?? "1") ?? 1
                var again: [NewAddress] = []
                for lead in gone {
                    again.append(NewAddress(id: lead.flyr.addressID!, campaign: campaign, address: lead.flyr.address!, seq: seq))
                    seq += 1
                }
                nextSeq[campaign] = seq
                try insert(again, FlyrColumns.newAddress, into: "campaign_addresses", copying: false)
            }
        }
        let changedContacts = leads.filter { $0.action == .update && $0.flyr.contactID != nil && $0.flyr.hasContact }
        if !changedContacts.isEmpty {
            var values: [String?] = []
            for lead in changedContacts {
                values.append(lead.flyr.contactID)
                let contact = lead.flyr.contact!  // once, not once a column
                for field in FlyrColumns.contact { values.append(field.value(contact)) }
            }
            // Each column as the mapping's policy says; a blank value never wipes one.
            let sets = policy.contactColumns.compactMap { column, fieldPolicy in
                fieldPolicy.sqlAssignment(current: "c." + column, new: "v." + column).map { "\(column) = \($0)" }
            }
            let updated = Set(try connection.execute(Self.rows("UPDATE contacts AS c SET " + (sets + ["updated_at = now()"]).joined(separator: ", ") + " FROM (VALUES",
                                                               types: ["uuid"] + FlyrColumns.contact.map { _ in "text" }, count: changedContacts.count)
                + ") AS v(id, " + FlyrColumns.contact.map(\.name).joined(separator: ", ") + ") WHERE c.id = v.id RETURNING c.id::text", values).compactMap { $0[0] })
            // A contact deleted since it was written (in the FLYR app) is written again under its id.
            let gone = changedContacts.filter { !updated.contains($0.flyr.contactID!.lowercased()) }
            if !gone.isEmpty {
                let again = gone.map { NewContact(id: $0.flyr.contactID!, user: user, contact: $0.flyr.contact!, campaign: campaign, addressID: $0.flyr.addressID) }
                try insert(again, FlyrColumns.newContact, into: "contacts", copying: false)
            }
        }
        try connection.execute("COMMIT")
    }

    /// New rows of FLYR's `table`, each of `columns` as the description says: one COPY, or
    /// (`copying` false: some ids may be there already) multi-row INSERTs that skip them.
    private func insert<Row>(_ rows: [Row], _ columns: [FlyrColumns.Column<Row>], into table: String, copying: Bool) throws {
        guard !rows.isEmpty else { return }
        let names = columns.map(\.name).joined(separator: ", ")
        if copying {
            var text = CopyText()
            for row in rows {
                for column in columns { text.value(column.value(row)) }
                text.end()
            }
            return try connection.copy(table, columns: names, rows: text.bytes)
        }
        var values: [String?] = []
        for row in rows {
            for column in columns {
                if case .constant = column.kind { continue }
                values.append(column.value(row))
            }
        }
        try connection.execute(Self.rows("INSERT INTO \(table) (\(names)) VALUES", types: columns.map(\.postgresType), count: rows.count) + " ON CONFLICT (id) DO NOTHING", values)
    }

    /// `head (…),(…),…` for `count` rows: each type is a parameter's cast (`uuid`), "" for a
    /// plain parameter, or a quoted constant written as is.
    static func rows(_ head: String, types: [String], count: Int) -> String {
        var sql = head
        var n = 0
        for r in 0..<count {
            sql += r == 0 ? "(" : ",("
            for (k, type) in types.enumerated() {
                if k > 0 { sql += "," }
                if type.hasPrefix("'") { sql += type; continue }
                n += 1
                sql += "$\(n)" + (type.isEmpty ? "" : "::" + type)
            }
            sql += ")"
        }
        return sql
    }
}
