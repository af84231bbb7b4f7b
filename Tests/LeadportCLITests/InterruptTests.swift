import Foundation
import GRDB
import LeadTesting
import Testing

/// SIGINT and SIGTERM end an import cleanly: what was read is delivered, recorded and
/// reported (the report and the ledger agree), the summary and `run_finished` are written, and
/// the exit status is 128 + the signal's number; the next run sends the rest, nothing twice.
@Suite(.serialized) struct InterruptTests {
    /// Runs `arguments`, sends `signal` once the first row event is out, and returns the exit
    /// status and the events (stderr, `--progress jsonl`).
    private func interrupted(_ arguments: [String], signal: Int32, after marker: String = "\"event\":\"row\"") throws -> (status: Int32, events: [[String: Any]], stderr: String) {
        let process = Process()
        process.executableURL = Leadport.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": "/nonexistent/leadport-tests"]) { $1 }
        process.currentDirectoryURL = Fixture.root
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = Data()
        var signalled = false
        while true {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text.append(chunk)
            if !signalled, String(decoding: text, as: UTF8.self).contains(marker) {
                kill(process.processIdentifier, signal)
                signalled = true
            }
        }
        process.waitUntilExit()
        #expect(signalled, "the run ended before any row event")
        let stderr = String(decoding: text, as: UTF8.self)
        let events = stderr.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        return (process.terminationStatus, events, stderr)
    }

    private func list(in dir: URL, rows: Int) throws -> URL {
        var text = "Name,Email,Phone\n"
        text.reserveCapacity(rows * 48)
        for k in 1...rows { text += "Person \(k) Lee,person\(k)@example.com,617-555-\(String(format: "%04d", k % 10000))\n" }
        let url = dir.appendingPathComponent("leads.csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsTheRunWithEverythingReadAccountedFor(_ signal: Int32) throws {
        let t = try RemoteImport()
        defer { t.remove() }
        let rows = 30_000
        let file = try list(in: t.dir, rows: rows)
        let db = t.dir.appendingPathComponent("leads.db").path
        let report = t.dir.appendingPathComponent("report.csv")
        let arguments = ["import", file.path, "--to", "sqlite:" + db, "--progress", "jsonl", "--report", report.path]
        let run = try interrupted(arguments, signal: signal)
        #expect(run.status == 128 + signal, "\(run.stderr.suffix(600))")
        let finished = try #require(run.events.first { $0["event"] as? String == "run_finished" }, "no run_finished")
        let created = try #require(finished["created"] as? Int)
        #expect(created > 0 && created < rows, "created \(created) of \(rows): the signal came too late to test anything")
        #expect(run.stderr.contains("interrupted (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))"))
        // The report, the events and the database agree row for row.
        let reported = try CSVRows.read(report).dropFirst()
        #expect(reported.count == finished["rows"] as? Int)
        #expect(reported.filter { $0[4] == "created" }.count == created)
        #expect(run.events.filter { $0["event"] as? String == "row" }.count == reported.count)
        let (contacts, ledger) = try DatabaseQueue(path: db).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM leadport_ledger")!)
        }
        #expect(contacts == created && ledger == created, "contacts \(contacts), ledger \(ledger), report \(created)")
        // The next run sends the rest, and nothing twice.
        let rest = try Leadport.run(arguments)
        #expect(rest.status == 0, "\(rest.stderr.suffix(600))")
        let after = try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts")! }
        #expect(after == rows)
    }

    /// A slow destination (a hook answering after 0.2 s, one row a request): the signal stops
    /// the sending too, within seconds, instead of after every row already read was sent; the
    /// rows not sent are pending in the report, the rest recorded, and the exit is 130.
    @Test func aSignalStopsSendingToASlowDestinationWithinSeconds() throws {
        let server = try LocalServer(script: "servers/scripted_http.py")
        let t = try RemoteImport()
        defer { t.remove() }
        let file = try list(in: t.dir, rows: 300)
        let report = t.dir.appendingPathComponent("report.csv")
        let started = Date()
        let run = try interrupted(["import", file.path, "--to", "webhook:" + server.url("/slow?seconds=0.2").absoluteString, "--ledger", t.dir.appendingPathComponent("l.db").path,
                                   "--progress", "jsonl", "--report", report.path], signal: SIGINT, after: "\"event\":\"batch\"")
        #expect(Date().timeIntervalSince(started) < 30, "the run went on sending after the signal")
        #expect(run.status == 130, "\(run.stderr.suffix(600))")
        #expect(run.events.contains { $0["event"] as? String == "run_finished" })
        let reported = try CSVRows.read(report).dropFirst()
        let created = reported.filter { $0[4] == "created" }.count, pending = reported.filter { $0[4] == "pending" }.count
        #expect(created > 0 && pending > 0 && created + pending == reported.count, "created \(created), pending \(pending) of \(reported.count)")
    }
}
