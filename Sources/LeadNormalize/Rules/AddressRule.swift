import Foundation
import LeadCore

public enum AddressStyle: String, Sendable, CaseIterable, Codable {
    /// USPS Publication 28: upper case, standard abbreviations for suffixes, directionals, units, states.
    case usps
    /// The words as written, only split into components.
    case asWritten = "as-written"
}

public struct AddressResult: Sendable, Equatable {
    public var input: String
    public var address: PostalAddress
    /// Problems worth a reason in the report (a ZIP that could not be repaired, no street found).
    public var problems: [String] = []
    /// What was repaired (a ZIP code's leading zero).
    public var repairs: [String] = []
}

/// Parses US and Canadian addresses, one line (`123 N Main St Apt 4, Springfield, MA 01101`) or
/// in columns, into USPS components. Hand-written: libpostal is not available here.
public enum AddressRule {
    private struct Token {
        var text: String
        var upper: String
        var segment: Int
    }

    /// Parses a whole address on one line (commas and line breaks optional).
    public static func parse(_ input: String, style: AddressStyle = .usps, defaultState: String? = nil) -> AddressResult {
        var result = AddressResult(input: input, address: PostalAddress())
        var tokens = tokenize(input)
        if tokens.isEmpty { return result }
        // A trailing country.
        if let last = tokens.last, ["USA", "US", "U.S.A.", "U.S.", "UNITED STATES", "CANADA"].contains(last.upper) {
            result.address.country = last.upper == "CANADA" ? "CA" : "US"
            tokens.removeLast()
        } else if tokens.count >= 2, tokens.suffix(2).map(\.upper) == ["UNITED", "STATES"] {
            result.address.country = "US"
            tokens.removeLast(2)
        }
        // The postal code.
        var rawZip: String?
        if tokens.count >= 2, isCanadianHalf(tokens[tokens.count - 2].upper, first: true), isCanadianHalf(tokens[tokens.count - 1].upper, first: false) {
            result.address.postalCode = tokens[tokens.count - 2].upper + " " + tokens[tokens.count - 1].upper
            result.address.country = "CA"
            tokens.removeLast(2)
        } else if let last = tokens.last, last.upper.count == 6, isCanadianHalf(String(last.upper.prefix(3)), first: true), isCanadianHalf(String(last.upper.suffix(3)), first: false) {
            result.address.postalCode = last.upper.prefix(3) + " " + last.upper.suffix(3)
            result.address.country = "CA"
            tokens.removeLast()
        } else if let last = tokens.last, last.upper.first?.isNumber == true, last.upper.allSatisfy({ $0.isNumber || $0 == "-" }), tokens.count > 1 {
            rawZip = last.text
            tokens.removeLast()
        }
        // The state or province: a code, or a name of up to four words.
        var stateSegment: Int?
        for length in stride(from: min(4, tokens.count - 1), through: 1, by: -1) where length >= 1 {
            let words = tokens.suffix(length)
            guard words.allSatisfy({ $0.segment == words.last!.segment }) || length == 1 else { continue }
            let text = words.map(\.upper).joined(separator: " ")
            if let code = StateTable.code(for: text), length > 1 || text.count == 2 || StateTable.usStates[text] != nil || StateTable.provinces[text] != nil {
                result.address.state = code
                stateSegment = words.last!.segment
                tokens.removeLast(length)
                break
            }
        }
        if result.address.country == nil, let state = result.address.state {
            result.address.country = StateTable.isCanadian(state) ? "CA" : "US"
        }
        if let rawZip {
            let (repair, problem) = ExcelRepair.applyUSZip(rawZip, state: result.address.state ?? defaultState, to: &result.address)
            if let repair { result.repairs.append(repair) }
            if let problem { result.problems.append(problem) }
        }
        // The city: its own comma segment, or what follows the street.
        let segments = Set(tokens.map(\.segment))
        var cityTokens: [Token] = []
        if segments.count >= 2, let lastSegment = tokens.last?.segment {
            cityTokens = tokens.filter { $0.segment == lastSegment }
            tokens.removeLast(cityTokens.count)
        }
        parseStreet(tokens, into: &result, cityFromTail: cityTokens.isEmpty && stateSegment != nil)
        if !cityTokens.isEmpty { result.address.city = cityTokens.map(\.text).joined(separator: " ") }
        apply(style, to: &result.address)
        return result
    }

    /// Parses only a street line (`123 N Main St Apt 4`), for lists with city, state and ZIP in columns.
    public static func parseStreetLine(_ input: String, style: AddressStyle = .usps) -> AddressResult {
        var result = AddressResult(input: input, address: PostalAddress())
        parseStreet(tokenize(input), into: &result, cityFromTail: false)
        apply(style, to: &result.address)
        return result
    }

    private static func tokenize(_ input: String) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(12)
        var segment = 0
        var current = ""
        func flush() {
            let word = NameRule.stripping(current, ".")
            if !word.isEmpty { tokens.append(Token(text: word, upper: word.uppercased(), segment: segment)) }
            current = ""
        }
        // Separators are ASCII, so the text is cut on its bytes; words keep their characters.
        var start = input.utf8.startIndex
        var index = start
        let utf8 = input.utf8
        func take() { current = String(input[start..<index]) }
        while index < utf8.endIndex {
            let b = utf8[index]
            if b == UInt8(ascii: ",") || b == 0x0A || b == 0x0D || b == UInt8(ascii: ";") {
                take()
                flush()
                segment += 1
                // CR LF is one line break.
                if b == 0x0D, utf8.index(after: index) < utf8.endIndex, utf8[utf8.index(after: index)] == 0x0A { index = utf8.index(after: index) }
                start = utf8.index(after: index)
            } else if b == 0x20 || b == 0x09 {
                take()
                flush()
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        take()
        flush()
        // `P.O.` and `P. O.` come out as `P.O` / `P` `O`: join them.
        if !tokens.contains(where: { $0.upper == "P" || $0.upper == "P.O" }) { return tokens }
        var joined: [Token] = []
        var k = 0
        while k < tokens.count {
            if k + 1 < tokens.count, tokens[k].upper == "P", tokens[k + 1].upper == "O" {
                joined.append(Token(text: "PO", upper: "PO", segment: tokens[k].segment))
                k += 2
                continue
            }
            var t = tokens[k]
            if t.upper == "P.O" { t = Token(text: "PO", upper: "PO", segment: t.segment) }
            joined.append(t)
            k += 1
        }
        return joined
    }

    private static func parseStreet(_ all: [Token], into result: inout AddressResult, cityFromTail: Bool) {
        var tokens = all
        guard !tokens.isEmpty else { return }
        // PO boxes: `PO Box 12`, `Post Office Box 12`, `Box 12`.
        let upper = tokens.map(\.upper)
        if let box = upper.firstIndex(of: "BOX"), box + 1 < tokens.count,
           box == 0 || upper[box - 1] == "PO" || (box >= 2 && upper[box - 2] == "POST" && upper[box - 1] == "OFFICE") {
            result.address.poBoxID = tokens[box + 1].text
            let rest = Array(tokens[(box + 2)...])
            if cityFromTail && !rest.isEmpty { result.address.city = rest.map(\.text).joined(separator: " ") }
            return
        }
        // House number (with a fraction such as `1/2`).
        if let first = tokens.first, first.upper.first?.isNumber == true {
            var number = first.text
            tokens.removeFirst()
            if let next = tokens.first, next.upper.utf8.contains(UInt8(ascii: "/")), next.upper.first?.isNumber == true {
                number += " " + next.text
                tokens.removeFirst()
            }
            result.address.houseNumber = number
        }
        // Unit: a designator and its id, or `#4B`.
        var unitAt: Int?
        for (k, t) in tokens.enumerated() where k >= 1 {
            if USPSTables.units[t.upper] != nil || (t.upper.hasPrefix("#") && t.upper.count > 1) { unitAt = k; break }
        }
        var tail: [Token] = []
        if let u = unitAt {
            let t = tokens[u]
            if t.upper.hasPrefix("#") && t.upper.count > 1 {
                result.address.unitType = "#"
                result.address.unitID = String(t.text.dropFirst())
                tail = Array(tokens[(u + 1)...])
            } else {
                result.address.unitType = t.text
                let standard = USPSTables.units[t.upper]!
                if u + 1 < tokens.count, !USPSTables.unitsWithoutID.contains(standard) || tokens[u + 1].upper.first?.isNumber == true {
                    result.address.unitID = tokens[u + 1].text.hasPrefix("#") ? String(tokens[u + 1].text.dropFirst()) : tokens[u + 1].text
                    tail = Array(tokens[(u + 2)...])
                } else {
                    tail = Array(tokens[(u + 1)...])
                }
            }
            tokens = Array(tokens[..<u])
        }
        // Predirectional, when more than a name follows it.
        if tokens.count >= 2, USPSTables.directionals[tokens[0].upper] != nil,
           !(tokens.count == 2 && USPSTables.suffixes[tokens[1].upper] != nil) {
            result.address.streetPredirectional = tokens[0].text
            tokens.removeFirst()
        }
        // Suffix: the last suffix word that leaves a street name before it. Without a unit and
        // with the city in the same segment, the words after it are the city.
        var suffixAt: Int?
        for k in stride(from: tokens.count - 1, through: 1, by: -1) where USPSTables.suffixes[tokens[k].upper] != nil {
            suffixAt = k
            if !cityFromTail || unitAt != nil { break }
        }
        if cityFromTail && unitAt == nil {
            // The first suffix after the name (city names such as `Park City` hold suffix words).
            suffixAt = (1..<max(tokens.count, 1)).first { USPSTables.suffixes[tokens[$0].upper] != nil }
        }
        if let s = suffixAt {
            result.address.streetName = tokens[..<s].map(\.text).joined(separator: " ")
            result.address.streetSuffix = tokens[s].text
            var after = Array(tokens[(s + 1)...])
            // With the city right after the street, only a short directional (`W`, not `North`
            // of North Adams) belongs to the street.
            if let d = after.first, USPSTables.directionals[d.upper] != nil, !(cityFromTail && unitAt == nil) || d.upper.count <= 2 {
                result.address.streetPostdirectional = d.text
                after.removeFirst()
            }
            if cityFromTail && unitAt == nil {
                if !after.isEmpty { result.address.city = after.map(\.text).joined(separator: " ") }
            } else {
                tail = after + tail
            }
        } else if !tokens.isEmpty {
            result.address.streetName = tokens.map(\.text).joined(separator: " ")
            if cityFromTail && unitAt == nil { result.problems.append("could not tell where the street ends and the city begins") }
        }
        if cityFromTail && !tail.isEmpty { result.address.city = tail.map(\.text).joined(separator: " ") }
        if result.address.houseNumber == nil && result.address.poBoxID == nil && result.address.streetName != nil {
            result.problems.append("no house number")
        }
    }

    private static func isCanadianHalf(_ s: String, first: Bool) -> Bool {
        let c = Array(s)
        guard c.count == 3, c.allSatisfy(\.isASCII) else { return false }
        return first ? (c[0].isLetter && c[1].isNumber && c[2].isLetter) : (c[0].isNumber && c[1].isLetter && c[2].isNumber)
    }

    /// The address in USPS form (upper case, Publication 28 abbreviations), whatever style it
    /// was parsed in: what two spellings of one address have in common.
    public static func uspsForm(_ address: PostalAddress) -> PostalAddress {
        var a = address
        apply(.usps, to: &a)
        return a
    }

    private static func apply(_ style: AddressStyle, to a: inout PostalAddress) {
        guard style == .usps else { return }
        func up(_ s: String?) -> String? { s?.uppercased() }
        a.houseNumber = up(a.houseNumber)
        a.streetPredirectional = a.streetPredirectional.map { USPSTables.directionals[$0.uppercased()] ?? $0.uppercased() }
        a.streetPostdirectional = a.streetPostdirectional.map { USPSTables.directionals[$0.uppercased()] ?? $0.uppercased() }
        a.streetName = up(a.streetName)
        a.streetSuffix = a.streetSuffix.map { USPSTables.suffixes[$0.uppercased()] ?? $0.uppercased() }
        a.unitType = a.unitType.map { USPSTables.units[$0.uppercased()] ?? $0.uppercased() }
        a.unitID = up(a.unitID)
        a.poBoxID = up(a.poBoxID)
        a.city = up(a.city)
        a.state = a.state.map { StateTable.code(for: $0) ?? $0.uppercased() }
    }
}
