/// Which leads a destination takes (issue 13, item 4): every lead (`upsert`), only those it does
/// not have yet (`create_only`), or only those it has (`update_only`).
public enum DeliveryMode: String, Sendable, Codable, CaseIterable {
    case upsert
    case createOnly = "create_only"
    case updateOnly = "update_only"
}

/// What an update does with one field the destination already holds. A create always writes
/// every field the lead has; a blank cell never writes anything, whatever the policy.
public enum FieldPolicy: String, Sendable, Codable, CaseIterable {
    /// The lead's value replaces the destination's (the default).
    case overwrite
    /// Written only where the destination's field is empty: what an agent typed stays.
    case fillBlank = "fill_blank"
    /// Added to a multi-value field (emails, phones, tags) beside what is there; on a
    /// destination whose field holds one value, the same as `fill_blank`.
    case append
    /// Sent when the lead is created, never on an update.
    case never
}

/// What the mapping says about one destination: its mode, its field policies, and its own
/// options (`properties` and `id_property` for HubSpot, ...), after the mapping's
/// `destinations: {NAME: …}` section was laid over its top-level `mode` and `update`.
public struct DestinationPolicy: Sendable, Equatable {
    public var mode: DeliveryMode
    /// By the mapping's field names (`LeadField` raw values, and `tags`); a field not named
    /// is overwritten.
    public var update: [String: FieldPolicy]
    /// The destination's own section, beyond `mode` and `update`, as written (keys unchecked:
    /// each destination checks its own in `configure`).
    public var options: [String: PolicyOption]

    public init(mode: DeliveryMode = .upsert, update: [String: FieldPolicy] = [:], options: [String: PolicyOption] = [:]) {
        (self.mode, self.update, self.options) = (mode, update, options)
    }

    /// The policy of `field` (a `LeadField` raw value, or `tags`).
    public subscript(_ field: String) -> FieldPolicy { update[field] ?? .overwrite }
    public subscript(_ field: LeadField) -> FieldPolicy { update[field.rawValue] ?? .overwrite }

    /// Whether every update overwrites every field: what each destination did before policies.
    public var overwritesAll: Bool { update.values.allSatisfy { $0 == .overwrite } }

    /// The fields whose policy is not `overwrite`, sorted (for messages).
    public var specialFields: [String] { update.filter { $0.value != .overwrite }.keys.sorted() }

    /// The fields the mapping's `update:` may name: every lead field, and `tags`.
    public static let fieldNames: [String] = LeadField.allCases.map(\.rawValue) + ["tags"]
    /// The fields `append` applies to: those that can hold several values somewhere.
    public static let multiValueFields: Set<String> = ["email", "phone", "mobile", "tags"]
}

/// A destination option's value in the mapping: a word or a table of words
/// (`properties: {lead_import_key: "Row ID"}`).
public enum PolicyOption: Sendable, Equatable, Codable {
    case text(String)
    case table([String: String])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let table = try? c.decode([String: String].self) {
            self = .table(table)
        } else if let list = try? c.decode([String].self) {
            // A list (`tags: [a, b]`) is kept as its words, comma-separated, as the variables hold them.
            self = .text(list.joined(separator: ","))
        } else {
            self = .text(try c.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let text): try c.encode(text)
        case .table(let table): try c.encode(table)
        }
    }

    /// As a `name=value, …` list, the form the settings' variables hold a table in.
    public var settingText: String {
        switch self {
        case .text(let text): return text
        case .table(let table): return table.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }
    }
}
