import Foundation
import LeadCore
import Yams

/// A saved mapping (YAML; docs/mappings.md): which columns fill which lead fields, where
/// the leads go, and the defaults the rules need.
public struct Mapping: Codable, Sendable, Equatable {
    public enum Target: String, Codable, Sendable {
        case contacts
        case campaignAddresses = "campaign_addresses"
        case both
    }

    public enum Extras: String, Codable, Sendable {
        /// Keep unmapped columns with the lead (exported; sent where a destination has room).
        case keep
        /// Append them to the notes as `Header: value` lines.
        case notes
        case drop
    }

    public struct Defaults: Codable, Sendable, Equatable {
        /// Phone region (ISO 3166), e.g. `US`.
        public var region: String?
        public var dateOrder: DateOrder?
        public var state: String?
        public var campaign: String?
        public var addressStyle: AddressStyle?

        enum CodingKeys: String, CodingKey {
            case region, state, campaign
            case dateOrder = "date_order"
            case addressStyle = "address_style"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: ["region", "date_order", "state", "campaign", "address_style"])
            let c = try decoder.container(keyedBy: CodingKeys.self)
            region = try c.decodeIfPresent(String.self, forKey: .region)
            dateOrder = try c.decodeIfPresent(DateOrder.self, forKey: .dateOrder)
            state = try c.decodeIfPresent(String.self, forKey: .state)
            campaign = try c.decodeIfPresent(String.self, forKey: .campaign)
            addressStyle = try c.decodeIfPresent(AddressStyle.self, forKey: .addressStyle)
            if let state, StateTable.code(for: state) == nil {
                throw DecodingError.dataCorruptedError(forKey: .state, in: c, debugDescription: "\"\(state)\" is not a US state or Canadian province")
            }
            if let region, !PhoneRule.knowsRegion(region) {
                throw DecodingError.dataCorruptedError(forKey: .region, in: c, debugDescription: PhoneRule.unknownRegion(region))
            }
        }
    }

    /// What a missing column does: stop the import (`error`, for a mapping written for one
    /// file), or nothing (`ignore`, for presets that list every header a source may use).
    public enum MissingColumns: String, Codable, Sendable {
        case error, ignore
    }

    /// What the columns a mapping does not name become: extras (`extras`, for a mapping written
    /// for one file), or whatever automatic mapping makes of them (`auto`, for presets, which
    /// name the headers of their source and must still read a list with other headers).
    public enum OtherColumns: String, Codable, Sendable {
        case extras, auto
    }

    /// One line saying what the mapping is for (shown in the list of presets).
    public var description: String?
    public var target: Target = .contacts
    public var sheet: String?
    /// 1-based row of the header; detected when absent.
    public var headerRow: Int?
    /// Header text (or column letter) → field, transforms, or ignore.
    public var columns: [String: ColumnRule] = [:]
    public var defaults = Defaults()
    /// Dedupe keys in order: `email`, `phone` (E.164 + family name), `address` (+ unit).
    public var dedupe: [DedupeKeyKind] = [.email, .phone, .address]
    public var required: [LeadField] = []
    public var extras: Extras = .keep
    public var missingColumns: MissingColumns = .error
    public var otherColumns: OtherColumns = .extras
    /// Which leads every destination takes (nil: `upsert`); see `Mapping+Policy`.
    public var mode: DeliveryMode?
    /// What an update does with each field, at every destination (unnamed fields: `overwrite`).
    public var update: [String: FieldPolicy] = [:]
    /// Per `--to` kind: a mode and field policies over the two above, and the destination's own options.
    public var destinations: [String: DestinationSection] = [:]

    enum CodingKeys: String, CodingKey {
        case description, target, sheet, columns, defaults, dedupe, required, extras, mode, update, destinations
        case headerRow = "header_row"
        case missingColumns = "missing_columns"
        case otherColumns = "other_columns"
    }

    public init() {}

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: ["description", "target", "sheet", "header_row", "columns", "defaults", "dedupe", "required",
                                                "extras", "missing_columns", "other_columns", "mode", "update", "destinations"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        target = try c.decodeIfPresent(Target.self, forKey: .target) ?? .contacts
        sheet = try c.decodeIfPresent(String.self, forKey: .sheet)
        headerRow = try c.decodeIfPresent(Int.self, forKey: .headerRow)
        columns = try c.decodeIfPresent([String: ColumnRule].self, forKey: .columns) ?? [:]
        defaults = try c.decodeIfPresent(Defaults.self, forKey: .defaults) ?? Defaults()
        dedupe = try c.decodeIfPresent([DedupeKeyKind].self, forKey: .dedupe) ?? [.email, .phone, .address]
        required = try c.decodeIfPresent([LeadField].self, forKey: .required) ?? []
        extras = try c.decodeIfPresent(Extras.self, forKey: .extras) ?? .keep
        missingColumns = try c.decodeIfPresent(MissingColumns.self, forKey: .missingColumns) ?? .error
        otherColumns = try c.decodeIfPresent(OtherColumns.self, forKey: .otherColumns) ?? .extras
        description = try c.decodeIfPresent(String.self, forKey: .description)
        mode = try c.decodeIfPresent(DeliveryMode.self, forKey: .mode)
        update = c.contains(.update) ? try Self.decodeUpdate(c, .update) : [:]
        destinations = try Self.decodeDestinations(c, .destinations)
    }

    /// Reads a mapping file; errors name the file and what is wrong.
    public static func load(path: String) throws -> Mapping {
        guard let bytes = readFile(path), let text = String(validating: bytes, as: UTF8.self) else {
            throw MappingError.unreadable(path)
        }
        if text.allSatisfy(\.isWhitespace) { throw MappingError.invalid(path, "the file is empty") }
        do {
            return try YAMLDecoder().decode(Mapping.self, from: text)
        } catch let error as DecodingError {
            throw MappingError.invalid(path, MappingError.describe(error))
        } catch {
            throw MappingError.invalid(path, "\(error)")
        }
    }

    /// The bytes of a (small) file, with plain read(2). Foundation's `FileManager.contents(atPath:)`
    /// leaks a 4 KiB buffer on an empty file (found by the `mapping` fuzz target).
    private static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
            if bytes.count > 16 << 20 { return nil }  // no mapping is that large
        }
    }

    /// The mapping as YAML, with the fields in a stable order.
    /// `columnOrder` lists the headers in file order (mapped or not); `notes` adds a comment after
    /// a column's line, and a header in `columnOrder` that is not mapped is written commented out
    /// with its note, ready to fill in.
    public func yaml(comment: String? = nil, columnOrder: [String]? = nil, notes: [String: String] = [:],
                     unmapped: [String: String] = [:]) -> String {
        var lines: [String] = []
        if let comment { lines += comment.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "#" : "# \($0)" } }
        if let description { lines.append("description: \(quoted(description))") }
        lines.append("target: \(target.rawValue)")
        if let sheet { lines.append("sheet: \(quoted(sheet))") }
        if let headerRow { lines.append("header_row: \(headerRow)") }
        lines.append("columns:")
        let order = columnOrder ?? columns.keys.sorted()
        for header in order {
            if let rule = columns[header] {
                lines.append("  \(quoted(header)): \(rule.yaml)" + (notes[header].map { "   # \($0)" } ?? ""))
            } else if let guess = unmapped[header] {
                lines.append("  # \(quoted(header)): \(guess)")
            }
        }
        for (header, rule) in columns.sorted(by: { $0.key < $1.key }) where !order.contains(header) {
            lines.append("  \(quoted(header)): \(rule.yaml)")
        }
        lines.append("defaults:")
        lines.append("  region: \(defaults.region ?? "US")")
        if let order = defaults.dateOrder { lines.append("  date_order: \(order.rawValue)") }
        if let state = defaults.state { lines.append("  state: \(state)") }
        if let campaign = defaults.campaign { lines.append("  campaign: \(quoted(campaign))") }
        lines.append("dedupe: [\(dedupe.map(\.rawValue).joined(separator: ", "))]")
        if !required.isEmpty { lines.append("required: [\(required.map(\.rawValue).joined(separator: ", "))]") }
        lines.append("extras: \(extras.rawValue)")
        if missingColumns != .error { lines.append("missing_columns: \(missingColumns.rawValue)") }
        if otherColumns != .extras { lines.append("other_columns: \(otherColumns.rawValue)") }
        lines += policyYAML
        return lines.joined(separator: "\n") + "\n"
    }

    func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

public enum DedupeKeyKind: String, Codable, Sendable, CaseIterable {
    case email, phone, address
}

public enum MappingError: Error, CustomStringConvertible, Equatable, Classified {
    /// A mapping or preset that cannot be used is a usage problem.
    public var disposition: FailureDisposition { .usage }

    case unreadable(String)
    case invalid(String, String)
    /// A preset not in the folder looked in (which the message names), with those there.
    case unknownPreset(String, directory: String, isFolder: Bool, available: [String])
    case unknownColumn(String, String, available: [String])
    /// Auto-mapping could not decide with enough confidence.
    case lowConfidence(String, String)
    /// The file or sheet holds no text to plan columns from (or cannot be read twice).
    case nothingToPlan(String, String)

    /// A file or sheet with no text (not standard input, which is `nothingToPlan` too).
    public var isEmptyList: Bool {
        if case .nothingToPlan(let file, _) = self { return file != "-" }
        return false
    }

    public var description: String {
        switch self {
        case .unreadable(let path): return "\(path): cannot read the mapping file"
        case .invalid(let path, let why): return "\(path): not a valid mapping: \(why)"
        case .unknownPreset(let name, let directory, let isFolder, let available):
            guard isFolder else {
                return "no preset \"\(name)\": there is no folder \(directory); LEADPORT_MAPPINGS names the folder to look in"
            }
            guard !available.isEmpty else {
                return "no preset \"\(name)\": \(directory) holds no presets (*.yaml); LEADPORT_MAPPINGS names the folder to look in"
            }
            return "no preset \"\(name)\" in \(directory); the presets are:\n" + available.map { "  " + $0 }.joined(separator: "\n")
        case .unknownColumn(let file, let column, let available):
            return "\(file): the mapping names a column \"\(column)\" that the file does not have; its columns: \(available.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .lowConfidence(let file, let why), .nothingToPlan(let file, let why): return "\(file): \(why)"
        }
    }

    /// Swift's "Cannot initialize Transform from invalid String value shout" in the mapping's terms.
    static func enumProblem(_ text: String) -> String? {
        let choices: [String: [String]] = [
            "Transform": Transform.allCases.map(\.rawValue), "Target": ["contacts", "campaign_addresses", "both"],
            "Extras": ["keep", "notes", "drop"], "MissingColumns": ["error", "ignore"], "OtherColumns": ["extras", "auto"], "DedupeKeyKind": DedupeKeyKind.allCases.map(\.rawValue),
            "DateOrder": DateOrder.allCases.map(\.rawValue), "AddressStyle": AddressStyle.allCases.map(\.rawValue),
            "LeadField": LeadField.allCases.map(\.rawValue), "DeliveryMode": DeliveryMode.allCases.map(\.rawValue),
            "FieldPolicy": FieldPolicy.allCases.map(\.rawValue), "NameOrder": NameOrder.allCases.map(\.rawValue),
        ]
        let prefix = "Cannot initialize "
        guard text.hasPrefix(prefix), let from = text.range(of: " from invalid String value ") else { return nil }
        let type = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<from.lowerBound])
        let value = String(text[from.upperBound...])
        guard let allowed = choices[type] else { return nil }
        let noun = ["DedupeKeyKind": "dedupe key", "DateOrder": "date order", "AddressStyle": "address style", "LeadField": "field", "DeliveryMode": "mode", "FieldPolicy": "field policy", "NameOrder": "name order"][type] ?? type.lowercased()
        return "\"\(value)\" is not a \(noun); expected one of: \(allowed.joined(separator: ", "))"
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
            var path = ""
            for key in c.codingPath {
                if let index = key.intValue { path += "[\(index)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
            }
            var text = enumProblem(c.debugDescription) ?? c.debugDescription
            if case .keyNotFound(let key, _) = error { text = "\"\(key.stringValue)\" is missing" }
            if let under = c.underlyingError { text += " (\(under))" }
            return path.isEmpty ? text : "at \(path): \(text)"
        @unknown default:
            return "\(error)"
        }
    }
}
