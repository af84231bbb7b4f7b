import Foundation

/// How a run's leads enter Follow Up Boss, read from the settings like the credentials (the
/// destination is opened from `Settings` alone: the mapping file does not reach it):
///
/// | variable | meaning |
/// | --- | --- |
/// | `FUB_EVENT_TYPE` | the event type (default `Registration`) |
/// | `FUB_SOURCE` | the lead source, which drives Lead Flow routing (default `LeadPort`) |
/// | `FUB_TAGS` | tags every lead gets, separated by commas (the campaign is one more) |
/// | `FUB_HISTORICAL` | a date such as `2024-01-31`: the list is historical, each event dated by the lead's own date, else this one, so that no action plan fires; `no` (the default) sends live events |
/// | `FUB_CUSTOM_FIELDS` | `customCloseDate=Close Date,…`: which column fills which custom field |
extension FollowUpBossMapping {
    public init(settings: [String: String], now: Date = Date()) throws {
        func value(_ name: String) -> String? {
            settings[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let tags = (value("FUB_TAGS") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var custom: [String: String] = [:]
        for pair in (value("FUB_CUSTOM_FIELDS") ?? "").split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw FollowUpBossError.malformed("FUB_CUSTOM_FIELDS", "has \"\(pair)\": write each as API name=column header, separated by commas, as in customCloseDate=Close Date")
            }
            custom[parts[0]] = parts[1]
        }
        do {
            try self.init(eventType: value("FUB_EVENT_TYPE") ?? FollowUpBossEvent.defaultType, source: value("FUB_SOURCE") ?? FollowUpBossEvent.defaultSource,
                          tags: tags, customFields: custom, timing: try Self.timing(value("FUB_HISTORICAL"), now: now))
        } catch let error as FollowUpBossError where error.variable == nil {
            // The mapping's own checks speak of "the mapping"; here the value came from a variable.
            let variable = error.message.contains("event type") ? "FUB_EVENT_TYPE" : "FUB_CUSTOM_FIELDS"
            throw FollowUpBossError(.configuration, "\(variable): \(error.message)", variable: variable)
        }
    }

    /// `FUB_HISTORICAL`: off, or the date for leads without one. The date must be more than a
    /// day old, or Follow Up Boss would take the events as new and fire their action plans,
    /// the very thing the setting is for avoiding.
    static func timing(_ text: String?, now: Date) throws -> Timing {
        guard let text, !["no", "false", "0", "off"].contains(text.lowercased()) else { return .live }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.count == 10 ? [.withFullDate] : [.withInternetDateTime]
        guard let date = formatter.date(from: text) else {
            throw FollowUpBossError.malformed("FUB_HISTORICAL", "is \"\(text)\": set it to the date to give leads that have none (2024-01-31 or 2024-01-31T09:00:00Z), or to no")
        }
        guard date < now.addingTimeInterval(-2 * 86_400) else {
            throw FollowUpBossError.malformed("FUB_HISTORICAL", "is \(text), less than two days ago: Follow Up Boss takes events of the last day as new and fires their action plans; give an earlier date")
        }
        return .historical(fallback: text.count == 10 ? text + "T00:00:00Z" : text)
    }
}
