/// Which leads a destination takes: every lead (`upsert`), only those it does
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
    /// `--strict-fields`: a record with a field the destination refuses (an option its schema
    /// lacks, a malformed value) is rejected whole; otherwise it is written
    /// without the refused fields, which its report names with the destination's reason.
    public var strictFields = false

    public init(mode: DeliveryMode = .upsert, update: [String: FieldPolicy] = [:], options: [String: PolicyOption] = [:], strictFields: Bool = false) {
        (self.mode, self.update, self.options, self.strictFields) = (mode, update, options, strictFields)
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

extension FieldPolicy {
    /// What an SQL `UPDATE` sets a column to under this policy, from the column's value
    /// (`current`, as `c.phone`) and the lead's (`new`, a parameter or `v.phone`), in SQL that
    /// SQLite and PostgreSQL both take; nil for `never` (the column is left out). A blank new
    /// value never replaces anything; `append` is `fill_blank`, a column holding one value.
    public func sqlAssignment(current: String, new: String) -> String? {
        switch self {
        case .overwrite: return "COALESCE(NULLIF(\(new), ''), \(current))"
        case .fillBlank, .append: return "COALESCE(NULLIF(\(current), ''), NULLIF(\(new), ''), \(current))"
        case .never: return nil
        }
    }
}

extension DestinationPolicy {
    /// The policy of each of FLYR's `contacts` columns an update writes, in their order:
    /// `full_name` follows `full_name`, else `first_name`, else `last_name`; the others the
    /// field of their name.
    public var contactColumns: [(column: String, policy: FieldPolicy)] {
        FlyrColumns.contact.map { field in
            (field.name, field.name == "full_name" ? update["full_name"] ?? update["first_name"] ?? update["last_name"] ?? .overwrite : self[LeadField(rawValue: field.name)!])
        }
    }
}

extension DestinationPolicy {
    /// The policy of FLYR's `campaign_addresses` columns an update writes: all follow `address`.
    public var addressPolicy: FieldPolicy { self[.address] }
}
