import ArgumentParser
import Foundation
import LeadCore
import LeadEngine
import LeadNormalize

/// `leadport normalize KIND`: one value per line in, one JSON object per line out.
struct Normalize: ParsableCommand {
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case phone, email, name, address, date
    }

    static let configuration = CommandConfiguration(
        abstract: "Run one normalisation rule over values read from standard input.",
        discussion: """
            Reads one value per line on stdin and writes one JSON object per line on stdout, \
            in the same order. Fields that do not apply are null.
              phone    input, e164, valid, possible, number_type, region, extension
              email    input, valid, normalized, suggestion, problem, and repair when a \
            `,` `;` or `.` copied after a valid address was taken off
              name     input, prefix, given, middle, family, suffix, nickname, household, \
            second_prefix, second_given, second_middle, second_family, other_owners (only for a third \
            owner and more: prefix, given, middle, family of each), organization, designation, \
            salutation (--order first-last|last-first|auto; auto reads every line first and decides \
            for all of them, as for one column)
              address  input, recipient, house_number, street_predirectional, street_name, \
            street_suffix, street_postdirectional, unit_type, unit_id, po_box_id, city, state, \
            zip, zip4, country, formatted, unparsed
              date     input, iso, time, valid, ambiguous
            Example: printf '(617) 555-0100\\n' | leadport normalize phone
            """
    )

    @Argument(help: "What the values are: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kind: Kind

    @Option(help: "Default region for phones without a country code (ISO 3166 code).")
    var region = "US"

    @Option(help: "Address style: usps (Publication 28 abbreviations, upper case) or as-written.")
    var style: AddressStyle = .usps

    @Option(help: "Country of addresses that show none (no postal code, state, province or country name): US or CA.")
    var country: String = "US"

    @Option(help: ArgumentHelp("Dates: how to read 03/04/2024, mdy or dmy (without it such dates are flagged as ambiguous). "
                               + "Names: first-last (the default), last-first (county order, SMITH JOHN), or auto (decided from all the lines).",
                               valueName: "order"))
    var order: String?

    /// `--order` for dates.
    var dateOrder: DateOrder? { order.flatMap(DateOrder.init(rawValue:)) }
    /// `--order` for names.
    var nameOrder: NameOrder { order.flatMap(NameOrder.init(rawValue:)) ?? .firstLast }

    @Option(help: "Excel date system for serial numbers: 1900 or 1904.")
    var dateSystem = 1900

    func validate() throws {
        if let order {
            switch kind {
            case .date where DateOrder(rawValue: order) == nil: throw ValidationError("--order for dates is mdy or dmy")
            case .name where NameOrder(rawValue: order) == nil: throw ValidationError("--order for names is first-last, last-first or auto")
            case .phone, .email, .address: throw ValidationError("--order applies to names and dates")
            default: break
            }
        }
        guard dateSystem == 1900 || dateSystem == 1904 else { throw ValidationError("--date-system must be 1900 or 1904") }
        guard ["US", "CA"].contains(country.uppercased()) else { throw ValidationError("--country must be US or CA") }
        if kind == .phone, !PhoneRule.knowsRegion(region) { throw ValidationError("--region: " + PhoneRule.unknownRegion(region)) }
    }

    func run() throws {
        let out = StandardOutput.shared
        if kind == .name, nameOrder == .auto {
            // The lines are one column: read them all, decide its order, then write them.
            var lines: [String] = []
            while let line = readLine(strippingNewline: true) { lines.append(line.hasSuffix("\r") ? String(line.dropLast()) : line) }
            let order = NameOrder.decide(lines)
            for value in lines { try out.write(NormalizeJSON.render(kind: kind, value: value, options: self, nameOrder: order) + "\n") }
            return
        }
        while let line = readLine(strippingNewline: true) {
            let value = line.hasSuffix("\r") ? String(line.dropLast()) : line
            try out.write(NormalizeJSON.render(kind: kind, value: value, options: self, nameOrder: nameOrder) + "\n")
        }
    }
}

extension AddressStyle: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}


enum NormalizeJSON {
    /// The third owner and those after it, as an array of objects.
    static func ownersJSON(_ owners: [CoOwner]) -> String {
        "[" + owners.map { owner in
            var o = JSONObject()
            o.set("prefix", owner.prefix)
            o.set("given", owner.given)
            o.set("middle", owner.middle)
            o.set("family", owner.family)
            return o.text
        }.joined(separator: ",") + "]"
    }

    static func render(kind: Normalize.Kind, value: String, options: Normalize, nameOrder: NameOrder) -> String {
        var o = JSONObject()
        o.set("input", value)
        switch kind {
        case .phone:
            let r = PhoneRule.normalize(value, region: options.region)
            o.set("e164", r.e164)
            o.set("valid", r.valid)
            o.set("possible", r.possible)
            o.set("number_type", r.numberType)
            o.set("region", r.region)
            o.set("extension", r.extension)
            o.set("problem", r.problem)
        case .email:
            let r = EmailRule.normalize(value)
            o.set("valid", r.valid)
            o.set("normalized", r.normalized)
            o.set("suggestion", r.suggestion)
            o.set("problem", r.problem)
            if let repair = r.repair { o.set("repair", repair) }
        case .name:
            let r = NameRule.parse(value, order: nameOrder)
            o.set("prefix", r.prefix)
            o.set("given", r.given)
            o.set("middle", r.middle)
            o.set("family", r.family)
            o.set("suffix", r.suffix)
            o.set("nickname", r.nickname)
            o.set("household", r.household)
            o.set("second_prefix", r.secondPrefix)
            o.set("second_given", r.secondGiven)
            o.set("second_middle", r.secondMiddle)
            o.set("second_family", r.secondFamily)
            if !r.otherOwners.isEmpty { o.set("other_owners", json: ownersJSON(r.otherOwners)) }
            o.set("organization", r.organization)
            o.set("designation", r.designation)
            o.set("salutation", r.salutation)
        case .address:
            let r = AddressRule.parse(value, style: options.style, country: options.country.uppercased())
            let a = r.address
            o.set("recipient", a.recipient)
            o.set("house_number", a.houseNumber)
            o.set("street_predirectional", a.streetPredirectional)
            o.set("street_name", a.streetName)
            o.set("street_suffix", a.streetSuffix)
            o.set("street_postdirectional", a.streetPostdirectional)
            o.set("unit_type", a.unitType)
            o.set("unit_id", a.unitID)
            o.set("po_box_id", a.poBoxID)
            o.set("city", a.city)
            o.set("state", a.state)
            o.set("zip", a.postalCode)
            o.set("zip4", a.zip4)
            o.set("country", a.country)
            o.set("formatted", a.formatted)
            o.set("unparsed", a.unparsed)
            if !r.problems.isEmpty { o.set("problems", json: JSONText.array(r.problems)) }
            if !r.repairs.isEmpty { o.set("repairs", json: JSONText.array(r.repairs)) }
        case .date:
            let r = DateRule.normalize(value, order: options.dateOrder, date1904: options.dateSystem == 1904, orderOption: "--order")
            o.set("iso", r.iso)
            o.set("time", r.time)
            o.set("valid", r.valid)
            o.set("ambiguous", r.ambiguous)
            o.set("problem", r.problem)
        }
        return o.text
    }
}
