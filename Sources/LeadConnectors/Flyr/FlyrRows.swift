import LeadCore

/// FLYR's rows for one lead at one destination (`LeadPayload`): the contact and the campaign
/// address it writes, built with the lead's hash on the build threads, and the ids `prepare`
/// gives them. Built once a row: the hash and the write share the records, and the single
/// delivery thread builds none.
public final class FlyrRows: LeadPayload, @unchecked Sendable {
    /// The contact to write, when the run writes contacts.
    public let contact: ContactRecord?
    /// The campaign address to write, when the run writes a campaign's addresses.
    public let address: AddressRecord?
    /// The ids the rows have (or will have): the ledger's for an update, set by `prepare` for a
    /// new lead.
    public var contactID: String?
    public var addressID: String?
    /// Which rows `send` creates: a row found already at the destination is not created again.
    public var createsContact = false
    public var createsAddress = false

    /// Whether there is a contact, an address: asked of the records themselves (`address !=
    /// nil` on the class's property), each was copied whole to be compared.
    public let hasContact: Bool
    public let hasAddress: Bool

    public init(contact: ContactRecord?, address: AddressRecord?) {
        (self.contact, self.address) = (contact, address)
        (hasContact, hasAddress) = (contact != nil, address != nil)
    }

    /// The rows the run writes for `lead`: the contact when `contacts`, the campaign address
    /// when `addresses` and the lead has a delivery line. The address lines are built once and
    /// shared by both. The lead is borrowed, not copied.
    @inlinable
    public convenience init(_ lead: borrowing Lead, contacts: Bool, addresses: Bool) {
        let delivery = lead.address.deliveryLine
        let formatted = lead.address.formatted(deliveryLine: delivery)
        let contact = contacts ? ContactRecord(lead, deliveryLine: delivery, formatted: formatted) : nil
        let address = addresses ? delivery.map { AddressRecord(lead.address, deliveryLine: $0, formatted: formatted, coordinate: lead.coordinate) } : nil
        self.init(contact: contact, address: address)
    }

    override public func known(as remoteID: String) {
        (contactID, addressID) = FlyrID.split(remoteID)
    }

    /// The remote id the ledger and the report show: `contact|a:address`, or either alone (the
    /// embedded database's format).
    public var remoteID: String { FlyrID.join(contact: contactID, address: addressID) }

    /// FLYR's encoder (`Destination.encoder`) for PostgreSQL and Supabase: the rows `scope`
    /// says the run writes, hashed as `FlyrPayload` hashes them.
    static func encoder(_ scope: FlyrScope) -> @Sendable (Lead) -> Encoded {
        let (contacts, addresses) = (scope.writesContacts, scope.writesAddresses)
        return { lead in
            let rows = FlyrRows(lead, contacts: contacts, addresses: addresses)
            return Encoded(hash: FlyrPayload.hash(contact: rows.contact, address: rows.address), payload: rows)
        }
    }
}

/// FLYR's part of an outbound lead, for the family's destinations alone: every lead they are
/// handed was encoded by them (`FlyrRows.encoder`), so its payload is their rows.
extension OutboundLead {
    package var flyr: FlyrRows { payload as! FlyrRows }

    /// Once `prepare` has given the rows their ids: the lead's remote id is theirs.
    package mutating func settleFlyrID() { remoteID = flyr.remoteID }
}
