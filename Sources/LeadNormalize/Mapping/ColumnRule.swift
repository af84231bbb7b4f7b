import Foundation
import LeadCore

/// What a mapping does with one column: fill a field (after optional transforms), or ignore it
/// (neither a field nor an extra). In YAML either a field name, `ignore`, or
/// `{field: phone, transform: [digits]}`; a name column may say its order
/// (`{field: full_name, order: auto}`).
public struct ColumnRule: Codable, Sendable, Equatable {
    /// nil: the column is ignored.
    public var field: LeadField?
    /// Applied in order to the cell before the field's rule sees it.
    public var transforms: [Transform]
    /// How a `full_name` column writes names (nil: given name first).
    public var order: NameOrder?

    public init(_ field: LeadField?, transforms: [Transform] = [], order: NameOrder? = nil) {
        self.field = field
        self.transforms = transforms
        self.order = order
    }

    enum CodingKeys: String, CodingKey { case field, transform, order }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            self.init(try Self.field(named: name, at: decoder.codingPath))
            return
        }
        try StrictKeys.check(decoder, allowed: ["field", "transform", "order"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .field)
        let transforms: [Transform]
        if let one = try? c.decode(Transform.self, forKey: .transform) {
            transforms = [one]
        } else {
            transforms = try c.decodeIfPresent([Transform].self, forKey: .transform) ?? []
        }
        let order = try c.decodeIfPresent(NameOrder.self, forKey: .order)
        let field = try Self.field(named: name, at: decoder.codingPath + [CodingKeys.field])
        if order != nil, field != .fullName {
            throw DecodingError.dataCorruptedError(forKey: .order, in: c, debugDescription: "order applies to a full_name column")
        }
        self.init(field, transforms: transforms, order: order)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(field?.rawValue ?? "ignore", forKey: .field)
        if !transforms.isEmpty { try c.encode(transforms, forKey: .transform) }
        try c.encodeIfPresent(order, forKey: .order)
    }

    private static func field(named name: String, at path: [any CodingKey]) throws -> LeadField? {
        if name == "ignore" { return nil }
        guard let field = LeadField(rawValue: name) else {
            let known = LeadField.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "unknown field \"\(name)\"; fields: \(known), or ignore"))
        }
        return field
    }

    /// The rule as it reads in a mapping file.
    public var yaml: String {
        let name = field?.rawValue ?? "ignore"
        var parts = ["field: \(name)"]
        if !transforms.isEmpty { parts.append("transform: [\(transforms.map(\.rawValue).joined(separator: ", "))]") }
        if let order { parts.append("order: \(order.rawValue)") }
        return parts.count == 1 ? name : "{" + parts.joined(separator: ", ") + "}"
    }

    /// The cell after the transforms.
    public func apply(_ value: String) -> String {
        transforms.reduce(value) { $1.apply($0) }
    }
}

/// A small, predictable change to a cell before the field's own rule.
public enum Transform: String, Codable, Sendable, CaseIterable {
    case trim
    /// Runs of spaces, tabs and line breaks become one space.
    case collapseSpaces = "collapse_spaces"
    case upper, lower
    /// Proper case for names: `MCDONALD` → `McDonald`.
    case proper
    /// Only the digits: `Tel. 617/555-0100` → `6175550100`.
    case digits
    /// The part before the first comma, semicolon, slash or `:::` (Google Contacts' separator):
    /// the first of several phones or emails.
    case first

    public func apply(_ value: String) -> String {
        switch self {
        case .trim: return value.trimmed
        case .collapseSpaces: return value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        case .upper: return value.uppercased()
        case .lower: return value.lowercased()
        case .proper: return value.split(separator: " ").map { NameRule.properCase(String($0)) }.joined(separator: " ")
        case .digits: return String(value.filter(\.isASCIIDigit))
        case .first:
            let head = value.replacingOccurrences(of: ":::", with: ";").split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "/" }).first.map(String.init) ?? ""
            return head.trimmed
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Refuses keys a type does not know, so a typo such as `colums:` is an error instead of a
/// silently ignored section.
enum StrictKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func check(_ decoder: any Decoder, allowed: [String]) throws {
        guard let c = try? decoder.container(keyedBy: AnyKey.self) else { return }
        for key in c.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [key],
                                                    debugDescription: "unknown key \"\(key.stringValue)\"; expected one of: \(allowed.joined(separator: ", "))"))
        }
    }
}
