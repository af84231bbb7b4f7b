import Foundation
import LeadConnectors
import LeadTesting

/// `--to postgres://…`: a database of its own, reached through fixtures/servers/pg_proxy.py
/// (which can lose the connection either side of a COMMIT) as a role of its own that signs in
/// with a password (scripts/with-postgres asks one of the members of `password_login`).
final class PostgresTarget: ConformanceTarget {
    static let password = "conformance-pw-4e7a"
    let db: TestPostgres
    let proxy: LocalServer
    let role: String
    let proxyPort: Int
    var destination: String {
        var parts = URLComponents(string: db.url)!
        (parts.user, parts.password, parts.port) = (role, Self.password, proxyPort)
        parts.query = "sslmode=disable"
        return parts.string!
    }
    var environment: [String: String] { [:] }
    var section: String { "postgres" }
    var killRows: Int { 20_000 }
    var killSpan: Double { 3.0 }

    static func notApplicable(_ check: ConformanceCase) -> String? {
        check == .retryAfter ? "PostgreSQL has no rate-limit answer to wait out: a server at max_connections refuses the connection (53300), which is the connection case" : nil
    }

    init(_ t: RemoteImport) throws {
        db = try TestPostgres()
        role = "lp_conf_" + db.name.dropFirst(3)
        let server = try PostgresConnection(url: ProcessInfo.processInfo.environment["LEADPORT_TEST_POSTGRES"] ?? "")
        try server.execute("DO $$ BEGIN CREATE ROLE password_login NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        try server.execute("CREATE ROLE \(role) LOGIN PASSWORD '\(Self.password)' IN ROLE password_login")
        try db.connection.execute("GRANT ALL ON SCHEMA public, auth TO \(role)")
        try db.connection.execute("GRANT ALL ON ALL TABLES IN SCHEMA public, auth TO \(role)")
        try db.connection.execute("GRANT ALL ON ALL SEQUENCES IN SCHEMA public, auth TO \(role)")
        // Rows written, counted by a trigger of the suite's own.
        try db.connection.run(script: """
            CREATE TABLE conformance_writes (n integer NOT NULL);
            INSERT INTO conformance_writes VALUES (0);
            CREATE FUNCTION conformance_count() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS
              $$ BEGIN UPDATE conformance_writes SET n = n + 1; RETURN NULL; END $$;
            CREATE TRIGGER conformance_written AFTER INSERT OR UPDATE ON contacts FOR EACH ROW EXECUTE FUNCTION conformance_count();
            """)
        let upstream = URLComponents(string: db.url)!
        proxy = try LocalServer(script: "servers/pg_proxy.py", arguments: ["--upstream", "\(upstream.host ?? "127.0.0.1"):\(upstream.port ?? 5432)"])
        proxyPort = try proxy.control("/_double/stats")["proxy_port"] as? Int ?? 0
    }

    deinit {
        _ = try? db.connection.execute("DROP OWNED BY \(role)")
        _ = try? PostgresConnection(url: ProcessInfo.processInfo.environment["LEADPORT_TEST_POSTGRES"] ?? "").execute("DROP ROLE IF EXISTS \(role)")
    }

    func records() throws -> [ConformanceRecord] { try FlyrRecords.read(db) }

    func writes() throws -> Int { try db.int("SELECT n FROM conformance_writes") }

    func setPhone(_ phone: String?, of email: String) throws { try FlyrRecords.setPhone(phone, of: email, in: db) }

    func inject(_ fault: ConformanceFault) throws {
        switch fault {
        // Three connections lost in a row, each before the server saw its COMMIT.
        case .serverErrors(let statuses): try proxy.control("/_double/faults", ["drop_before_commit": statuses.count])
        case .droppedAfterApply: try proxy.control("/_double/faults", ["drop_after_commit": 1])
        case .dropsAfterApply(let rate, let seed): try proxy.control("/_double/faults", ["drop_rate": rate, "seed": seed])
        case .throttled: break
        case .rateLimited: throw ConformanceError.notInjectable("429")
        }
    }

    /// A lost connection is retried inside the destination, without a `batch` event.
    func injected() throws -> Int? {
        let stats = try proxy.control("/_double/stats")
        return (stats["dropped_before_commit"] as? Int ?? 0) + (stats["dropped_after_commit"] as? Int ?? 0)
    }

    func dropped() throws -> Int? { try proxy.control("/_double/stats")["dropped_after_commit"] as? Int }

    func refuse(email: String) throws -> String { try FlyrRecords.refuse(email: email, in: db) }

    /// The role's password is changed (ALTER ROLE); LeadPort still signs in with the old one.
    func revokeCredential() throws -> (variable: String, secrets: [String]) {
        try db.connection.execute("ALTER ROLE \(role) PASSWORD 'another-pw-0b6d'")
        return ("password authentication failed", [Self.password])
    }

    func restoreCredential() throws { try db.connection.execute("ALTER ROLE \(role) PASSWORD '\(Self.password)'") }
}
