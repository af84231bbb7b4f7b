import Foundation

/// Per-field accuracy of one rule over labelled cases written from public conventions (USPS
/// Publication 28, RFC 5321/6531, NANP, libphonenumber's documentation), not from our own
/// output. Each suite counts, field by field, how many cases came out as labelled, prints the
/// table (and appends it to the file `ACCURACY_REPORT` names, when set), and then holds each
/// field to its floor, so a regression fails while a known gap stays visible in the table.
struct AccuracyTally {
    let rule: String
    private var right: [String: Int] = [:]
    private var total: [String: Int] = [:]
    private var order: [String] = []
    private(set) var misses: [String] = []
    private(set) var cases = 0

    init(rule: String) { self.rule = rule }

    /// One labelled case: every field of `expected` is compared with `actual[field]`; a field
    /// the label leaves out is not scored, and `nil` in a label means "must be absent".
    mutating func score(input: String, expected: [String: String?], actual: [String: String?]) {
        cases += 1
        for field in expected.keys.sorted() {
            if total[field] == nil { order.append(field) }
            total[field, default: 0] += 1
            let want = expected[field] ?? nil
            let got = actual[field] ?? nil
            if want == got {
                right[field, default: 0] += 1
            } else {
                misses.append("\(rule) \(field): \(quote(input)) → \(got.map(quote) ?? "null"), labelled \(want.map(quote) ?? "null")")
            }
        }
    }

    func accuracy(_ field: String) -> Double {
        guard let n = total[field], n > 0 else { return 1 }
        return Double(right[field, default: 0]) / Double(n)
    }

    /// Whole cases right in every labelled field.
    var fields: [String] { order }

    /// The table, one line per field, then the misses.
    var report: String {
        var lines = ["\(rule): \(cases) labelled cases"]
        for field in order {
            let n = total[field] ?? 0, ok = right[field] ?? 0
            let name = field.count >= 24 ? field : field + String(repeating: " ", count: 24 - field.count)
            lines.append("  " + name + String(format: " %5d / %-5d %6.1f%%", ok, n, 100 * accuracy(field)))
        }
        lines += misses.map { "  miss: " + $0 }
        return lines.joined(separator: "\n")
    }

    /// Prints the table, appends it to `$ACCURACY_REPORT` when set, and returns the fields
    /// below their floor (`floors[field]`, else `defaultFloor`).
    func publish(floors: [String: Double] = [:], defaultFloor: Double) -> [String] {
        print(report)
        if let path = ProcessInfo.processInfo.environment["ACCURACY_REPORT"],
           let data = (report + "\n\n").data(using: .utf8) {
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.seekToEndOfFile(); handle.write(data); try? handle.close()
            } else {
                _ = FileManager.default.createFile(atPath: path, contents: data)
            }
        }
        return order.filter { accuracy($0) < (floors[$0] ?? defaultFloor) }
            .map { String(format: "%@ %.1f%% < floor %.1f%%", $0, 100 * accuracy($0), 100 * (floors[$0] ?? defaultFloor)) }
    }

    private func quote(_ s: String) -> String { "\"" + s + "\"" }
}
