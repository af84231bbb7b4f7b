import Foundation
import LeadTesting

/// `--to supabase` against fixtures/servers/postgrest_double.py over a database of its own.
final class SupabaseTarget: ConformanceTarget {
    let db: TestPostgres
    let double: LocalServer
    let key: String
    var revoked = false
    /// A service-role key signed with another project's secret, as one from a rotated JWT
    /// secret would be.
    static let rotatedKey = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.rotated-away-signature-3f9c"
    var destination: String { "supabase" }
    var environment: [String: String] { ["SUPABASE_URL": double.url("").absoluteString, "SUPABASE_SERVICE_ROLE_KEY": revoked ? Self.rotatedKey : key] }
    var section: String { "supabase" }
    var killSpan: Double { 3.0 }
    /// A changed lead is upserted in both of FLYR's tables, campaign_addresses then contacts,
    /// one request each (the ledger's hash covers both, so it cannot tell which part changed).
    var writesForOneUpdate: Int { 2 }

    init(_ t: RemoteImport) throws {
        db = try TestPostgres()
        double = try LocalServer(script: "servers/postgrest_double.py", arguments: ["--db", db.url])
        let data = try Data(contentsOf: double.url("/_double/token?role=service_role"))
        key = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String ?? ""
    }

    func records() throws -> [ConformanceRecord] { try FlyrRecords.read(db) }

    func writes() throws -> Int { try double.control("/_double/stats")["writes"] as? Int ?? -1 }

    func setPhone(_ phone: String?, of email: String) throws { try FlyrRecords.setPhone(phone, of: email, in: db) }

    func inject(_ fault: ConformanceFault) throws {
        switch fault {
        case .rateLimited(let seconds): try double.control("/_double/faults", ["statuses": [[429, "\(seconds)"]]])
        case .serverErrors(let statuses): try double.control("/_double/faults", ["statuses": statuses.map { [$0, NSNull()] }])
        case .droppedAfterApply: try double.control("/_double/faults", ["drop_after_commit": 1])
        case .dropsAfterApply(let rate, let seed): try double.control("/_double/faults", ["drop_rate": rate, "seed": seed])
        // Two writes a batch of 500, a second each: 2,000 rows take some 8 s.
        case .throttled: try double.control("/_double/config", ["write_delay": 1.0])
        }
    }

    func dropped() throws -> Int? { try double.control("/_double/stats")["dropped"] as? Int }

    func refuse(email: String) throws -> String { try FlyrRecords.refuse(email: email, in: db) }

    func revokeCredential() throws -> (variable: String, secrets: [String]) {
        revoked = true
        return ("SUPABASE_SERVICE_ROLE_KEY", ["rotated-away-signature-3f9c", key])
    }

    func restoreCredential() throws { revoked = false }
}

/// What PostgreSQL and Supabase hold, read and changed in FLYR's tables.
enum FlyrRecords {
    static func read(_ db: TestPostgres) throws -> [ConformanceRecord] {
        try db.connection.execute("SELECT email, full_name, phone FROM contacts").map {
            ConformanceRecord(key: ($0[0] ?? "").lowercased(), fields: ["name": $0[1] ?? "", "phone": $0[2] ?? ""])
        }
    }

    static func setPhone(_ phone: String?, of email: String, in db: TestPostgres) throws {
        try db.connection.execute("UPDATE contacts SET phone = $1 WHERE email = $2", [phone, email])
    }

    /// A CHECK constraint of the user's that one email breaks.
    static func refuse(email: String, in db: TestPostgres) throws -> String {
        try db.connection.execute("ALTER TABLE contacts ADD CONSTRAINT conformance_refused CHECK (email IS DISTINCT FROM '\(email)')")
        return "conformance_refused"
    }
}
