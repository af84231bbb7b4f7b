/// One campaign address as a print run needs it (`leadport export vdp`): FLYR's
/// `campaign_addresses` columns, and the name of the contact who lives there, if any.
public struct PrintAddress: Sendable, Equatable {
    public var id: String
    /// The campaign's order (`campaign_addresses.seq`); nil for a row written without one.
    public var seq: Int?
    /// Its columns as stored: `address` is the delivery line (`12 N MAIN ST APT 4`).
    public var parts: AddressRecord
    /// The first of the address's contacts, by the columns that tell a name from a stand-in
    /// (an import names a contact without a name by its email, phone or address).
    public var contact: (fullName: String, email: String?, phone: String?, address: String?)?

    public init(id: String, seq: Int?, parts: AddressRecord) {
        (self.id, self.seq, self.parts) = (id, seq, parts)
    }

    public static func == (a: PrintAddress, b: PrintAddress) -> Bool {
        a.id == b.id && a.seq == b.seq && a.parts == b.parts && a.contact?.fullName == b.contact?.fullName
    }
}

/// A `qr_codes` row LeadPort creates: one per campaign address, its slug unique in the table.
public struct NewQRCode: Sendable, Equatable {
    public var id: String
    public var campaign: String
    public var address: String
    public var slug: String
    public var url: String

    public init(id: String, campaign: String, address: String, slug: String, url: String) {
        (self.id, self.campaign, self.address, self.slug, self.url) = (id, campaign, address, slug, url)
    }
}
