import Foundation
import GRDB
import LeadTesting
import Testing

/// The real binary killed with SIGKILL at random moments of an import, then run again to the
/// end: no lead is created twice and none is lost, whatever the moment.
@Suite(.serialized) struct CrashSafetyTests {
    static let rows = 20_000

    /// Kills an import at `moments`, then runs it to the end; returns the last run's outcomes.
    func killAndResume(_ t: RemoteImport, _ list: URL, to destination: String, moments: [Double]) throws -> [Int: [String]] {
        var killedMidway = 0
        for moment in moments {
            let arguments = ["import", list.path, "--to", destination, "--ledger", t.dir.appendingPathComponent("ledger.db").path,
                             "--campaign", "Spring farm", "--user", TestPostgres.user, "--progress", "none"]
            if try Leadport.kill(after: moment, arguments) { killedMidway += 1 }
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
        return Leadport.killMoments(count: count, upTo: longest, seed: seed)
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
