import Foundation
import LeadCore
import LeadEngine
import LeadStore
import LeadSync
import Testing

/// A job's runs against the embedded SQLite destination in a temporary folder: its lock, what
/// it reads again, and its state.
@Suite struct SyncJobTests {
    let dir: URL
    let events = Events()

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-syncjob-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws { try text.write(toFile: path(name), atomically: true, encoding: .utf8) }

    /// Progress events and warnings, as a job's reporter and `warn` get them.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [ProgressEvent] = []
        var warnings: [String] = []

        func add(_ event: ProgressEvent) { lock.withLock { seen.append(event) } }

        /// The row events since the last call, as (file name, outcome).
        func takeRows() -> [(String, Outcome)] {
            lock.withLock {
                defer { seen = [] }
                return seen.compactMap { if case .row(let r) = $0 { return ((r.location.file as NSString).lastPathComponent, r.outcome) } else { return nil } }
            }
        }
    }

    /// The job `inbox`, from its files into `out.db`; `extra`: more of its settings, a line each.
    func job(_ extra: String = "") throws -> SyncJob {
        try write("sync.yaml", """
            ledger: ledger.db
            jobs:
              - name: inbox
                source:
                  files: "inbox/*.csv"
                to: [sqlite:out.db]

            """ + extra.split(separator: "\n").map { "    " + $0 + "\n" }.joined())
        let configuration = try SyncConfig.load(path: path("sync.yaml"))
        let events = self.events
        let context = SyncJob.Context(build: "tests", countsRows: false, reporter: { log, _ in { event in
            log.write("event\n")
            events.add(event)
        } }, warn: { events.warnings.append($0) })
        return SyncJob(job: configuration.jobs[0], configuration: configuration, context: context)
    }

    /// A job's phone region is one libphonenumber knows, or the configuration is refused at
    /// its line (an unknown one would make every phone written without `+` "not a phone number").
    @Test func aJobsRegionIsAPhoneRegion() throws {
        #expect(try job("region: ca").job.region == "ca")
        #expect {
            _ = try job("region: USA")
        } throws: { error in
            let text = "\(error)"
            return text.contains("\"USA\" is not a phone region") && text.contains("sync.yaml:7:")
        }
    }

    @Test func aJobSendsOnlyTheFilesThatChangedAndRecordsEachRun() throws {
        try write("inbox/a.csv", "Name,Email\nAnn Lee,ann@example.com\nBo Diaz,bo@example.com\n")
        try write("inbox/b.csv", "Name,Email\nCy Young,cy@example.com\n")
        let job = try job()
        let first = job.run()
        #expect(first.status == 0 && first.message == nil, "\(String(describing: first.message))")
        #expect(first.destinations.first?.counts[.created] == 3, "\(first.destinations)")
        #expect(events.takeRows().count == 3)
        #expect(FileManager.default.fileExists(atPath: path("logs/inbox/events.log")))

        try write("inbox/a.csv", "Name,Email\nAnn Lee,ann@example.com\nBo Diaz,bo@example.com\nEd Wu,ed@example.com\n")
        let second = job.run()
        #expect(second.status == 0)
        let rows = events.takeRows()
        #expect(rows.map(\.0) == ["a.csv", "a.csv", "a.csv"], "b.csv was read again: \(rows)")
        #expect(rows.map(\.1) == [.unchanged, .unchanged, .created])

        let third = job.run()
        #expect(third.status == 0 && third.runID != nil && events.takeRows().isEmpty, "nothing changed, nothing read")

        let store = try LeadStore(path: path("ledger.db"))
        defer { try? store.close() }
        #expect(try store.syncRuns(job: "inbox", limit: 10).count == 3)
        #expect(try store.syncState(job: "inbox").keys.sorted() == ["file:" + path("inbox/a.csv"), "file:" + path("inbox/b.csv")])
    }

    @Test func aSecondRunOfALockedJobDoesNothingAndSaysWhoHoldsIt() throws {
        try write("inbox/a.csv", "Name,Email\nAnn Lee,ann@example.com\n")
        let job = try job()
        let lockPath = JobLock.path(ledger: path("ledger.db"), job: "inbox")
        let held = try #require(try JobLock(path: lockPath))
        #expect(JobLock.isHeld(path: lockPath))
        #expect(try JobLock(path: lockPath) == nil)
        let blocked = job.run()
        #expect(blocked.status == ExitStatus.alreadyRunning, "\(String(describing: blocked.message))")
        #expect(blocked.message?.contains("already running (pid \(getpid())") == true, "\(String(describing: blocked.message))")
        #expect(events.takeRows().isEmpty && !FileManager.default.fileExists(atPath: path("out.db")))
        held.release()
        #expect(!JobLock.isHeld(path: lockPath))
        #expect(job.run().status == 0 && events.takeRows().count == 1)
    }

    @Test func aJobWhoseImportCannotRunIsAUsageErrorRecordedForStatus() throws {
        try write("inbox/a.csv", "Name,Email\nAnn Lee,ann@example.com\n")
        let result = try job("mapping: missing.yaml").run()
        #expect(result.status != 0 && result.message != nil)
        let store = try LeadStore(path: path("ledger.db"))
        defer { try? store.close() }
        #expect(try store.syncRuns(job: "inbox", limit: 1).first?.stopped == result.message)
    }

    @Test func theLogRotatesPastItsLimit() throws {
        let log = try RotatingLog(path: path("events.log"), limit: 100)
        for n in 0..<12 { log.write(String(repeating: "x", count: 20) + "\(n)\n") }
        log.close()
        let current = try String(contentsOfFile: path("events.log"), encoding: .utf8)
        #expect(current.utf8.count <= 100 && current.hasSuffix("11\n"))
        #expect(FileManager.default.fileExists(atPath: path("events.log.1")) && FileManager.default.fileExists(atPath: path("events.log.2")))
    }
}
