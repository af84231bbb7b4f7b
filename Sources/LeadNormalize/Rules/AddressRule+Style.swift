import LeadCore

/// The USPS spelling (Publication 28): upper case, no periods, standard abbreviations for
/// suffixes, directionals, units and states, and highways and routes in their standard words.
extension AddressRule {
    static func apply(_ style: AddressStyle, to a: inout PostalAddress) {
        guard style == .usps else { return }
        a.recipient = a.recipient.map(upperNoDots)
        a.houseNumber = a.houseNumber.map(upperNoDots)
        a.streetPredirectional = a.streetPredirectional.map { USPSTables.directionals[upperNoDots($0)] ?? upperNoDots($0) }
        a.streetPostdirectional = a.streetPostdirectional.map { USPSTables.directionals[upperNoDots($0)] ?? upperNoDots($0) }
        let route = a.poBoxID != nil && a.houseNumber == nil
        a.streetName = a.streetName.map { canonicalName(upperNoDots($0), route: route) }
        a.streetSuffix = a.streetSuffix.map { USPSTables.suffixes[upperNoDots($0)] ?? upperNoDots($0) }
        a.unitType = a.unitType.map { USPSTables.units[upperNoDots($0)] ?? upperNoDots($0) }
        a.unitID = a.unitID.map(upperNoDots)
        // `5th Floor` → `FL 5`.
        if a.unitType == "FL", let id = a.unitID, let ordinal = ordinalNumber(id) { a.unitID = ordinal }
        a.poBoxID = a.poBoxID.map(upperNoDots)
        a.city = a.city.map(upperNoDots)
        a.state = a.state.map { StateTable.code(for: $0) ?? $0.uppercased() }
    }

    private static func upperNoDots(_ s: String) -> String { AddressToken.key(of: s) }

    /// `5TH` → `5`.
    private static func ordinalNumber(_ id: String) -> String? {
        let digits = id.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, ["ST", "ND", "RD", "TH"].contains(String(id.dropFirst(digits.count))) else { return nil }
        return String(digits)
    }

    /// Route and highway names in their USPS words: `RURAL ROUTE 2` → `RR 2`, `HCR 68` →
    /// `HC 68`, `US HWY 50` → `US HIGHWAY 50`, `SR 9` → `STATE ROUTE 9`, `CO RD 12` →
    /// `COUNTY ROAD 12`, `I-95` → `INTERSTATE 95`. Other names are left as they are.
    static func canonicalName(_ name: String, route: Bool) -> String {
        guard name.utf8.contains(where: AddressToken.isDigit) || name.hasPrefix("COUNTY ") || name.hasPrefix("CO ") || name.hasPrefix("CNTY ") else { return name }
        var words = name.split(separator: " ").map(String.init)
        guard let first = words.first else { return name }
        // Routes: the designator words before the number.
        let routeForms: [([String], String)] = [
            (["RURAL", "ROUTE"], "RR"), (["RURAL", "RTE"], "RR"), (["RURAL", "RT"], "RR"), (["R", "R"], "RR"), (["RFD"], "RR"),
            (["RR"], "RR"), (["HIGHWAY", "CONTRACT", "ROUTE"], "HC"), (["HIGHWAY", "CONTRACT", "RTE"], "HC"),
            (["HIGHWAY", "CONTRACT", "RT"], "HC"), (["HIGHWAY", "CONTRACT"], "HC"), (["HWY", "CONTRACT", "ROUTE"], "HC"),
            (["HWY", "CONTRACT", "RTE"], "HC"), (["HWY", "CONTRACT"], "HC"), (["STAR", "ROUTE"], "HC"), (["STAR", "RTE"], "HC"),
            (["HC", "ROUTE"], "HC"), (["HC", "RTE"], "HC"), (["HC", "RT"], "HC"), (["HCR", "ROUTE"], "HC"), (["HCR"], "HC"), (["HC"], "HC"),
        ]
        for (form, standard) in routeForms where words.count > form.count && Array(words.prefix(form.count)) == form {
            return ([standard] + words.dropFirst(form.count)).joined(separator: " ")
        }
        if route, words.count == 2, ["ROUTE", "RTE", "RT", "RD"].contains(first) { return "RR " + words[1] }
        if route { return name }
        // Highways.
        var out: [String] = []
        out.reserveCapacity(words.count + 1)
        for k in words.indices {
            let w = words[k]
            let next = k + 1 < words.count ? words[k + 1] : nil
            let nextIsNumber = next?.first?.isNumber == true
            let nextIsHighway = next.map { USPSTables.highwayWords[$0] != nil || $0 == "ROAD" || $0 == "RD" } ?? false
            if w.hasPrefix("I-"), w.count > 2 {
                out += ["INTERSTATE", String(w.dropFirst(2))]
            } else if nextIsHighway, let q = USPSTables.highwayQualifiers[w] {
                out.append(q)
            } else if (w == "RD" || w == "ROAD"), k > 0, USPSTables.highwayQualifiers[words[k - 1]] != nil {
                out.append("ROAD")
            } else if w == "US" && !nextIsNumber {
                out.append("US")
            } else if let standard = USPSTables.highwayWords[w], nextIsNumber || next == "#" {
                out.append(standard)
            } else if let standard = USPSTables.highwayWords[w], k > 0, USPSTables.highwayQualifiers[words[k - 1]] != nil {
                out.append(standard)
            } else {
                out.append(w)
            }
        }
        words = out
        return words.joined(separator: " ")
    }
}
