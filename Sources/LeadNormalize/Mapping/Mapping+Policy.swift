import LeadCore

/// The mapping's `mode`, `update` and `destinations` keys (docs/mappings.md, "Modes and update
/// policies"): how each destination treats leads it has, field by field.
extension Mapping {
    /// The `--to` kinds a `destinations:` section may name (`DestinationRegistry`'s kinds; a
    /// test keeps the two lists alike).
    public static let destinationKinds = ["sqlite", "postgres", "supabase", "webhook", "hubspot", "followupboss", "google-contacts", "monday"]

    /// One destination's section: its own `mode` and `update` (over the top-level ones), and
    /// its own options.
    public struct DestinationSection: Codable, Sendable, Equatable {
        public var mode: DeliveryMode?
        public var update: [String: FieldPolicy] = [:]
        public var options: [String: PolicyOption] = [:]

        public init(mode: DeliveryMode? = nil, update: [String: FieldPolicy] = [:], options: [String: PolicyOption] = [:]) {
            (self.mode, self.update, self.options) = (mode, update, options)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: StrictKeys.AnyKey.self)
            for key in c.allKeys {
                switch key.stringValue {
                case "mode": mode = try c.decode(DeliveryMode.self, forKey: key)
                case "update": update = try Mapping.decodeUpdate(c, key)
                default: options[key.stringValue] = try c.decode(PolicyOption.self, forKey: key)
                }
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: StrictKeys.AnyKey.self)
            try c.encodeIfPresent(mode, forKey: StrictKeys.AnyKey(stringValue: "mode"))
            if !update.isEmpty { try c.encode(update, forKey: StrictKeys.AnyKey(stringValue: "update")) }
            for (name, option) in options { try c.encode(option, forKey: StrictKeys.AnyKey(stringValue: name)) }
        }
    }

    /// The policy of the destination of kind `kind` (`hubspot`, `sqlite`, as on `--to`): its
    /// section's mode, else the top-level one, else `upsert`; the top-level field policies with
    /// its section's laid over them; and its section's options.
    ///
    /// At the CRMs whose contacts hold lists of emails, phones and tags (Follow Up Boss, Google
    /// Contacts), those fields are `append` unless the mapping names them: an update never takes
    /// away a number or address a person added there.
    public func policy(for kind: String) -> DestinationPolicy {
        let section = destinations[kind]
        var fields = update.merging(section?.update ?? [:]) { $1 }
        if Self.listKinds.contains(kind) {
            for field in DestinationPolicy.multiValueFields where fields[field] == nil { fields[field] = .append }
        }
        return DestinationPolicy(mode: section?.mode ?? mode ?? .upsert, update: fields, options: section?.options ?? [:])
    }

    /// The `--to` kinds whose contacts hold several emails, phones and tags.
    public static let listKinds: Set<String> = ["followupboss", "google-contacts"]

    /// `update: {FIELD: POLICY}` under `key`, checked: every FIELD a field name, `append` only
    /// on a field that can hold several values.
    static func decodeUpdate<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K) throws -> [String: FieldPolicy] {
        let update = try c.decode([String: FieldPolicy].self, forKey: key)
        for (field, policy) in update {
            guard DestinationPolicy.fieldNames.contains(field) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c,
                                                       debugDescription: "\"\(field)\" is not a field; expected one of: \(DestinationPolicy.fieldNames.joined(separator: ", "))")
            }
            if policy == .append, !DestinationPolicy.multiValueFields.contains(field) {
                throw DecodingError.dataCorruptedError(forKey: key, in: c,
                                                       debugDescription: "\(field): append adds to a field of several values; it applies to \(DestinationPolicy.multiValueFields.sorted().joined(separator: ", ")); use fill_blank, overwrite or never")
            }
        }
        return update
    }

    /// `destinations: {NAME: {…}}`, checked: every NAME a `--to` kind.
    static func decodeDestinations<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K) throws -> [String: DestinationSection] {
        let sections = try c.decodeIfPresent([String: DestinationSection].self, forKey: key) ?? [:]
        for name in sections.keys where !destinationKinds.contains(name) {
            throw DecodingError.dataCorruptedError(forKey: key, in: c,
                                                   debugDescription: "\"\(name)\" is not a destination; expected one of: \(destinationKinds.joined(separator: ", "))")
        }
        return sections
    }

    /// The policy keys as YAML lines, in a stable order (nothing when the mapping has none).
    var policyYAML: [String] {
        var lines: [String] = []
        if let mode { lines.append("mode: \(mode.rawValue)") }
        if !update.isEmpty { lines.append("update: {" + update.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.rawValue)" }.joined(separator: ", ") + "}") }
        if !destinations.isEmpty {
            lines.append("destinations:")
            for (name, section) in destinations.sorted(by: { $0.key < $1.key }) {
                lines.append("  \(name):")
                if let mode = section.mode { lines.append("    mode: \(mode.rawValue)") }
                if !section.update.isEmpty {
                    lines.append("    update: {" + section.update.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.rawValue)" }.joined(separator: ", ") + "}")
                }
                for (option, value) in section.options.sorted(by: { $0.key < $1.key }) {
                    switch value {
                    case .text(let text): lines.append("    \(option): \(quoted(text))")
                    case .table(let table):
                        lines.append("    \(option): {" + table.sorted { $0.key < $1.key }.map { "\($0.key): \(quoted($0.value))" }.joined(separator: ", ") + "}")
                    }
                }
            }
        }
        return lines
    }
}
