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

/// Parses US and Canadian addresses, one line (`Acme Inc, 123 N Main St Apt 4, Springfield, MA
/// 01101`) or a street line alone, into USPS Publication 28 components. Hand-written:
/// libpostal is not available here. Nothing written is dropped: a word no component takes is
/// kept in `unparsed`, and a name before the house number is the `recipient`.
///
/// The parts, one file each: tokens (`+Tokens`), the last line read from the end
/// (`+LastLine`), where the delivery line starts and its units (`+Delivery`), boxes and routes
/// (`+Boxes`), the street itself (`+Street`) and the USPS spelling (`+Style`).
public enum AddressRule {
    /// Parses a whole address on one line (commas and line breaks optional).
    /// - Parameters:
    ///   - defaultState: the list's state, confirming a ZIP code Excel shortened when the
    ///     address names no state.
    ///   - country: `US` or `CA`, assumed when the address shows neither (a postal code, a
    ///     state or province, a country name); without it, `US`.
    public static func parse(_ input: String, style: AddressStyle = .usps, defaultState: String? = nil, country: String? = nil) -> AddressResult {
        var parser = AddressParser(country: country)
        parser.parseWhole(input, defaultState: defaultState)
        return finish(&parser, input: input, style: style)
    }

    /// Parses only a street line (`123 N Main St Apt 4`), for lists with city, state and ZIP in
    /// columns; words after the street are kept in `unparsed`.
    public static func parseStreetLine(_ input: String, style: AddressStyle = .usps, country: String? = nil) -> AddressResult {
        var parser = AddressParser(country: country)
        parser.parseStreetLine(input)
        return finish(&parser, input: input, style: style)
    }

    private static func finish(_ parser: inout AddressParser, input: String, style: AddressStyle) -> AddressResult {
        parser.finish()
        var result = AddressResult(input: input, address: parser.address, problems: parser.problems, repairs: parser.repairs)
        apply(style, to: &result.address)
        return result
    }

    /// The address in USPS form (upper case, Publication 28 abbreviations), whatever style it
    /// was parsed in: what two spellings of one address have in common.
    public static func uspsForm(_ address: PostalAddress) -> PostalAddress {
        var a = address
        apply(.usps, to: &a)
        return a
    }
}
