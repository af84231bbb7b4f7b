import Foundation
import LeadConnectors

/// A database of its own for one test, in the PostgreSQL server that `make test` starts
/// (scripts/with-postgres, found through LEADPORT_TEST_POSTGRES), with FLYR's tables from
/// sql/flyr-schema.sql and one user. Dropped when the value goes.
public final class TestPostgres: @unchecked Sendable {
    /// The user whose rows the tests write (in auth.users).
    public static let user = "11111111-2222-4333-8444-555555555555"

    public let url: String
    public let name: String
    public let connection: PostgresConnection
    private let server: String

    public init(schema: Bool = true) throws {
        guard let server = ProcessInfo.processInfo.environment["LEADPORT_TEST_POSTGRES"], !server.isEmpty else {
            throw SetupError(message: "LEADPORT_TEST_POSTGRES is not set: run the tests with `make test`, or under scripts/with-postgres -- swift test")
        }
        self.server = server
        name = "lp_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try PostgresConnection(url: server).execute("CREATE DATABASE \(name)")
        var parts = URLComponents(string: server)!
        parts.path = "/" + name
        url = parts.string!
        connection = try PostgresConnection(url: url)
        if schema {
            try connection.run(script: String(contentsOf: Fixture.root.appendingPathComponent("sql/flyr-schema.sql"), encoding: .utf8))
            try connection.execute("INSERT INTO auth.users (id) VALUES ($1::uuid)", [Self.user])
        }
    }

    deinit {
        _ = try? PostgresConnection(url: server).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The first column of the first row, as an integer (`SELECT count(*) …`).
    public func int(_ sql: String, _ parameters: [String?] = []) throws -> Int {
        let value = try connection.execute(sql, parameters).first?.first ?? nil
        return value.flatMap { Int($0) } ?? -1
    }

    public struct SetupError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
