import Foundation
@testable import LeadConnectors
import LeadTesting
import Testing

/// Issue 26 item 4 (a): the settings LeadPort reads, and the names that look like them.
@Suite struct KnownSettingsTests {
    /// Every `"HUBSPOT_…"`, `"FUB_…"`, `"GOOGLE_…"`, `"SUPABASE_…"`, `"OPENAI_…"` and
    /// `"LEADPORT_…"` name the code spells out is in the list, so a new setting is never
    /// taken for a mistake.
    @Test func theListHoldsEveryNameTheCodeReads() throws {
        let pattern = try NSRegularExpression(pattern: "\"((?:HUBSPOT|FUB|GOOGLE|SUPABASE|OPENAI|LEADPORT)_[A-Z0-9_]+)\"")
        let sources = Fixture.root.appendingPathComponent("Sources")
        var found: Set<String> = []
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let url as URL in files where url.pathExtension == "swift" && !url.path.contains("/LeadTesting/") {
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { found.insert(String(text[range])) }
            }
        }
        #expect(found.count > 20)
        #expect(found.subtracting(KnownSettings.names).isEmpty, "read but not listed: \(found.subtracting(KnownSettings.names).sorted())")
    }

    @Test func lookalikesNameTheSettingMeant() {
        let found = KnownSettings.lookalikes(["HUBSPOT_URL", "FOLLOWUPBOSS_API_KEY", "hubspot_token", "FUB_HISTORIC", "OPENAI_KEY",
                                              "GOOGLE_APPLICATION_CREDENTIALS", "HUBSPOT_TOKEN", "PATH", "LEADPORT_WHATEVER_ELSE_ENTIRELY"])
        let nearest = Dictionary(uniqueKeysWithValues: found.map { ($0.name, $0.nearest ?? "-") })
        #expect(nearest == ["HUBSPOT_URL": "HUBSPOT_BASE_URL", "FOLLOWUPBOSS_API_KEY": "FUB_API_KEY", "hubspot_token": "HUBSPOT_TOKEN",
                            "FUB_HISTORIC": "FUB_HISTORICAL", "OPENAI_KEY": "OPENAI_API_KEY", "LEADPORT_WHATEVER_ELSE_ENTIRELY": "-"], "\(nearest)")
    }
}
