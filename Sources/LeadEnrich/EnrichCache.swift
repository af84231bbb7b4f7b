import Crypto
import Foundation
import LeadCore

/// How answers are remembered: by the endpoint, the model, what the spec asks
/// (its instructions and fields, not its budget or batch size) and the row's sent content, so
/// a rerun, or the same row in another file, costs nothing. The store keeps the answers
/// (`LeadStore.enrichAnswers`); this says what they are filed under and how they are written.
public enum EnrichCache {
    /// Changes with the way LeadPort asks (the system prompt, the schema's shape): answers to
    /// an older way are not reused.
    static let promptVersion = "leadport-enrich-1"

    /// What the spec asks, as one text: instructions and fields, in the spec's order.
    public static func fingerprint(_ spec: EnrichSpec) -> String {
        var parts = [promptVersion, spec.instructions]
        for field in spec.fields {
            let type: String
            switch field.type {
            case .choice(let items): type = "enum:" + items.joined(separator: "|")
            default: type = field.type.schema
            }
            parts += [field.name, type, field.description ?? "", field.mapsTo?.rawValue ?? ""]
        }
        return parts.joined(separator: "\u{1F}")
    }

    /// The key of one row's answer: a SHA-256 of the endpoint, the model, the spec's
    /// fingerprint and the row's cells sorted by header (a row of the same cells in another
    /// file, its columns in another order, is the same row).
    public static func key(endpoint: String, model: String, fingerprint: String, row: EnrichRow) -> String {
        var text = [endpoint, model, fingerprint].joined(separator: "\u{1E}")
        for cell in row.cells.sorted(by: { $0.header < $1.header }) {
            text += "\u{1E}" + cell.header + "\u{1F}" + cell.value
        }
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A row's values as JSON text, fields in the spec's order.
    public static func encode(_ values: [String: EnrichValue], spec: EnrichSpec) -> String {
        var o = JSONObject()
        for field in spec.fields {
            switch values[field.name] ?? .null {
            case .text(let text): o.set(field.name, text)
            case .integer(let n): o.set(field.name, n)
            case .number(let x): o.set(field.name, json: x.isFinite ? String(x) : "null")
            case .boolean(let b): o.set(field.name, b)
            case .null: o.set(field.name, json: "null")
            }
        }
        return o.text
    }

    /// The values written by `encode`, typed by the spec; nil when they do not fit it (the
    /// spec's fields changed their type since: the row is asked again).
    public static func decode(_ text: String, spec: EnrichSpec) -> [String: EnrichValue]? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { return nil }
        var values: [String: EnrichValue] = [:]
        for field in spec.fields {
            guard case .success(let value) = EnrichAnswer.check(object[field.name], field) else { return nil }
            values[field.name] = value
        }
        return values
    }
}
