import Foundation
import LeadConnectors
import Testing

/// The FUB_* settings that say how leads enter Follow Up Boss (the destination does not see the
/// mapping file): each bad value is a configuration error naming its variable.
struct FollowUpBossSettingsTests {
    static let now = ISO8601DateFormatter().date(from: "2026-11-25T12:00:00Z")!

    @Test func theDefaultsAreLiveRegistrationsFromLeadPort() throws {
        let mapping = try FollowUpBossMapping(settings: [:], now: Self.now)
        #expect(mapping == (try FollowUpBossMapping()))
    }

    @Test func tagsCustomFieldsAndAHistoricalDateAreRead() throws {
        let mapping = try FollowUpBossMapping(settings: [
            "FUB_EVENT_TYPE": "Seller Inquiry", "FUB_SOURCE": "Door knock", "FUB_TAGS": " Farm ,, 2021 ",
            "FUB_CUSTOM_FIELDS": "customCloseDate=Close Date, customBudget = Budget", "FUB_HISTORICAL": "2021-03-01",
        ], now: Self.now)
        #expect(mapping.eventType == "Seller Inquiry" && mapping.source == "Door knock")
        #expect(mapping.tags == ["Farm", "2021"])
        #expect(mapping.customFields == ["customCloseDate": "Close Date", "customBudget": "Budget"])
        #expect(mapping.timing == .historical(fallback: "2021-03-01T00:00:00Z"))
        #expect(try FollowUpBossMapping(settings: ["FUB_HISTORICAL": "2021-03-01T09:30:00Z"], now: Self.now).timing == .historical(fallback: "2021-03-01T09:30:00Z"))
        #expect(try FollowUpBossMapping(settings: ["FUB_HISTORICAL": "No"], now: Self.now).timing == .live)
    }

    @Test(arguments: [
        ("FUB_EVENT_TYPE", "Cold Call"), ("FUB_CUSTOM_FIELDS", "Close Date"), ("FUB_CUSTOM_FIELDS", "closeDate=Close Date"),
        ("FUB_HISTORICAL", "yes"), ("FUB_HISTORICAL", "2026-11-24"),
    ])
    func aBadValueNamesItsVariable(variable: String, value: String) throws {
        let error = try #require(throws: FollowUpBossError.self) { try FollowUpBossMapping(settings: [variable: value], now: Self.now) }
        #expect(error.kind == .configuration && error.variable == variable, "\(error.message)")
        #expect(error.message.hasPrefix(variable), "\(error.message)")
    }
}
