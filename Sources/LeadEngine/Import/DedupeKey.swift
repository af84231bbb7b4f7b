import LeadCore
import LeadNormalize
import LeadWriters

/// The key a lead is known by, in the mapping's order: `email:…`, `phone:+1…|family`,
/// `address:123 N MAIN ST APT 4|02134`.
enum DedupeKey {
    static func make(_ lead: Lead, kinds: [DedupeKeyKind]) -> String? {
        for kind in kinds {
            switch kind {
            case .email:
                if let email = lead.email { return "email:" + email.lowercased() }
            case .phone:
                if let phone = lead.phone ?? lead.mobile { return "phone:" + phone + "|" + (lead.familyName?.lowercased() ?? "") }
            case .address:
                if let line = lead.address.deliveryLine {
                    return "address:" + line.uppercased() + "|" + (lead.address.postalCode ?? lead.address.city?.uppercased() ?? "")
                }
            }
        }
        return nil
    }
}

/// A stable hash of what would be sent, so an unchanged lead is not sent again (FNV-1a, 64 bits).
enum ContentHash {
    static func of(_ lead: Lead, target: Mapping.Target) -> String {
        let parts: [String?] = [target.rawValue, lead.fullName, lead.email, lead.phone, lead.mobile, lead.company, lead.notes,
                                lead.address.formatted, lead.mailingAddress?.formatted]
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for b in (part ?? "\u{0}").utf8 {
                h ^= UInt64(b)
                h = h &* 0x100_0000_01b3
            }
            h ^= 0x1f
            h = h &* 0x100_0000_01b3
        }
        return String(h, radix: 16)
    }
}

/// The normalised columns added to the processed spreadsheet.
enum ExportColumns {
    static let names = ["full_name", "first_name", "last_name", "email", "email_suggestion", "phone", "mobile", "address", "house_number",
                        "street", "unit", "city", "state", "zip", "date", "issues"]

    /// Phones, ZIPs and the rest as text; the date as a real date.
    static func values(_ lead: Lead) -> [SheetCell] {
        let a = lead.address
        let unit = [a.unitType, a.unitID].compactMap { $0 }.joined(separator: " ")
        let text: [String] = [lead.fullName ?? "", lead.givenName ?? "", lead.familyName ?? "", lead.email ?? "", lead.emailSuggestion ?? "",
                              lead.phone ?? "", lead.mobile ?? "", a.formatted ?? "", a.houseNumber ?? "",
                              a.poBoxID.map { "PO BOX \($0)" } ?? a.streetLine ?? "", unit, a.city ?? "", a.state ?? "",
                              a.zip4.map { "\(a.postalCode ?? "")-\($0)" } ?? a.postalCode ?? ""]
        return text.map(SheetCell.text) + [lead.date.map(SheetCell.date) ?? .text(""), .text(lead.issues.map(\.message).joined(separator: "; "))]
    }
}
