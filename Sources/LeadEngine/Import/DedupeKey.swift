import LeadCore
import LeadNormalize
import LeadPortKit
import LeadReaders
import LeadStore
import LeadWriters

/// The key a lead is known by, in the mapping's order: `email:…`, `phone:+1…|family`,
/// `address:123 N MAIN ST #4|02134`.
enum DedupeKey {
    static func make(_ lead: Lead, kinds: [DedupeKeyKind]) -> String? {
        for kind in kinds {
            switch kind {
            case .email:
                if let email = lead.email { return "email:" + lowercased(email) }
            case .phone:
                if let phone = lead.phone ?? lead.mobile { return "phone:" + phone + "|" + (lead.familyName.map(lowercased) ?? "") }
            case .address:
                // In USPS form whatever the mapping's address style (`Avenue` and `AVE` are one
                // street), and the unit by its id alone (`APT 4`, `UNIT 4` and `#4` are one door).
                let a = AddressRule.uspsForm(lead.address)
                let street = a.streetLine.map { [a.houseNumber, $0].compactMap { $0 }.joined(separator: " ") }
                if let line = a.boxLine ?? street ?? a.deliveryLine {
                    let unit = a.unitID.map { " #" + $0.uppercased() } ?? ""
                    return "address:" + line.uppercased() + unit + "|" + (a.postalCode ?? a.city?.uppercased() ?? "")
                }
            }
        }
        return nil
    }

    /// `text.lowercased()`, which maps each Unicode scalar on its own (its lowercase mapping):
    /// done here on the bytes for ASCII, and a text with nothing to lower kept as it is. The
    /// standard library's appends every scalar's mapping as a string, some 16,000 instructions
    /// for an email with an `ë` in it.
    static func lowercased(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                bytes.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
            } else {
                bytes.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The normalised columns added to the processed spreadsheet.
enum ExportColumns {
    static let names = ["full_name", "first_name", "last_name", "organization", "designation", "salutation", "email", "email_suggestion", "phone",
                        "phone_extension", "mobile", "address", "house_number",
                        "street", "unit", "city", "state", "zip", "mailing_address", "mailing_street", "mailing_city", "mailing_state", "mailing_zip",
                        "latitude", "longitude", "date", "issues"]

    /// The normalised columns' header after the source's own columns: a name the source (or an
    /// enrichment) already uses, compared without case, gets " (cleaned)", so that each header
    /// names one column and a person can tell the value read from the value cleaned.
    static func header(after source: [String], trailing: [String] = []) -> [String] {
        var taken = Set(source.map { $0.trimmingCharacters().lowercased() })
        var header = source
        for name in names + trailing {
            var unique = name
            if taken.contains(unique.lowercased()) { unique = name + " (cleaned)" }
            var n = 2
            while taken.contains(unique.lowercased()) {
                unique = "\(name) (cleaned \(n))"
                n += 1
            }
            taken.insert(unique.lowercased())
            header.append(unique)
        }
        return header
    }

    private static func zip(_ a: PostalAddress) -> String { a.zip4.map { "\(a.postalCode ?? "")-\($0)" } ?? a.postalCode ?? "" }

    /// Phones, ZIPs and the rest as text; the date as a real date.
    static func values(_ lead: Lead) -> [SheetCell] {
        let a = lead.address
        let unit = a.unit ?? ""
        let m = lead.mailingAddress
        let text: [String] = [lead.fullName ?? "", lead.givenName ?? "", lead.familyName ?? "", lead.organization ?? "", lead.designation ?? "",
                              lead.salutation, lead.email ?? "", lead.emailSuggestion ?? "",
                              lead.phone ?? "", lead.phoneExtension ?? "", lead.mobile ?? "", a.formatted ?? "", a.houseNumber ?? "",
                              a.poBoxID.map { "PO BOX \($0)" } ?? a.streetLine ?? "", unit, a.city ?? "", a.state ?? "", zip(a),
                              m?.formatted ?? "", m?.deliveryLine ?? "", m?.city ?? "", m?.state ?? "", m.map(zip) ?? ""]
        let position: [SheetCell] = lead.coordinate.map { [.number($0.latitude), .number($0.longitude)] } ?? [.text(""), .text("")]
        return text.map(SheetCell.text) + position + [lead.date.map(SheetCell.date) ?? .text(""), .text(lead.issues.map(\.message).joined(separator: "; "))]
    }
}

extension DedupeKey {
    /// Why two rows with this key are the same lead, in words.
    static func reason(_ key: String, lead: Lead) -> String {
        switch key.prefix(while: { $0 != ":" }) {
        case "email": return "same email"
        case "phone": return "same phone and family name"
        case "address": return lead.address.unitID != nil ? "same address and unit" : "same address"
        case "row": return "the same row of the same file"
        default: return "same key"
        }
    }
}

/// Whether a lead has a field a mapping requires, and which mapped fields can supply it.
enum RequiredField {
    static func isPresent(_ field: LeadField, in lead: Lead) -> Bool {
        let a = lead.address
        switch field {
        case .fullName: return lead.fullName != nil
        case .firstName: return lead.givenName != nil
        case .lastName: return lead.familyName != nil
        case .email: return lead.email != nil
        case .phone: return lead.phone != nil || lead.mobile != nil
        case .mobile: return lead.mobile != nil
        case .company: return lead.company != nil
        case .notes: return lead.notes != nil
        case .status: return lead.status != nil
        case .source: return lead.leadSource != nil
        case .date: return lead.date != nil
        case .address: return a.hasDeliveryLine
        case .unit: return a.unitID != nil
        case .city: return a.city != nil
        case .state: return a.state != nil
        case .zip: return a.postalCode != nil
        case .country: return a.country != nil
        case .mailingAddress: return lead.mailingAddress?.hasDeliveryLine == true
        case .mailingCity: return lead.mailingAddress?.city != nil
        case .mailingState: return lead.mailingAddress?.state != nil
        case .mailingZip: return lead.mailingAddress?.postalCode != nil
        case .latitude, .longitude: return lead.coordinate != nil
        }
    }

    /// Whether a column mapped to `mapped` feeds the required `field` (a full name feeds the
    /// first and last names; a one-line address feeds its city, state and ZIP).
    static func feeds(_ mapped: LeadField, _ field: LeadField) -> Bool {
        if mapped == field { return true }
        switch field {
        case .fullName: return mapped == .firstName || mapped == .lastName
        case .firstName, .lastName: return mapped == .fullName
        case .phone: return mapped == .mobile
        case .city, .state, .zip, .unit: return mapped == .address
        case .mailingCity, .mailingState, .mailingZip: return mapped == .mailingAddress
        default: return false
        }
    }
}

/// A row as the ledger remembers it: its cells, and everything that turns cells into a lead
/// (the build, the mapping and column plan, the options, the scope). Equal hashes mean the
/// same lead would be built (FNV-1a, 64 bits).
enum RowHash {
    /// Whose the rows are when neither the run nor its destination says: the nil UUID, as
    /// fingerprints have always named it, so that a rerun still passes over the rows an
    /// earlier run wrote (it was FLYR's local user, which every fingerprint named then).
    static let unowned = "00000000-0000-0000-0000-000000000000"

    /// `target`: the mapping's `target:` (`RunScope.target`; nil without a mapping).
    static func fingerprint(plan: ColumnPlan, options: ImportOptions, scope: String?, user: String, target: String?) -> UInt64 {
        var parts = [options.buildIdentity, plan.mapping.yaml(), plan.headers.joined(separator: "\u{1F}"),
                     plan.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }.joined(separator: ","),
                     plan.ignored.sorted().map(String.init).joined(separator: ","),
                     options.region ?? "", options.dateOrder.map { "\($0)" } ?? "", scope ?? "", target ?? "", user]
        parts.append(String(plan.width))
        var h = FNV64()
        for part in parts { h.mix(part) }
        return h.value
    }

    /// Kept as a number while the run looks rows up (a 16-digit text key cost an allocation,
    /// SipHash over it and a compare per look-up on the main thread of a rerun); the ledger
    /// stores it as `text`.
    static func of(_ cells: [String], fingerprint: UInt64) -> UInt64 {
        var h = FNV64(seed: fingerprint)
        for cell in cells { h.mix(cell) }
        return h.value
    }

    /// The hash as the ledger's `row_hash` column holds it: lower-case hexadecimal.
    static func text(_ hash: UInt64) -> String { String(hash, radix: 16) }
}
