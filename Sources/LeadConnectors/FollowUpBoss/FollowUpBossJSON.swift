import Foundation
import LeadCore

/// A JSON value as LeadPort sends it to Follow Up Boss, written in one canonical form: object
/// keys sorted by their UTF-8 bytes, no whitespace, strings escaped as `JSONText` escapes
/// them. The bytes a request carries are these bytes, so a hash of them is a hash of exactly
/// what was sent, and the same payload always hashes the same.
public indirect enum FollowUpBossJSON: Sendable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case array([FollowUpBossJSON])
    case object([String: FollowUpBossJSON])

    /// The canonical encoding.
    public var canonicalData: Data {
        var out: [UInt8] = []
        append(to: &out)
        return Data(out)
    }

    public var canonicalText: String { String(decoding: canonicalData, as: UTF8.self) }

    private func append(to out: inout [UInt8]) {
        switch self {
        case .string(let text):
            JSONText.appendQuoted(text, to: &out)
        case .int(let n):
            out.append(contentsOf: String(n).utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                item.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            let keys = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (k, key) in keys.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                fields[key]!.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

/// Reading the API's answers, which come as untyped JSON: small accessors that take what is
/// there and ignore what is not.
enum FollowUpBossReading {
    static func object(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// A string, or a number written as one (ids and prices come either way).
    static func text(_ value: Any?) -> String? {
        switch value {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    static func int(_ value: Any?) -> Int? {
        switch value {
        case let n as NSNumber: return n.intValue
        case let s as String: return Int(s)
        default: return nil
        }
    }
}
