import Foundation
import HTTPKit
import LeadCore

/// Where and as whom `--to supabase` writes, from the environment:
///
/// | variable | meaning |
/// | --- | --- |
/// | `SUPABASE_URL` | the project's URL, `https://<ref>.supabase.co` (or a test server's) |
/// | `SUPABASE_SERVICE_ROLE_KEY` | the service-role key (or an `sb_secret_…` key): sent as `apikey` and as the bearer token; RLS does not apply |
/// | `SUPABASE_ACCESS_TOKEN` | instead, a signed-in user's JWT: sent as the bearer token, so RLS applies and the rows are the user's |
/// | `SUPABASE_ANON_KEY` | the project's anon or publishable key, sent as `apikey` with a user's token |
public struct SupabaseConfig: Sendable {
    public var url: URL
    public var apiKey: String
    public var bearer: String
    /// The user the token belongs to (its `sub` claim), for a user's token.
    public var userID: String?

    public init(url: URL, apiKey: String, bearer: String) {
        (self.url, self.apiKey, self.bearer) = (url, apiKey, bearer)
        userID = Self.claims(bearer)["sub"] as? String
        if (Self.claims(bearer)["role"] as? String) == "service_role" { userID = nil }
    }

    public init(environment: [String: String]) throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let address = value("SUPABASE_URL") else {
            throw DestinationError(destination: "supabase", message: "set SUPABASE_URL to the project's URL (https://<ref>.supabase.co)")
        }
        guard let url = URL(string: address), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw DestinationError(destination: "supabase", message: "SUPABASE_URL is not an http(s) URL")
        }
        if let key = value("SUPABASE_SERVICE_ROLE_KEY") {
            self.init(url: url, apiKey: key, bearer: key)
        } else if let token = value("SUPABASE_ACCESS_TOKEN") {
            guard let anon = value("SUPABASE_ANON_KEY") else {
                throw DestinationError(destination: "supabase", message: "with SUPABASE_ACCESS_TOKEN (a user's token), also set SUPABASE_ANON_KEY (the project's anon or publishable key)")
            }
            self.init(url: url, apiKey: anon, bearer: token)
            guard userID != nil else {
                throw DestinationError(destination: "supabase", message: "SUPABASE_ACCESS_TOKEN is not a signed-in user's token (it has no user id)")
            }
        } else {
            throw DestinationError(destination: "supabase", message: "set SUPABASE_SERVICE_ROLE_KEY, or SUPABASE_ACCESS_TOKEN and SUPABASE_ANON_KEY for a user's own rows")
        }
    }

    public var auth: Auth { Auth(.apiKey(header: "apikey", value: apiKey), .bearer(bearer)) }

    /// A JWT's claims, unverified (the server verifies it; we only read whose it is).
    static func claims(_ token: String) -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return [:] }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}

/// `--to supabase`: FLYR's tables through the project's REST API (PostgREST).
///
/// Rows go as JSON arrays of up to 500 (`Prefer: return=minimal`): new rows with
/// `resolution=ignore-duplicates` (their ids are fixed by the lead, so a batch sent again after
/// a lost answer or a crash adds nothing; the requests are therefore replayable), changed rows
/// with `resolution=merge-duplicates`. PostgREST runs a request as one statement, so one bad
/// row fails the batch: its `{code, message, details, hint}` is the row's reason once
/// `BatchSplitter` has narrowed the batch down to it.
public final class SupabaseDestination: Destination {
    /// Supabase publishes no request budget for its REST API; 50 a second keeps well inside
    /// what a project's API gateway takes, and 500 rows a request stays inside the 8-second
    /// statement timeout (crm-apis.md §4.4).
    public static let capabilities = DestinationCapabilities(largestBatch: 500, requests: 50, per: 1, upserts: true)

    public let name: String
    public let ledgerName: String
    public var capabilities: DestinationCapabilities { Self.capabilities }
    public let reconciliation = Reconciliation.resend(how: "the rows' ids are fixed by the lead and the campaign, and a batch sent again is inserted with resolution=ignore-duplicates")
    public let config: SupabaseConfig
    public var credentialsUser: (id: String, setting: String)? { config.userID.map { ($0, "SUPABASE_ACCESS_TOKEN") } }
    public var encoder: @Sendable (Lead) -> Encoded { FlyrRows.encoder(scope) }
    private let client: HTTPClient
    private let rest: URL
    private lazy var planner = FlyrPlanner(ledgerName: ledgerName, load: { [unowned self] campaign in try self.index(campaign: campaign) },
                                           read: { [unowned self] table, columns, ids in try self.currentRows(table, columns, ids: ids) })
    private var nextSeq: [String: Int] = [:]
    /// Set by `configure`, before the rows.
    var policy = DestinationPolicy()
    /// Seconds for one whole request (docs/http.md: a dropped kept-alive connection costs this).
    private let timeout: Double

    public init(config: SupabaseConfig, client: HTTPClient, timeout: Double = 30) throws {
        self.config = config
        self.client = client
        self.timeout = timeout
        rest = config.url.appendingPathComponent("rest/v1")
        var origin = URLComponents(url: config.url, resolvingAgainstBaseURL: false) ?? URLComponents()
        origin.path = ""
        origin.query = nil
        name = "supabase:" + (origin.string ?? config.url.absoluteString)
        ledgerName = name
    }

    // MARK: Requests

    /// A PostgREST answer other than 2xx: its error object, and whether the rows caused it.
    struct Refusal: Error {
        var status: Int
        var code: String?
        var text: String
        var rowLevel: Bool { code.map { $0.hasPrefix("22") || $0.hasPrefix("23") } ?? false }
    }

    func request(_ method: String, _ table: String, query: [(String, String)] = [], prefer: [String] = [], body: String? = nil) throws -> HTTPResponse {
        var parts = URLComponents(url: rest.appendingPathComponent(table), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { parts.percentEncodedQuery = query.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&") }
        var headers = HTTPHeaders([("Accept", "application/json")])
        if body != nil { headers.add("Content-Type", "application/json") }
        if !prefer.isEmpty { headers.add("Prefer", prefer.joined(separator: ",")) }
        // Every write here is an idempotent upsert or a read: safe to send again.
        let response = try client.send(HTTPRequest(method: method, url: parts.url!, headers: headers, body: body.map { Data($0.utf8) }, replayable: true, timeout: timeout))
        guard (200..<300).contains(response.status) else { throw Self.refusal(response) }
        return response
    }

    static func refusal(_ response: HTTPResponse) -> Refusal {
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        let code = object["code"].map { "\($0)" }
        var text = (object["message"] as? String) ?? (object["msg"] as? String) ?? String(response.text.prefix(200))
        if let details = object["details"] as? String, !details.isEmpty { text += " (\(details))" }
        if let hint = object["hint"] as? String, !hint.isEmpty { text += "; hint: \(hint)" }
        return Refusal(status: response.status, code: code, text: "\(response.status)\(code.map { " " + $0 } ?? ""): \(text)")
    }

    /// A query value: everything but unreserved characters and PostgREST's own punctuation
    /// percent-encoded.
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,()*:")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    func rows(_ response: HTTPResponse) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] ?? []
    }

    /// Anything but a refusal of the rows stops the run: wrong key, missing table, RLS.
    func fatal<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as Refusal {
            var message = refusal.text
            if refusal.status == 401 { message += " — check SUPABASE_SERVICE_ROLE_KEY or SUPABASE_ACCESS_TOKEN" }
            if refusal.code == "42501" { message += " — a user's token may write only that user's rows" }
            if refusal.code == "42P01" || refusal.code == "PGRST205" { message += " — the project has no such table; create FLYR's tables with sql/flyr-schema.sql" }
            throw DestinationError(destination: name, message: message)
        } catch let error as HTTPTransportError {
            throw DestinationError(destination: name, message: "no answer from \(config.url.host ?? "the server"): \(error)")
        }
    }

    // MARK: Destination

    /// The run's campaign and whose its rows are (`FlyrScope`), kept for every batch after.
    private var scope = FlyrScope()

    public func enter(_ given: RunScope) throws -> Scope {
        scope = try FlyrScope(given, destination: name) { try campaign($0, owner: $1, create: $2) }
        return scope.answer
    }

    /// The campaign `reference` names, as at every FLYR destination (`PostgresDestination.campaign`).
    public func campaign(_ reference: String, owner: String?, create: Bool) throws -> CampaignMatch? {
        try fatal {
            // An id is the campaign's whoever owns it (the service role sees every campaign; a
            // user's token, under row-level security, only that user's); a name is the owner's.
            var query = [("select", "id,owner_id")]
            if CampaignMatch.isID(reference) {
                query += [("id", "eq." + reference), ("limit", "1")]
            } else {
                query += [("name", "eq." + reference), ("order", "created_at"), ("limit", "2")]
                if let owner { query.append(("owner_id", "eq." + owner)) }
            }
            let found = try rows(request("GET", "campaigns", query: query)).compactMap { row in
                (row["id"] as? String).map { CampaignMatch(id: $0, owner: row["owner_id"] as? String) }
            }
            if found.count > 1 { throw AmbiguousCampaign(name: reference, ids: found.map(\.id)) }
            if let match = found.first { return match }
            guard create, !CampaignMatch.isID(reference) else { return nil }
            guard let owner else {
                throw DestinationError(destination: name, message: "no campaign is named \"\(reference)\"; to create it, give its owner, a FLYR user's id, with --user")
            }
            // Its id is fixed by the owner and the name, so that creating it twice (a lost
            // answer, sent again) makes one campaign.
            let id = FlyrID.stable(ledgerName, "campaign", owner, reference)
            var o = JSONObject()
            o.set("id", id)
            o.set("owner_id", owner)
            o.set("name", reference)
            o.set("type", "flyer")
            o.set("address_source", "import_list")
            o.set("status", "draft")
            _ = try request("POST", "campaigns", query: [("on_conflict", "id")], prefer: ["return=minimal", "resolution=ignore-duplicates"], body: o.text)
            return CampaignMatch(id: id, owner: owner)
        }
    }

    public func prepare(_ leads: inout [OutboundLead]) throws {
        try fatal { try planner.prepare(&leads, campaign: scope.campaign, policy: policy) }
    }

    /// The campaign's rows, a page of 1,000 at a time (PostgREST's usual `max_rows`).
    private func index(campaign: String) throws -> FlyrIndex {
        var index = FlyrIndex()
        for (table, columns) in [("campaign_addresses", "id,house_number,street_name,postal_code"), ("contacts", "id,email,phone,full_name")] {
            var offset = 0
            while true {
                let page = try rows(request("GET", table, query: [("select", columns), ("campaign_id", "eq." + campaign), ("order", "id"),
                                                                  ("limit", "1000"), ("offset", String(offset))]))
                for row in page {
                    guard let id = row["id"] as? String else { continue }
                    if table == "contacts" {
                        index.addContact(id: id, email: row["email"] as? String, phone: row["phone"] as? String, name: row["full_name"] as? String)
                    } else {
                        index.addAddress(id: id, house: row["house_number"] as? String, street: row["street_name"] as? String, postal: row["postal_code"] as? String)
                    }
                }
                if page.count < 1000 { break }
                offset += page.count
            }
        }
        return index
    }

    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        do {
            try fatalUnlessRows { try write(leads, campaign: scope.campaign, user: scope.user) }
            return .rows(leads.map { $0.action == .update ? .updated(remoteID: $0.remoteID ?? $0.flyr.remoteID) : .created(remoteID: $0.remoteID ?? $0.flyr.remoteID) })
        } catch let refusal as Refusal where refusal.rowLevel {
            return .failed(reason: refusal.text, rowLevel: true)
        } catch let refusal as Refusal {
            // 429 or 5xx that outlasted the retries: not delivered; a rerun sends them again.
            return .rows(leads.map { _ in .failed(reason: "Supabase answered \(refusal.text)") })
        } catch HTTPTransportError.unreachable(_, let reason) {
            throw DestinationError(destination: name, message: "\(config.url.host ?? "the server") cannot be reached (\(reason)); what was not sent goes with the next run")
        } catch let down as FailFast.Unavailable {
            throw DestinationError(destination: name, message: down.description)
        } catch let error as HTTPTransportError {
            return .rows(leads.map { _ in .failed(reason: "no answer from Supabase: \(error)") })
        }
    }

    /// Refusals of the rows, and failures worth a rerun (429, 5xx, no answer), go back to
    /// `send`; the rest stop the run.
    private func fatalUnlessRows(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let refusal as Refusal where !refusal.rowLevel && refusal.status != 429 && refusal.status < 500 {
            try fatal { throw refusal }
        }
    }

    private func write(_ leads: ArraySlice<OutboundLead>, campaign: String?, user: String) throws {
        let newAddresses = leads.filter { $0.action == .create && $0.flyr.createsAddress }
        if !newAddresses.isEmpty, let campaign {
            var seq = try nextSeq[campaign] ?? {
                let last = try rows(request("GET", "campaign_addresses", query: [("select", "seq"), ("campaign_id", "eq." + campaign), ("seq", "not.is.null"),
                                                                                  ("order", "seq.desc"), ("limit", "1")]))
                return ((last.first?["seq"] as? Int) ?? 0) + 1
            }()
            var added: [NewAddress] = []
            for lead in newAddresses {
                guard let id = lead.flyr.addressID, let address = lead.flyr.address else { continue }
                added.append(NewAddress(id: id, campaign: campaign, address: address, seq: seq))
                seq += 1
            }
            nextSeq[campaign] = seq
            try insert(added, FlyrColumns.newAddress, into: "campaign_addresses")
        }
        let newContacts = leads.filter { $0.action == .create && $0.flyr.createsContact }
        if !newContacts.isEmpty {
            let added = newContacts.compactMap { lead in
                lead.flyr.contactID.map { NewContact(id: $0, user: user, contact: lead.flyr.contact!, campaign: campaign, addressID: lead.flyr.addressID) }
            }
            try insert(added, FlyrColumns.newContact, into: "contacts")
        }
        let changedAddresses = leads.filter { $0.action == .update && $0.flyr.addressID != nil && $0.flyr.hasAddress }
        if !changedAddresses.isEmpty, let campaign { try update(addresses: changedAddresses, campaign: campaign) }
        let changedContacts = leads.filter { $0.action == .update && $0.flyr.contactID != nil && $0.flyr.hasContact }
        if !changedContacts.isEmpty { try update(changedContacts, user: user) }
    }

    /// One bulk upsert on the primary key: new rows are skipped when there already
    /// (`ignore-duplicates`), changed rows overwrite the columns sent (`merge-duplicates`).
    func insert(_ table: String, columns: String, body: String, merge: Bool) throws {
        _ = try request("POST", table, query: [("columns", columns), ("on_conflict", "id")],
                        prefer: ["return=minimal", merge ? "resolution=merge-duplicates" : "resolution=ignore-duplicates"], body: body)
    }

    /// New rows of FLYR's `table` as one JSON array, each of `columns` as the description says
    /// (a JSON column without a value left out, for the table's default).
    func insert<Row>(_ rows: [Row], _ columns: [FlyrColumns.Column<Row>], into table: String) throws {
        let body = "[" + rows.map { row in
            var o = JSONObject()
            for column in columns {
                let value = column.value(row)
                switch column.kind {
                case .json: if let value { o.set(column.name, json: value) }
                case .integer: o.set(column.name, value.flatMap { Int($0) })
                case .text, .uuid, .constant: o.set(column.name, value)
                }
            }
            return o.text
        }.joined(separator: ",") + "]"
        try insert(table, columns: columns.map(\.name).joined(separator: ","), body: body, merge: false)
    }
}
