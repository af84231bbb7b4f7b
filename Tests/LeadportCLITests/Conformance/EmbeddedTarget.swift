import Foundation
import GRDB
import LeadStore
import LeadTesting

/// `--to sqlite:PATH`: the embedded database, a file LeadPort opens itself. Its writes are
/// counted by triggers of the suite's own, and a record is refused by a trigger that aborts
/// its insert, as a CHECK constraint would (SQLite cannot add one to a table that exists).
/// Its transient failure, the one a 5xx storm stands for, is a lock another writer holds.
/// Unchecked: the one field another thread writes is behind `lock`.
final class EmbeddedTarget: ConformanceTarget, @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var lockedAgainstARun = false
    var destination: String { "sqlite:" + path }
    var environment: [String: String] { [:] }
    var section: String { "sqlite" }
    var killRows: Int { 20_000 }
    var killSpan: Double { 1.5 }

    static func notApplicable(_ check: ConformanceCase) -> String? {
        switch check {
        case .retryAfter: return "a file on the local disk: nothing answers 429"
        case .droppedAfterApply, .drops: return "no connection to lose; a write applied and not recorded is the SIGKILL case"
        case .credential: return "no credential: the file's permissions are its only access control"
        default: return nil
        }
    }

    init(_ t: RemoteImport) throws {
        path = t.dir.appendingPathComponent("leads.db").path
        // The store's own tables first (as LeadPort makes them), then the suite's counter.
        try LeadStore(path: path).close()
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE conformance_writes (n INTEGER NOT NULL);
                INSERT INTO conformance_writes VALUES (0);
                CREATE TRIGGER conformance_inserted AFTER INSERT ON contacts BEGIN UPDATE conformance_writes SET n = n + 1; END;
                CREATE TRIGGER conformance_updated AFTER UPDATE ON contacts BEGIN UPDATE conformance_writes SET n = n + 1; END;
                """)
        }
    }

    var database: DatabaseQueue { get throws { try DatabaseQueue(path: path) } }

    func records() throws -> [ConformanceRecord] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT email, full_name, phone FROM contacts").map {
                ConformanceRecord(key: ($0["email"] as String? ?? "").lowercased(), fields: ["name": $0["full_name"] ?? "", "phone": $0["phone"] ?? ""])
            }
        }
    }

    func writes() throws -> Int { try database.read { try Int.fetchOne($0, sql: "SELECT n FROM conformance_writes") ?? -1 } }

    func setPhone(_ phone: String?, of email: String) throws {
        try database.write { try $0.execute(sql: "UPDATE contacts SET phone = ? WHERE email = ?", arguments: [phone, email]) }
    }

    /// The storm: another connection holds the file's write lock (BEGIN IMMEDIATE) for 0.7 s
    /// a status, so that LeadPort meets SQLITE_BUSY and must wait it out.
    func inject(_ fault: ConformanceFault) throws {
        switch fault {
        case .serverErrors(let statuses):
            let held = DispatchSemaphore(value: 0)
            let queue = try database
            Thread.detachNewThread { [self] in
                try? queue.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    held.signal()
                    Thread.sleep(forTimeInterval: 0.7 * Double(statuses.count))
                    // A LeadPort run of this file is waiting: it met the lock.
                    let met = Self.running(with: destination)
                    lock.withLock { lockedAgainstARun = met }
                    try db.execute(sql: "COMMIT")
                }
            }
            held.wait()
        // 20,000 rows are enough to kill an unthrottled import midway.
        case .throttled: break
        case .rateLimited, .droppedAfterApply, .dropsAfterApply: throw ConformanceError.notInjectable("\(fault)")
        }
    }

    /// Whether a process whose command line holds `argument` is running (Linux's /proc).
    static func running(with argument: String) -> Bool {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.contains { pid in
            guard Int(pid) != nil, let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            return String(decoding: line, as: UTF8.self).contains(argument)
        }
    }

    /// The three statuses of the storm, when the lock standing for them was held against a run.
    func injected() throws -> Int? { lock.withLock { lockedAgainstARun } ? 3 : 0 }

    func refuse(email: String) throws -> String {
        try database.write { db in
            try db.execute(sql: """
                CREATE TRIGGER conformance_refused BEFORE INSERT ON contacts WHEN NEW.email = '\(email)'
                BEGIN SELECT RAISE(ABORT, 'conformance_refused: this email is not allowed'); END;
                """)
        }
        return "conformance_refused"
    }

    func revokeCredential() throws -> (variable: String, secrets: [String]) { throw ConformanceError.notInjectable("credential") }
    func restoreCredential() throws {}
}

enum ConformanceError: Error {
    /// A fault the target declared not applicable was asked of it.
    case notInjectable(String)
}
