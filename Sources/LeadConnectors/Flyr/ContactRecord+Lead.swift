import LeadCore

extension ContactRecord {
    /// FLYR's contact for a lead: named by its name, else its company, email, phone or address.
    /// `deliveryLine` and `formatted`: the lead's address lines, built once by the caller and
    /// shared with its campaign address. Inlinable: it is built for every row. The lead is
    /// borrowed: an initialiser's parameters are otherwise its own, a copy of every field.
    @inlinable
    public init(_ lead: borrowing Lead, deliveryLine: String?, formatted: String?) {
        self.init(fullName: lead.fullName ?? lead.company ?? lead.email ?? lead.phone ?? deliveryLine ?? "(no name)",
                  phone: lead.phone ?? lead.mobile, email: lead.email, address: formatted, notes: lead.notes, status: Self.flyrStatus(lead.status))
    }

    public init(_ lead: borrowing Lead) {
        let delivery = lead.address.deliveryLine
        self.init(lead, deliveryLine: delivery, formatted: lead.address.formatted(deliveryLine: delivery))
    }
}
