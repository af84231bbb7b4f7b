import Foundation
import LeadTesting
import Testing

/// One case's run of one destination: its target (double or database started), a folder,
/// the list of people, and the checks every case shares. Reads only what LeadPort writes for
/// machines (the report, `--progress jsonl`) and what the destination holds.
final class Conformance {
    let t: RemoteImport
    let target: any ConformanceTarget
    let name: String

    /// Starts `destination` for `check`; a destination that declared the case not applicable
    /// cancels the test case with its reason, so the run shows it as not run, and why.
    init(_ destination: ConformanceDestination, _ check: ConformanceCase) throws {
        let reason = destination.target.notApplicable(check)
        if let reason {
            print("Conformance: \(destination.rawValue) × \(check.rawValue): not applicable: \(reason)")
            try Test.cancel("not applicable to \(destination.rawValue): \(reason)")
        }
        t = try RemoteImport()
        target = try destination.target.init(t)
        name = destination.rawValue
    }

    deinit { t.remove() }

    /// Runs `body` for `destination` under `check`: cancelled when not applicable, and as a
    /// known issue when the target declared one (so that a fix shows as an unexpected pass).
    static func check(_ destination: ConformanceDestination, _ check: ConformanceCase, _ body: (Conformance) throws -> Void) throws {
        let c = try Conformance(destination, check)
        guard let issue = destination.target.knownIssue(check) else { return try body(c) }
        print("Conformance: \(destination.rawValue) × \(check.rawValue): known issue: \(issue)")
        withKnownIssue(Comment(rawValue: issue)) { try body(c) }
    }

    // MARK: The people

    static func email(_ k: Int) -> String { "person\(k)@example.com" }
    static func phone(_ k: Int) -> String { "+1617555\(String(format: "%04d", k % 10000))" }

    /// `count` people (RemoteImport's list: person k, email person<k>@example.com, phone
    /// 617-555-<k>); `edit` changes rows.
    func list(_ count: Int, name: String = "leads.csv", edit: (Int, inout [String]) -> Void = { _, _ in }) throws -> URL {
        try t.list(name, count: count, edit: edit)
    }

    typealias Run = (result: Leadport.Result, outcomes: [Int: [String]])

    /// `leadport import LIST --to … --report … --progress jsonl` with the target's settings.
    func run(_ list: URL, extra: [String] = [], environment: [String: String] = [:]) throws -> Run {
        try t.run(list, to: target.destination, campaign: target.campaign, user: target.user, extra: extra,
                  environment: target.environment.merging(environment) { $1 })
    }

    /// The `batch` events of a run whose status says it was retried.
    static func retries(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard line.contains("\"event\":\"batch\"") else { return nil }
            let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (event?["status"] as? String)?.hasPrefix("retry") == true ? event : nil
        }
    }

    /// The records by key, each key's list of copies.
    func held() throws -> [String: [[String: String]]] {
        Dictionary(grouping: try target.records(), by: \.key).mapValues { $0.map(\.fields) }
    }

    /// Each of people 1…`count` but `missing` is held exactly once, nobody else is, and each
    /// holds its phone (`phones` overrides by person).
    func expectHeldOnce(_ count: Int, missing: Set<Int> = [], phones: [Int: String] = [:],
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let held = try held()
        let expected = Set((1...count).filter { !missing.contains($0) }.map(Self.email))
        #expect(Set(held.keys) == expected, "\(name): \(Set(held.keys).subtracting(expected).sorted().prefix(5)) held, \(expected.subtracting(held.keys).sorted().prefix(5)) missing",
                sourceLocation: sourceLocation)
        let twice = held.filter { $0.value.count != 1 }
        #expect(twice.isEmpty, "\(name): held more than once: \(twice.keys.sorted().prefix(5))", sourceLocation: sourceLocation)
        let wrong = (1...count).filter { k in
            guard let fields = held[Self.email(k)]?.first else { return false }
            return fields["phone"] != (phones[k] ?? Self.phone(k))
        }
        #expect(wrong.isEmpty, "\(name): phones not as listed for people \(wrong.prefix(5)): \(wrong.prefix(3).map { held[Self.email($0)]?.first ?? [:] })",
                sourceLocation: sourceLocation)
    }
}
