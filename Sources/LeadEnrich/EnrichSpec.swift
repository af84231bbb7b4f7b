import Foundation
import LeadCore
import Yams

/// An enrichment spec (docs/enrich.md): what an LLM is asked to do with each row, the
/// columns it answers with, what it is sent, and what it may cost.
///
/// ```yaml
/// model: gpt-4o-mini
/// instructions: Classify how likely each lead is to list their home this year.
/// fields:
///   status: {enum: [hot, warm, cold, new], description: "…", maps_to: status}
///   score: {type: integer, description: "0 to 100"}
/// rows_per_request: 20
/// max_cost: 5.00
/// prices: {input: 0.15, output: 0.60}     # dollars per million tokens
/// exclude: [Internal notes]
/// ```
public struct EnrichSpec: Sendable, Equatable {
    public var model: String?
    public var instructions: String
    /// In the spec's order: the output columns, after the list's own.
    public var fields: [Field]
    public var rowsPerRequest: Int
    /// Dollars; nil: no budget.
    public var maxCost: Double?
    /// Dollars per million tokens; nil: the model's published price (`Prices.known`), if known.
    public var prices: Prices?
    /// The source columns sent (nil: every mapped one), and those never sent.
    public var send: [String]?
    public var exclude: [String]

    public struct Field: Sendable, Equatable {
        public var name: String
        public var type: FieldType
        public var description: String?
        /// The lead field its answer fills (`status`, `first_name`), if any.
        public var mapsTo: LeadField?
    }

    public enum FieldType: Sendable, Equatable {
        case string, integer, number, boolean
        case choice([String])

        var schema: String {
            switch self {
            case .string: return "string"
            case .integer: return "integer"
            case .number: return "number"
            case .boolean: return "boolean"
            case .choice: return "string"
            }
        }
    }

    public struct Prices: Sendable, Equatable {
        public var input: Double
        public var output: Double

        public init(input: Double, output: Double) { (self.input, self.output) = (input, output) }

        /// "$5.00", "$0.004": cents for a budget of a dollar or more, else as many digits as it has (up to six).
        public static func dollars(_ amount: Double) -> String {
            if amount >= 1 || amount == 0 { return String(format: "$%.2f", amount) }
            var text = String(format: "%.6f", amount)
            while text.hasSuffix("0") { text.removeLast() }
            return "$" + text
        }

        /// Dollars for so many tokens.
        public func cost(input tokens: Int, output completion: Int) -> Double {
            (Double(tokens) * input + Double(completion) * output) / 1_000_000
        }

        /// OpenAI's published prices per million tokens (standard tier, November 2026 list),
        /// for a budget without `prices:`. Any other model needs `prices:` for `max_cost`.
        public static let known: [String: Prices] = [
            "gpt-4o-mini": Prices(input: 0.15, output: 0.60),
            "gpt-4o": Prices(input: 2.50, output: 10.00),
            "gpt-4.1": Prices(input: 2.00, output: 8.00),
            "gpt-4.1-mini": Prices(input: 0.40, output: 1.60),
            "gpt-4.1-nano": Prices(input: 0.10, output: 0.40),
            "o4-mini": Prices(input: 1.10, output: 4.40),
        ]
    }

    /// The prices the budget counts with: the spec's, else the model's published ones.
    public func prices(for model: String) -> Prices? { prices ?? Prices.known[model] }
}

/// A spec that cannot be used: names the file and, where it can, the line.
public typealias EnrichSpecError = ConfigFileError

extension EnrichSpec {
    static let keys: Set<String> = ["model", "instructions", "fields", "rows_per_request", "max_cost", "prices", "send", "exclude"]
    static let fieldKeys: Set<String> = ["type", "enum", "description", "maps_to"]

    public static func load(path: String) throws -> EnrichSpec {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else {
            throw EnrichSpecError(path: path, line: nil, message: "cannot read the enrichment spec (a YAML file under 1 MB)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw EnrichSpecError(path: path, line: nil, message: "is not UTF-8 text") }
        return try parse(text, path: path)
    }

    /// Reads a spec from YAML; `path` names it in errors, each with the line it is about.
    public static func parse(_ text: String, path: String) throws -> EnrichSpec {
        func fail(_ node: Node?, _ message: String) -> EnrichSpecError {
            EnrichSpecError(path: path, line: node?.mark.map { $0.line }, message: message)
        }
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else { throw fail(nil, "the file is empty") }
            root = composed
        } catch let error as YamlError {
            throw EnrichSpecError(path: path, line: Self.line(of: error), message: "not valid YAML: \(error)")
        }
        guard let top = root.mapping else { throw fail(root, "an enrichment spec is a mapping of keys (model, instructions, fields, …)") }
        var seen: [String: Node] = [:]
        for (key, value) in top {
            guard let name = key.string, keys.contains(name) else {
                throw fail(key, "unknown key \"\(key.string ?? "?")\"; a spec has: \(keys.sorted().joined(separator: ", "))")
            }
            seen[name] = value
        }
        func words(_ name: String) throws -> String? {
            guard let node = seen[name] else { return nil }
            guard let value = node.scalar?.string, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw fail(node, "\(name) is a piece of text") }
            return value
        }
        func number(_ node: Node, _ name: String) throws -> Double {
            guard let value = node.scalar.flatMap({ Double($0.string) }), value.isFinite, value >= 0 else { throw fail(node, "\(name) is a number, 0 or more") }
            return value
        }
        func list(_ name: String) throws -> [String]? {
            guard let node = seen[name] else { return nil }
            if let single = node.scalar { return [single.string] }
            guard let items = node.sequence else { throw fail(node, "\(name) is a list of column headers, as in [Name, Email]") }
            return try items.map { item in
                guard let header = item.scalar?.string else { throw fail(item, "each of \(name) is a column header") }
                return header
            }
        }
        guard let instructions = try words("instructions") else { throw fail(root, "instructions are missing: say what to do with each row") }
        guard let fieldsNode = seen["fields"] else { throw fail(root, "fields are missing: name the columns the model answers with") }
        guard let fieldMap = fieldsNode.mapping, !fieldMap.isEmpty else { throw fail(fieldsNode, "fields is a mapping of column name to {type, description}") }
        var fields: [Field] = []
        for (key, value) in fieldMap {
            guard let name = key.string, !name.isEmpty else { throw fail(key, "a field's name is text") }
            guard name != "id", !name.hasPrefix("_") else { throw fail(key, "\"\(name)\" is LeadPort's own (the row id and the _status columns); name the field otherwise") }
            guard !fields.contains(where: { $0.name == name }) else { throw fail(key, "the field \"\(name)\" is given twice") }
            fields.append(try field(name, value, fail: fail))
        }
        var rows = 20
        if let node = seen["rows_per_request"] {
            guard let value = node.scalar.flatMap({ Int($0.string) }), (1...200).contains(value) else { throw fail(node, "rows_per_request is a whole number from 1 to 200") }
            rows = value
        }
        var prices: Prices?
        if let node = seen["prices"] {
            guard let map = node.mapping, let input = map["input"], let output = map["output"], map.count == 2 else {
                throw fail(node, "prices is {input: DOLLARS, output: DOLLARS}, per million tokens")
            }
            prices = Prices(input: try number(input, "prices.input"), output: try number(output, "prices.output"))
        }
        let spec = EnrichSpec(model: try words("model"), instructions: instructions, fields: fields, rowsPerRequest: rows,
                              maxCost: try seen["max_cost"].map { try number($0, "max_cost") }, prices: prices,
                              send: try list("send"), exclude: try list("exclude") ?? [])
        if let send = spec.send, let both = send.first(where: spec.exclude.contains) {
            throw fail(seen["exclude"], "\"\(both)\" is both sent (send) and never sent (exclude)")
        }
        if spec.maxCost != nil, spec.prices == nil, let model = spec.model, Prices.known[model] == nil {
            throw fail(seen["max_cost"], "max_cost needs the prices of \(model): add prices: {input: …, output: …} (dollars per million tokens)")
        }
        return spec
    }

    private static func field(_ name: String, _ node: Node, fail: (Node?, String) -> EnrichSpecError) throws -> Field {
        // `status: string` is short for {type: string}.
        if let scalar = node.scalar {
            guard let type = fieldType(scalar.string) else { throw fail(node, "the type of \(name) is one of string, integer, number, boolean (or give enum: […])") }
            return Field(name: name, type: type, description: nil, mapsTo: nil)
        }
        guard let map = node.mapping else { throw fail(node, "\(name) is {type: …, description: …}") }
        for key in map.keys where !fieldKeys.contains(key.string ?? "") {
            throw fail(key, "\(name) has an unknown key \"\(key.string ?? "?")\"; a field has: \(fieldKeys.sorted().joined(separator: ", "))")
        }
        var type: FieldType
        if let choices = map["enum"] {
            guard let items = choices.sequence?.compactMap({ $0.scalar?.string }), !items.isEmpty, items.count == choices.sequence?.count else {
                throw fail(choices, "the enum of \(name) is a list of words, as in [hot, warm, cold]")
            }
            guard Set(items).count == items.count else { throw fail(choices, "the enum of \(name) names a choice twice") }
            if let given = map["type"], given.string != "string" { throw fail(given, "\(name) has an enum: its type is string (or leave type out)") }
            type = .choice(items)
        } else if let given = map["type"] {
            guard let t = given.string.flatMap(fieldType) else { throw fail(given, "the type of \(name) is one of string, integer, number, boolean (or give enum: […])") }
            type = t
        } else {
            throw fail(node, "\(name) needs a type (string, integer, number, boolean) or an enum")
        }
        var maps: LeadField?
        if let target = map["maps_to"] {
            guard let value = target.string, let field = LeadField(rawValue: value) else {
                throw fail(target, "maps_to of \(name) names a lead field: \(LeadField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            maps = field
        }
        if maps == .status, case .choice(let items) = type, let other = items.first(where: { !["hot", "warm", "cold", "new"].contains($0) }) {
            throw fail(map["enum"], "\(name) maps to status, which FLYR keeps as hot, warm, cold or new: \"\(other)\" is none of them")
        }
        return Field(name: name, type: type, description: map["description"]?.string, mapsTo: maps)
    }

    private static func fieldType(_ word: String) -> FieldType? {
        switch word {
        case "string", "text": return .string
        case "integer", "int": return .integer
        case "number", "float": return .number
        case "boolean", "bool": return .boolean
        default: return nil
        }
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        default: return nil
        }
    }
}
