import Foundation
import LeadTesting
import Testing

/// `--to monday` beyond the conformance suite, the real binary against
/// fixtures/servers/monday_double.py: a bad night, the shipped presets, another board and
/// dedupe column from the mapping, a row that cannot be found again.
@Suite(.serialized) struct MondayDestinationTests {
    static let token = "monday-test-token-7f3e9a"
    let double: LocalServer
    let t: RemoteImport

    init() throws {
        double = try LocalServer(script: "servers/monday_double.py", arguments: ["--lifetime", "900", "--token", Self.token])
        t = try RemoteImport()
    }

    var environment: [String: String] {
        ["MONDAY_TOKEN": Self.token, "MONDAY_BOARD_ID": "1234567890", "MONDAY_BASE_URL": "http://127.0.0.1:\(double.port)"]
    }

    func run(_ list: URL, extra: [String] = []) throws -> (result: Leadport.Result, outcomes: [Int: [String]]) {
        try t.run(list, to: "monday", campaign: nil, user: nil, extra: extra, environment: environment)
    }

    /// The items of a board, each as its name and its columns' texts by column id.
    func items(board: String = "1234567890") throws -> [(name: String, texts: [String: String])] {
        let boards = try double.control("/_double/state")["boards"] as? [[String: Any]] ?? []
        let items = boards.first { $0["id"] as? String == board }?["items"] as? [[String: Any]] ?? []
        return items.map { item in
            let values = item["column_values"] as? [String: [String: Any]] ?? [:]
            return (item["name"] as? String ?? "", values.compactMapValues { $0["text"] as? String })
        }
    }

    func stats() throws -> [String: Any] { try double.control("/_double/stats") }

    /// One run of 1,000 rows through every fault at once: 3 % of requests answered 5xx before
    /// anything is done (500, 502, 503, 504 in turn), 2 % of applied writes whose connection
    /// is then closed unanswered, 2 % of requests answered 429 (every other one without
    /// Retry-After), and the complexity budget exhausted for a minute from the 300th request.
    /// The run ends with every row `created` and every item held once.
    @Test func aBadNightDeliversEveryRowExactlyOnce() throws {
        defer { t.remove() }
        let rows = 1_000
        try double.control("/_double/faults", ["error_rate": 0.03, "drop_rate": 0.02, "limited_rate": 0.02, "seed": 24, "exhaust": 60, "exhaust_after": 300])
        let started = Date()
        let run = try run(try t.list("leads.csv", count: rows))
        let seconds = Date().timeIntervalSince(started)
        #expect(run.result.status == 0, "\(run.result.stderr.suffix(2000))")
        #expect(run.outcomes.count == rows, "\(run.outcomes.count) outcomes")
        #expect(RemoteImport.count(run.outcomes, "created") == rows, "\(run.outcomes.values.filter { $0[0] != "created" }.prefix(3))")
        let held = Dictionary(grouping: try items(), by: { $0.texts["email_mk1a"] ?? "" })
        #expect(Set(held.keys) == Set((1...rows).map { "person\($0)@example.com" }))
        let twice = held.filter { $0.value.count > 1 }.keys.sorted()
        #expect(twice.isEmpty, "held twice: \(twice.prefix(5))")
        // The report's ids are the items'.
        let ids = Set(run.outcomes.values.map { $0[2] })
        #expect(ids.count == rows)
        let stats = try stats()
        let (dropped, injected, exhausted, limited) = (stats["dropped"] as? Int ?? 0, stats["injected"] as? Int ?? 0, stats["exhausted"] as? Int ?? 0, stats["limited"] as? Int ?? 0)
        print("Monday bad night: \(rows) rows in \(String(format: "%.1f", seconds)) s; \(injected) faults served (\(limited) 429s), \(dropped) writes dropped after apply, "
              + "\(exhausted) budget refusals; \(twice.count) held twice")
        #expect(dropped >= 5 && injected >= 20 && limited >= 5 && exhausted >= 1, "\(stats)")
        // The exhausted minute was waited out, not failed through.
        #expect(seconds >= 55)
        let waits = Conformance.retries(run.result.stderr).compactMap { $0["retry_after"] as? Double }
        #expect(waits.contains { $0 >= 50 }, "\(waits)")
    }

    /// Each shipped preset's list reaches the board with nothing refused: every row is an item,
    /// or, where the list has no email (owner lists), rejected with what to do.
    @Test func everyPresetProducesWhatTheBoardAccepts() throws {
        defer { t.remove() }
        for (n, list) in PresetDefaultSchemaTests.lists.enumerated() {
            let report = t.dir.appendingPathComponent("report-\(n).csv")
            let result = try Leadport.run(["import", list.file, "--preset", list.preset, "--to", "monday", "--campaign", "Preset check", "--ledger", t.dir.appendingPathComponent("ledger-\(n).db").path,
                                           "--report", report.path, "--progress", "jsonl"], environment: environment)
            #expect(result.status == 0 || result.status == 3, "\(list.preset): \(result.stderr.suffix(1500))")
            let cells = try CSVRows.read(report).dropFirst()
            #expect(!cells.isEmpty)
            for row in cells where row[4] != "created" {
                let noEmail = row[4] == "rejected" && row[6].contains("no email for the column \"Email\"") && row[6].contains("dedupe_column")
                let ruled = row[4] == "rejected" || row[4] == "skipped"
                #expect(noEmail || (ruled && !row[6].contains("monday")), "\(list.preset) \(list.file) row \(row[2]): \(row[4]) \(row[6])")
            }
        }
        let codes = try stats()["by_code"] as? [String: Int] ?? [:]
        #expect(codes.isEmpty, "the board refused: \(codes)")
        // FLYR's statuses became the status column's labels.
        #expect(try items().contains { $0.texts["status"] == "hot" })
    }

    /// `destinations.monday` names another board, its columns by title and by id, and dedupes
    /// by phone: a rerun from another ledger finds every item by its phone.
    @Test func aMappingNamesAnotherBoardItsColumnsAndTheDedupeColumn() throws {
        defer { t.remove() }
        let mapping = t.dir.appendingPathComponent("mapping.yaml")
        try """
            columns: {Name: full_name, Email: email, Phone: phone, Address: address, City: city, State: state, Zip: zip}
            destinations:
              monday: {board: 2222222222, columns: {email: Work email, phone: phone_b2}, dedupe_column: phone}
            """.write(to: mapping, atomically: true, encoding: .utf8)
        let list = try t.list("leads.csv", count: 30) { k, cells in if k == 7 { cells[1] = "" } }
        let first = try run(list, extra: ["--mapping", mapping.path])
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(RemoteImport.count(first.outcomes, "created") == 30)
        let held = try items(board: "2222222222")
        #expect(held.count == 30 && held.allSatisfy { $0.texts["phone_b2"]?.hasPrefix("+1617555") == true }, "\(held.prefix(2))")
        #expect(try items().isEmpty, "the default board was written")
        let again = try t.run(list, to: "monday", campaign: nil, user: nil, extra: ["--mapping", mapping.path], environment: environment, ledger: "other.db")
        #expect(again.result.status == 0, "\(again.result.stderr)")
        #expect(RemoteImport.count(again.outcomes, "unchanged") == 30, "\(again.outcomes.values.map { $0[0] })")
        #expect(try items(board: "2222222222").count == 30)
    }

    /// A column the mapping names that the board lacks stops the run before any row, listing
    /// the board's columns; a row without an email is rejected, saying what to do.
    @Test func aMissingColumnIsNamedAndARowWithoutItsDedupeValueIsRejected() throws {
        defer { t.remove() }
        let mapping = t.dir.appendingPathComponent("mapping.yaml")
        try """
            columns: {Name: full_name, Email: email, Phone: phone}
            destinations:
              monday: {columns: {phone: Mobile phone}}
            """.write(to: mapping, atomically: true, encoding: .utf8)
        let list = try t.list("leads.csv", count: 5) { k, cells in if k == 2 { cells[1] = "" } }
        let refused = try run(list, extra: ["--mapping", mapping.path])
        #expect(refused.result.status == 2 || refused.result.status == 1, "\(refused.result.stderr)")
        #expect(refused.result.stderr.contains("no column \"Mobile phone\"") && refused.result.stderr.contains("\"Phone\" (phone_mk2b, phone)"), "\(refused.result.stderr)")
        #expect(try items().isEmpty)
        let run = try run(list)
        #expect(run.result.status == 3, "\(run.result.stderr)")
        #expect(run.outcomes[3]?[0] == "rejected" && run.outcomes[3]?[1].contains("destinations.monday.dedupe_column") == true, "\(run.outcomes[3] ?? [])")
        #expect(RemoteImport.count(run.outcomes, "created") == 4)
        #expect(!run.result.stderr.contains(Self.token))
    }
}
