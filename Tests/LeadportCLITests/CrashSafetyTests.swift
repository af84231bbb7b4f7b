import Foundation
import GRDB
import LeadTesting
import Testing

/// The real binary killed with SIGKILL at random moments of an import, then run again to the
/// end: no lead is created twice and none is lost, whatever the moment.
@Suite(.serialized) struct CrashSafetyTests {
    static let rows = 20_000

    /// Starts `leadport arguments…`, kills it with SIGKILL after `seconds` (if still running),
    /// and waits until it is gone. True when the kill found it running. `environment` is added
    /// to the test's own.
    func kill(after seconds: Double, _ arguments: [String], environment: [String: String] = [:]) throws -> Bool {
        let process = Process()
        process.executableURL = Leadport.binary
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.currentDirectoryURL = Fixture.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: seconds)
        let wasRunning = process.isRunning
        Foundation.kill(process.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(!process.isRunning, "the killed import did not go")
        return wasRunning
    }

    /// Kills an import at `moments`, then runs it to the end; returns the last run's outcomes.
    func killAndResume(_ t: RemoteImport, _ list: URL, to destination: String, moments: [Double]) throws -> [Int: [String]] {
        var killedMidway = 0
        for moment in moments {
            let arguments = ["import", list.path, "--to", destination, "--ledger", t.dir.appendingPathComponent("ledger.db").path,
                             "--campaign", "Spring farm", "--user", TestPostgres.user, "--progress", "none"]
            if try kill(after: moment, arguments) { killedMidway += 1 }
        }
        // Most kills must land during a run, or the test proves little. (A late moment may
        // outlast a resumed run, which passes over what the killed ones delivered.)
        #expect(killedMidway * 2 > moments.count, "only \(killedMidway) of \(moments.count) kills landed during a run")
        let last = try t.run(list, to: destination)
        #expect(last.result.status == 0, "\(last.result.stderr)")
        #expect(last.outcomes.count == Self.rows)
        // Every row is there, created by this run or an earlier (killed) one; nothing failed.
        #expect(last.outcomes.values.allSatisfy { $0[0] == "created" || $0[0] == "unchanged" }, "\(last.outcomes.values.filter { $0[0] != "created" && $0[0] != "unchanged" }.prefix(3))")
        return last.outcomes
    }

    /// Moments spread over the run's length, from a seed printed for a rerun of a failure.
    func moments(count: Int, upTo longest: Double) -> [Double] {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("CrashSafetyTests: kill moments from seed \(seed)")
        var state = seed
        return (0..<count).map { k in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let unit = Double(state >> 11) / Double(1 << 53)
            // One moment in each slice of the run, so early and late kills both happen.
            return 0.05 + (Double(k) + unit) * (longest - 0.05) / Double(count)
        }
    }

    @Test func killedImportsIntoPostgresResumeWithoutDuplicatesOrLosses() throws {
        let db = try TestPostgres()
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: Self.rows)
        _ = try killAndResume(t, list, to: db.url, moments: moments(count: 5, upTo: 3.0))
        #expect(try db.int("SELECT count(*) FROM contacts") == Self.rows)
        #expect(try db.int("SELECT count(DISTINCT email) FROM contacts") == Self.rows)
        #expect(try db.int("SELECT count(*) FROM campaign_addresses") == Self.rows)
        #expect(try db.int("SELECT count(*) FROM campaigns") == 1)
        #expect(try db.int("SELECT count(*) FROM contacts c LEFT JOIN campaign_addresses a ON a.id = c.address_id WHERE a.id IS NULL") == 0)
    }

    @Test func killedImportsIntoTheEmbeddedDatabaseResumeWithoutDuplicatesOrLosses() throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let list = try t.list("leads.csv", count: Self.rows)
        let path = t.dir.appendingPathComponent("leads.db").path
        _ = try killAndResume(t, list, to: "sqlite:" + path, moments: moments(count: 5, upTo: 1.5))
        let db = try DatabaseQueue(path: path)
        let counts = try db.read { db in
            try ["SELECT count(*) FROM contacts", "SELECT count(DISTINCT email) FROM contacts", "SELECT count(*) FROM campaign_addresses",
                 "SELECT count(*) FROM leadport_ledger"].map { try Int.fetchOne(db, sql: $0) ?? -1 }
        }
        #expect(counts == [Self.rows, Self.rows, Self.rows, Self.rows])
    }
}
