import LeadCore
import Testing
@testable import LeadNormalize

/// Per-field accuracy of the address rule on labelled cases from USPS Publication 28, Canada
/// Post's guidelines and lead-list shapes (AddressAccuracyCases). Every component is scored on
/// every case (absent where the label leaves it out), so a component that appears where it
/// should not counts as a miss too.
@Suite struct AddressAccuracyTests {
    /// Label key, field name and value, for every component of `a`.
    static func fields(_ a: PostalAddress) -> [(key: String, field: String, value: String?)] {
        [
            ("r", "recipient", a.recipient), ("h", "house_number", a.houseNumber),
            ("pre", "street_predirectional", a.streetPredirectional), ("n", "street_name", a.streetName),
            ("s", "street_suffix", a.streetSuffix), ("post", "street_postdirectional", a.streetPostdirectional),
            ("ut", "unit_type", a.unitType), ("u", "unit_id", a.unitID), ("box", "po_box_id", a.poBoxID),
            ("c", "city", a.city), ("st", "state", a.state), ("z", "zip", a.postalCode), ("z4", "zip4", a.zip4),
            ("co", "country", a.country), ("x", "unparsed", a.unparsed),
        ]
    }

    /// `h=123|n=MAIN` → every field, nil where the label has none (country `US` by default).
    static func label(_ spec: String) -> [String: String?] {
        var given: [String: String] = [:]
        for part in spec.split(separator: "|") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            given[String(part[..<eq])] = String(part[part.index(after: eq)...])
        }
        var expected: [String: String?] = [:]
        for f in fields(PostalAddress()) {
            let value: String? = given[f.key] ?? (f.key == "co" ? "US" : nil)
            expected[f.field] = .some(value)
        }
        return expected
    }

    @Test func perFieldAccuracy() {
        var tally = AccuracyTally(rule: "address")
        let cases = AddressAccuracyCases.publication28 + AddressAccuracyCases.canada + AddressAccuracyCases.leadLists
        #expect(cases.count >= 150)
        for (input, spec) in cases {
            let a = AddressRule.parse(input).address
            var actual: [String: String?] = [:]
            for f in Self.fields(a) { actual[f.field] = .some(f.value) }
            tally.score(input: input, expected: Self.label(spec), actual: actual)
        }
        // 98% a field: under what the rule reaches today (99.6–100%), so that a regression of a
        // few cases fails while the known gaps stay visible in the table.
        let below = tally.publish(defaultFloor: 0.98)
        #expect(below.isEmpty, "\(below.joined(separator: "; "))")
    }

    /// Issue 23's classes (AddressAccuracyCases+Issue23): every case whole.
    @Test(arguments: AddressAccuracyCases.issue23)
    func issue23(input: String, spec: String) {
        let a = AddressRule.parse(input).address
        var actual: [String: String?] = [:]
        for f in Self.fields(a) { actual[f.field] = .some(f.value) }
        let expected = Self.label(spec)
        let wrong = expected.keys.sorted().filter { (expected[$0] ?? nil) != (actual[$0] ?? nil) }
        #expect(wrong.isEmpty, "\(input): \(wrong.map { "\($0) \((actual[$0] ?? nil) ?? "null") ≠ \((expected[$0] ?? nil) ?? "null")" })")
    }
}
