import Foundation
import LeadPortKit

// Reads a lead list (CSV or XLSX), maps its columns automatically and prints each cleaned lead
// as one JSON line: name, E.164 phone, email, the USPS address line, and what the rules found.
// Usage: CleanList FILE [MAPPING.yaml]
let arguments = CommandLine.arguments.dropFirst()
guard let file = arguments.first else {
    FileHandle.standardError.write(Data("usage: CleanList FILE [MAPPING.yaml]\n".utf8))
    exit(2)
}
do {
    let mapping = try arguments.dropFirst().first.map { try Mapping.load(path: $0) }
    let list = try LeadList(path: file, mapping: mapping)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    try list.forEach { lead in
        let line: [String: String?] = [
            "row": String(lead.source.row),
            "name": lead.fullName,
            "phone": lead.phone,
            "email": lead.email,
            "address": lead.address.deliveryLine,
            "city": lead.address.city,
            "state": lead.address.state,
            "zip": lead.address.postalCode,
            "issues": lead.issues.isEmpty ? nil : lead.issues.map(\.message).joined(separator: "; "),
        ]
        print(String(decoding: try encoder.encode(line.compactMapValues { $0 }), as: UTF8.self))
    }
} catch {
    FileHandle.standardError.write(Data("CleanList: \(error)\n".utf8))
    exit(1)
}
