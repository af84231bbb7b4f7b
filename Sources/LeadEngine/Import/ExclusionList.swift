import Foundation
import LeadCore
import LeadNormalize
import LeadReaders

/// A do-not-contact list (`import --exclude FILE`): phones, emails and street addresses, read
/// from a CSV, workbook or plain list (one a line) and normalised by the same rules as the
/// leads, so `(617) 555-0101` in the list keeps out `+16175550101` in the file. A lead that has
/// any of them is skipped before anything is sent, with the reason `excluded (LIST)`.
///
/// With a header row that names its columns (`Phone`, `Email`, `Address`/`Street`, `City`,
/// `State`, `Zip`), each column is read as what it names; otherwise each cell as what it looks
/// like: an `@` makes an email, 7 to 15 digits a phone, other cells with a number a street
/// address (with the row's other such cells as its city, state and ZIP), and words alone are
/// passed over. An address without a ZIP keeps out
/// that street address in any ZIP: a list errs on the side of not contacting.
public struct ExclusionList: Sendable {
    /// The file's name, as reasons give it.
    public let name: String
    public private(set) var emails: Set<String> = []
    public private(set) var phones: Set<String> = []
    /// Delivery line (upper case) → the ZIPs (five digits) it is excluded in; "" for any.
    public private(set) var addresses: [String: Set<String>] = [:]

    public var isEmpty: Bool { emails.isEmpty && phones.isEmpty && addresses.isEmpty }
    public var count: Int { emails.count + phones.count + addresses.values.reduce(0) { $0 + $1.count } }

    /// The reason a lead it keeps out is skipped with.
    public var reason: String { "excluded (\(name))" }

    enum Role { case phone, email, street, city, state, zip, other }

    public init(name: String) { self.name = name }

    /// Reads `path` (any format LeadPort reads); `region` is the phones' default country.
    public static func load(path: String, region: String) throws -> ExclusionList {
        var list = ExclusionList(name: (path as NSString).lastPathComponent)
        let reader = try openRowReader(path: path)
        var roles: [Role]?
        var first = true
        while let row = try reader.next() {
            let cells = row.cells.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if first {
                first = false
                let named = cells.map(Self.role(ofHeader:))
                if named.contains(where: { $0 != .other }) {
                    roles = named
                    continue
                }
            }
            list.add(cells, roles: roles, region: region)
        }
        return list
    }

    static func role(ofHeader header: String) -> Role {
        let h = header.lowercased().filter { $0.isLetter }
        if h.contains("email") || h == "mail" { return .email }
        if h.contains("phone") || h.contains("mobile") || h == "cell" || h.hasPrefix("tel") { return .phone }
        if h.contains("zip") || h.contains("postal") || h == "postcode" { return .zip }
        if h == "city" || h == "town" { return .city }
        if h == "state" || h == "province" || h == "st" { return .state }
        if h.contains("address") || h.contains("street") { return .street }
        return .other
    }

    mutating func add(_ cells: [String], roles: [Role]?, region: String) {
        var addressParts: [String] = []
        for (k, cell) in cells.enumerated() where !cell.isEmpty {
            let role = roles.map { k < $0.count ? $0[k] : .other } ?? Self.guess(cell)
            switch role {
            case .email:
                if let email = EmailRule.normalize(cell).normalized { emails.insert(email.lowercased()) }
            case .phone:
                if let phone = PhoneRule.normalize(cell, region: region, wantType: false).e164 { phones.insert(phone) }
            case .street, .city, .state, .zip: addressParts.append(cell)
            case .other: continue
            }
        }
        guard !addressParts.isEmpty else { return }
        let parsed = AddressRule.parse(addressParts.joined(separator: ", ")).address
        guard let line = parsed.deliveryLine?.uppercased() else { return }
        addresses[line, default: []].insert(String((parsed.postalCode ?? "").prefix(5)))
    }

    /// What a cell of a list without a header is.
    static func guess(_ cell: String) -> Role {
        if cell.contains("@") { return .email }
        let digits = cell.filter(\.isNumber).count
        let letters = cell.filter(\.isLetter).count
        if (7...15).contains(digits) && letters <= 3 { return .phone }
        // A street address has a house number; a word alone (a name, a header) is none.
        return digits > 0 ? .street : .other
    }

    /// Whether the list keeps `lead` out: its email, either phone, or its street address.
    public func excludes(_ lead: Lead) -> Bool {
        if let email = lead.email, emails.contains(email.lowercased()) { return true }
        if let phone = lead.phone, phones.contains(phone) { return true }
        if let mobile = lead.mobile, phones.contains(mobile) { return true }
        guard !addresses.isEmpty, let line = lead.address.deliveryLine?.uppercased(), let zips = addresses[line] else { return false }
        return zips.contains("") || zips.contains(String((lead.address.postalCode ?? "").prefix(5)))
    }
}
