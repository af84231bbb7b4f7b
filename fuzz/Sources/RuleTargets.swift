import Foundation
import LeadNormalize

/// One target per normalisation rule (the input as one cell's text) and one for the mapping
/// file parser.
enum RuleTargets {
    static let all = [
        FuzzTarget(name: "phone") { data in
            let (setting, text) = cell(data)
            _ = PhoneRule.normalize(text, region: ["US", "CA", "GB", "MY"][Int(setting & 3)])
        },
        FuzzTarget(name: "email") { data in _ = EmailRule.normalize(cell(data).text) },
        FuzzTarget(name: "name") { data in _ = NameRule.parse(cell(data).text) },
        FuzzTarget(name: "address") { data in
            let (setting, text) = cell(data)
            _ = AddressRule.parse(text, style: setting & 1 == 0 ? .usps : .asWritten)
        },
        FuzzTarget(name: "date") { data in
            let (setting, text) = cell(data)
            _ = DateRule.normalize(text, order: [nil, .mdy, .dmy][Int(setting % 3)], date1904: setting & 4 != 0)
        },
        FuzzTarget(name: "mapping") { data in
            _ = try? Mapping.load(path: ScratchFile.write(data, suffix: ".yaml"))
        },
    ]

    /// The first byte as the target's settings, the rest as text (invalid UTF-8 repaired, as
    /// every reader hands cells over).
    static func cell(_ data: UnsafeBufferPointer<UInt8>) -> (setting: UInt8, text: String) {
        let (setting, rest) = ReaderTargets.settings(data)
        return (setting, String(decoding: rest, as: UTF8.self))
    }
}
