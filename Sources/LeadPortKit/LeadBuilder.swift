import Foundation
import LeadCore
import LeadNormalize

/// Turns one row into a lead through the column plan and every rule, recording where each
/// field came from and every problem found.
public struct LeadBuilder: Sendable {
    public let plan: ColumnPlan
    public let region: String
    public let dateOrder: DateOrder?
    public let defaultState: String?
    public let style: AddressStyle
    /// Per column, from the plan's dictionaries once instead of for every cell: its field, its
    /// transforms, and the header it is kept under as an extra (nil: not kept).
    private let fieldAt: [LeadField?]
    private let transformAt: [ColumnRule?]
    private let extraHeaderAt: [String?]

    public init(plan: ColumnPlan, region: String, dateOrder: DateOrder?, defaultState: String?, style: AddressStyle) {
        (self.plan, self.region, self.dateOrder, self.defaultState, self.style) = (plan, region, dateOrder, defaultState, style)
        let columns = max(plan.width, (plan.fields.keys.max() ?? -1) + 1, (plan.transforms.keys.max() ?? -1) + 1, (plan.ignored.max() ?? -1) + 1)
        fieldAt = (0..<columns).map { plan.fields[$0] }
        transformAt = (0..<columns).map { plan.transforms[$0] }
        extraHeaderAt = (0..<columns).map { k in
            guard plan.fields[k] == nil, plan.mapping.extras != .drop, !plan.ignored.contains(k) else { return nil }
            return k < plan.headers.count && !plan.headers[k].isEmpty ? plan.headers[k] : Column.letters(for: k)
        }
    }

    public func build(_ row: RawRow) -> Lead {
        var lead = Lead(source: row.location)
        // Filled in a function of its own: built in this one, with the nested functions and
        // the values they capture, the lead was copied whole into the result at the end.
        fill(&lead, from: row)
        return lead
    }

    private func fill(_ lead: inout Lead, from row: RawRow) {
        // A reader measures a ragged row against the file's first record, which in a list with
        // a title row is the title; here it is measured against the header instead.
        lead.issues = row.issues.filter { $0.code != .raggedRow }
        let cells = row.trimmedCells
        // (A list with nothing in it has no columns, and no row of it is ragged.)
        if cells.count > plan.width, plan.width > 0 {
            let extra = cells[plan.width...].filter { !$0.isEmpty }.map { "\"\($0)\"" }.joined(separator: ", ")
            lead.issues.append(LeadIssue(.raggedRow, "row has \(cells.count) cells where the list has \(plan.width) columns; beyond them: \(extra)",
                                         at: row.location))
        }
        var values = FieldValues()
        for (k, cell) in row.cells.enumerated() {
            var value = cell.trimmed
            let known = k < fieldAt.count
            if known, let rule = transformAt[k] { value = rule.apply(value).trimmed }
            guard !value.isEmpty else { continue }
            if known, let field = fieldAt[k] {
                if values[field] == nil || plan.overriding.contains(k) { values[field] = (value, k) }
            } else if let header = known ? extraHeaderAt[k] : (plan.mapping.extras != .drop ? Column.letters(for: k) : nil) {
                lead.extras.append((header, value))
            }
        }
        // Captures the headers alone: a closure over `self` copied the whole builder (its plan and
        // mapping) for every row.
        let headers = plan.headers
        func located(_ k: Int) -> SourceLocation {
            var l = row.location
            l.column = Column(index: k, name: k < headers.count ? headers[k] : nil)
            return l
        }
        // The lead is handed in, not captured: a captured `lead` could not be moved out at the
        // end, and was copied whole for every row.
        func origin(_ field: LeadField, of lead: inout Lead) { if let (_, k) = values[field] { lead.origins[field] = .column(Column(index: k)) } }

        // Names.
        if let (text, k) = values[.fullName] {
            let n = NameRule.parse(text, order: plan.surnameFirst.contains(k) ? .lastFirst : .firstLast)
            (lead.prefix, lead.givenName, lead.middleName, lead.familyName, lead.suffix, lead.nickname) = (n.prefix, n.given, n.middle, n.family, n.suffix, n.nickname)
            (lead.household, lead.secondGivenName, lead.secondFamilyName, lead.secondPrefix) = (n.household, n.secondGiven, n.secondFamily, n.secondPrefix)
            lead.otherOwners = n.otherOwners
            (lead.organization, lead.designation) = (n.organization, n.designation)
            origin(.fullName, of: &lead)
        }
        if let (text, _) = values[.firstName] { lead.givenName = NameRule.properCase(text); origin(.firstName, of: &lead) }
        if let (text, _) = values[.lastName] {
            // An entity owner in the last-name column, the first name empty: an organisation.
            if values[.firstName] == nil, let organization = NameRule.organization(in: text) {
                if lead.organization == nil { lead.organization = organization }
            } else {
                lead.familyName = NameRule.properCaseFamily(text)
            }
            origin(.lastName, of: &lead)
        }
        // Email.
        if let (text, k) = values[.email] {
            let r = EmailRule.normalize(text)
            if r.valid {
                lead.email = r.normalized
                origin(.email, of: &lead)
                if let repair = r.repair { lead.issues.append(LeadIssue(.repairedValue, "email \"\(text)\": \(repair)", at: located(k))) }
            } else {
                lead.issues.append(LeadIssue(.invalidEmail, "email \"\(text)\": \(r.problem ?? "not valid")", at: located(k)))
            }
            if let suggestion = r.suggestion {
                lead.emailSuggestion = suggestion
                lead.issues.append(LeadIssue(.emailSuggestion, "email \"\(text)\": did you mean \(suggestion)? (not applied)", at: located(k)))
            }
        }
        // Phones.
        for field in Self.phoneFields {
            guard let (text, k) = values[field] else { continue }
            let r = PhoneRule.normalize(text, region: region, wantType: false)
            if r.valid, let e164 = r.e164 {
                if field == .phone { lead.phone = e164; lead.phoneExtension = r.extension } else { lead.mobile = e164 }
                origin(field, of: &lead)
            } else {
                lead.issues.append(LeadIssue(.invalidPhone, "phone \"\(text)\": \(r.problem ?? "not valid")", at: located(k)))
            }
        }
        // Property address: one line, or street + city/state/zip columns.
        if let (text, k) = values[.address] {
            let hasParts = values[.city] != nil || values[.state] != nil || values[.zip] != nil
            var parsed = hasParts ? AddressRule.parseStreetLine(text, style: style) : AddressRule.parse(text, style: style, defaultState: defaultState)
            swap(&lead.address, &parsed.address)  // moved, not copied: the parse is not read for it again
            for problem in parsed.problems { lead.issues.append(LeadIssue(.invalidAddress, "address \"\(text)\": \(problem)", at: located(k))) }
            for repair in parsed.repairs { lead.issues.append(LeadIssue(.repairedValue, repair, at: located(k))) }
            origin(.address, of: &lead)
        }
        // Taken out of the lead while the lead is changed beside it (moved, not copied).
        var property = PostalAddress()
        swap(&property, &lead.address)
        applyParts(&property, city: values[.city], state: values[.state], zip: values[.zip], unit: values[.unit], lead: &lead,
                   label: "", located: located)
        lead.address = property
        if values[.mailingAddress] != nil || values[.mailingCity] != nil || values[.mailingZip] != nil {
            var mailing = PostalAddress()
            if let (text, _) = values[.mailingAddress] {
                let hasParts = values[.mailingCity] != nil || values[.mailingZip] != nil
                mailing = (hasParts ? AddressRule.parseStreetLine(text, style: style) : AddressRule.parse(text, style: style)).address
            }
            applyParts(&mailing, city: values[.mailingCity], state: values[.mailingState], zip: values[.mailingZip], unit: nil, lead: &lead,
                       label: "mailing ", located: located)
            lead.mailingAddress = mailing
        }
        // The rest.
        if let (text, _) = values[.company] { lead.company = text }
        if let (text, _) = values[.notes] { lead.notes = text }
        if let (text, _) = values[.status] { lead.status = text }
        if let (text, _) = values[.source] { lead.leadSource = text }
        if let (text, k) = values[.date] {
            let r = DateRule.normalize(text, order: dateOrder)
            if r.valid { lead.date = r.iso.map { String($0.prefix(10)) } } else {
                lead.issues.append(LeadIssue(r.ambiguous ? .ambiguousDate : .invalidDate, "date \"\(text)\": \(r.problem ?? "not a date")", at: located(k)))
            }
        }
        buildCoordinate(values, lead: &lead, located: located)
        if plan.mapping.extras == .notes, !lead.extras.isEmpty {
            let lines = lead.extras.map { "\($0.header): \($0.value)" }
            lead.notes = ([lead.notes].compactMap { $0 } + lines).joined(separator: "\n")
        }
    }

    private static let phoneFields: [LeadField] = [.phone, .mobile]

    /// Latitude and longitude, kept together when both are degrees within their ranges; each
    /// problem is the row's issue, and a half alone is no position.
    private func buildCoordinate(_ values: FieldValues, lead: inout Lead, located: (Int) -> SourceLocation) {
        guard values[.latitude] != nil || values[.longitude] != nil else { return }
        var parts: [Double?] = []
        for (field, limit) in [(LeadField.latitude, 90.0), (.longitude, 180.0)] {
            guard let (text, k) = values[field] else {
                parts.append(nil)
                continue
            }
            guard let degrees = Coordinate.degrees(text) else {
                lead.issues.append(LeadIssue(.invalidCoordinate, "\(field.rawValue) \"\(text)\": not a number of degrees", at: located(k)))
                parts.append(nil)
                continue
            }
            guard abs(degrees) <= limit else {
                lead.issues.append(LeadIssue(.invalidCoordinate, "\(field.rawValue) \"\(text)\": outside -\(Int(limit))…\(Int(limit)) degrees", at: located(k)))
                parts.append(nil)
                continue
            }
            parts.append(degrees)
        }
        switch (parts[0], parts[1]) {
        case let (latitude?, longitude?):
            lead.coordinate = Coordinate(latitude: latitude, longitude: longitude)
            if let (_, k) = values[.latitude] { lead.origins[.latitude] = .column(Column(index: k)) }
            if let (_, k) = values[.longitude] { lead.origins[.longitude] = .column(Column(index: k)) }
        case (nil, nil):
            break
        case (_?, nil):
            if values[.longitude] == nil, let (_, k) = values[.latitude] {
                lead.issues.append(LeadIssue(.invalidCoordinate, "a latitude without a longitude: no position kept", at: located(k)))
            }
        case (nil, _?):
            if values[.latitude] == nil, let (_, k) = values[.longitude] {
                lead.issues.append(LeadIssue(.invalidCoordinate, "a longitude without a latitude: no position kept", at: located(k)))
            }
        }
    }

    private func applyParts(_ address: inout PostalAddress, city: (String, Int)?, state: (String, Int)?, zip: (String, Int)?, unit: (String, Int)?,
                            lead: inout Lead, label: String, located: (Int) -> SourceLocation) {
        let usps = style == .usps
        if let (text, _) = city { address.city = usps ? text.uppercased() : text }
        if let (text, k) = state {
            if let code = StateTable.code(for: text) { address.state = code } else {
                lead.issues.append(LeadIssue(.invalidAddress, "\(label)state \"\(text)\" is not a US state or Canadian province", at: located(k)))
            }
        }
        if let (text, _) = unit {
            let parsed = AddressRule.parseStreetLine("0 X ST " + text, style: style).address
            address.unitType = parsed.unitType ?? (usps ? "#" : nil)
            address.unitID = parsed.unitID ?? text
        }
        if let (text, k) = zip {
            let state = address.state ?? defaultState
            // Characters counted only when there may be six (never more than the bytes): most
            // ZIPs are five bytes, and counting characters walks the text's grapheme clusters.
            let characters = text.utf8.count < 6 ? text.utf8.count : text.count
            if characters == 6 || characters == 7, text.first?.isLetter == true {
                address.postalCode = text.uppercased().replacingOccurrences(of: " ", with: "").enumerated().map { $0.offset == 3 ? " \($0.element)" : String($0.element) }.joined()
                address.country = "CA"
            } else {
                let (repair, problem) = ExcelRepair.applyUSZip(text, state: state, to: &address)
                if let repair { lead.issues.append(LeadIssue(.repairedValue, label + repair, at: located(k))) }
                if let problem { lead.issues.append(LeadIssue(.invalidAddress, "\(label)ZIP \"\(text)\": \(problem)", at: located(k))) }
            }
        }
        if address.state == nil, let defaultState, !address.isEmpty { address.state = StateTable.code(for: defaultState) }
        if address.country == nil, !address.isEmpty { address.country = address.state.map { StateTable.isCanadian($0) ? "CA" : "US" } ?? "US" }
    }
}

/// One row's first non-empty cell (and its column) per field: an array indexed by the field's
/// ordinal, since a row's fields are looked up dozens of times while it is built.
///
/// The slots are plain integers and the values a short array of the fields the row has: an
/// array of optional tuples, one per field, would be freed element by element through Swift's
/// generic value witnesses, some 4,000 instructions a row for forty-odd empty slots.
struct FieldValues {
    /// `allCases` makes a new array each time it is read: counted once.
    private static let fieldCount = LeadField.allCases.count

    private struct Value {
        var text: String
        var column: Int
    }

    /// By field: where its value is in `found`, or -1.
    private var slots = [Int32](repeating: -1, count: FieldValues.fieldCount)
    private var found: [Value] = []

    init() { found.reserveCapacity(16) }

    subscript(_ field: LeadField) -> (String, Int)? {
        get {
            let slot = Int(slots[field.ordinal])
            return slot < 0 ? nil : (found[slot].text, found[slot].column)
        }
        set {
            let slot = Int(slots[field.ordinal])
            guard let (text, column) = newValue else {
                slots[field.ordinal] = -1
                return
            }
            if slot >= 0 {
                found[slot] = Value(text: text, column: column)
            } else {
                slots[field.ordinal] = Int32(found.count)
                found.append(Value(text: text, column: column))
            }
        }
    }
}
