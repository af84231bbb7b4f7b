import Crypto
import Foundation
import LeadCore

/// A board's column as monday.com describes it.
public struct MondayColumn: Sendable, Equatable {
    public var id: String
    public var title: String
    /// `email`, `phone`, `text`, `long_text`, `status`, `date`, `dropdown`, `link`, `name`, …
    public var type: String
}

/// An item as a look-up returns it: its id, name, and each column's text by column id.
struct MondayItem: Sendable, Equatable {
    var id: String
    var name: String
    var texts: [String: String]

    init?(json: [String: Any]) {
        guard let id = json["id"].map({ "\($0)" }) else { return nil }
        self.id = id
        name = json["name"] as? String ?? ""
        texts = [:]
        for value in json["column_values"] as? [[String: Any]] ?? [] {
            if let column = value["id"] as? String, let text = value["text"] as? String, !text.isEmpty { texts[column] = text }
        }
    }
}

/// What an item gets for a lead, before the board's column ids are known: its name, and each
/// field's value by the field's name (`email`, `phone`, as the mapping's `update:` names them).
/// Blank values are never held, so a blank cell never clears a column.
///
/// | item | from |
/// | --- | --- |
/// | name | the lead's full name, else its company, email or phone |
/// | `email`, `phone`, `mobile` | email; phone and mobile in E.164 (an extension is not sent: a phone column holds none) |
/// | `company` | company, else the organisation an owner is |
/// | `address`, `city`, `state`, `zip`, `country` | the address's parts (`zip` with its +4 when known) |
/// | `status`, `notes`, `source` | as listed |
public struct MondayItemPayload: Sendable, Equatable {
    public var name: String
    public private(set) var fields: [String: String] = [:]

    public static let fieldNames = ["email", "phone", "mobile", "company", "address", "city", "state", "zip", "country", "status", "notes", "source"]

    public init(name: String, fields: [String: String] = [:]) {
        self.name = name
        for (field, value) in fields { self[field] = value }
    }

    public init(lead: Lead) {
        let address = lead.address
        let company = lead.company ?? lead.organization
        self.init(name: lead.fullName ?? company ?? lead.email ?? lead.phone ?? "")
        self["email"] = lead.email
        self["phone"] = lead.phone
        self["mobile"] = lead.mobile
        self["company"] = company
        self["address"] = address.deliveryLine
        self["city"] = address.city
        self["state"] = address.state
        self["zip"] = address.postalCode.map { code in address.zip4.map { code + "-" + $0 } ?? code }
        self["country"] = address.country
        self["status"] = lead.status
        self["notes"] = lead.notes
        self["source"] = lead.leadSource
    }

    public subscript(_ field: String) -> String? {
        get { fields[field] }
        set {
            let trimmed = newValue?.trimmingCharacters(in: .whitespacesAndNewlines)
            fields[field] = (trimmed?.isEmpty ?? true) ? nil : trimmed
        }
    }

    /// SHA-256 of the name, the fields in byte order, and the board (`salt`): what the ledger
    /// keeps, so that a change to anything sent, or another board, is an update.
    public func hash(salt: String) -> String {
        var out: [UInt8] = []
        let sorted = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
        for (key, value) in [("", salt), (" name", name)] + sorted {
            JSONText.appendQuoted(key, to: &out)
            JSONText.appendQuoted(value, to: &out)
        }
        return SHA256.hash(data: out).map { String(format: "%02x", $0) }.joined()
    }
}

/// Which of the board's columns each field goes to (`MondayMapping.layout`), and how a value
/// is written for the column's type.
struct MondayLayout: Sendable, Equatable {
    /// Field name → column; a field without a column on the board is not sent.
    var columns: [String: MondayColumn]
    /// The column items are found again by.
    var dedupe: (field: String, column: MondayColumn)

    static func == (a: MondayLayout, b: MondayLayout) -> Bool { a.columns == b.columns && a.dedupe == b.dedupe }

    /// `column_values` for `create_item` and `change_multiple_column_values`: a JSON object, as a
    /// string, keyed by column id (`name` for the item's name, when given).
    func columnValues(_ fields: [String: String], name: String?, country: String?) -> String {
        var object: [String: Any] = [:]
        if let name { object["name"] = name }
        for (field, value) in fields {
            guard let column = columns[field] else { continue }
            object[column.id] = Self.value(value, type: column.type, country: country)
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A value in the shape monday.com's column type takes (its column-types reference).
    static func value(_ text: String, type: String, country: String?) -> Any {
        switch type {
        case "email": return ["email": text, "text": text]
        case "phone":
            // The country the number is dialled in: a NANP number's is US, others the address's.
            let code = text.hasPrefix("+1") ? "US" : country.flatMap { $0.count == 2 ? $0.uppercased() : nil }
            return code.map { ["phone": text, "countryShortName": $0] } ?? ["phone": text]
        case "status": return ["label": text]
        case "long_text": return ["text": text]
        case "date": return ["date": text]
        case "dropdown": return ["labels": [text]]
        case "link": return ["url": text, "text": text]
        default: return text
        }
    }

    /// An item's values by field, as its columns' texts.
    func fields(of item: MondayItem) -> [String: String] {
        var held: [String: String] = [:]
        for (field, column) in columns { held[field] = item.texts[column.id] }
        return held
    }

    /// Whether `item` holds the name and every field sent (an email in any case).
    func holds(_ item: MondayItem, name: String?, _ fields: [String: String]) -> Bool {
        guard name.map({ $0 == item.name }) ?? true else { return false }
        let held = self.fields(of: item)
        return fields.allSatisfy { field, value in
            guard columns[field] != nil, let current = held[field] else { return columns[field] == nil }
            return field == dedupe.field ? current.caseInsensitiveCompare(value) == .orderedSame : current == value
        }
    }
}
