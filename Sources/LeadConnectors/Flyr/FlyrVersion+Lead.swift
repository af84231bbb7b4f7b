/// FLYR's rows have no version of their own: the hash of what a lead wrote stands for one, for
/// every FLYR destination alike (`Destination.writtenVersion`).
extension FlyrVersion {
    /// The rows `lead` created, as written.
    public static func of(_ lead: OutboundLead) -> String {
        // The records passed as the rows hold them: a conditional expression made a copy of
        // each (every string retained and released) for every row a run creates.
        let rows = lead.flyr
        switch (rows.createsContact, rows.createsAddress) {
        case (true, true): return of(contact: rows.contact, address: rows.address)
        case (true, false): return of(contact: rows.contact, address: nil)
        case (false, true): return of(contact: nil, address: rows.address)
        case (false, false): return of(contact: nil, address: nil)
        }
    }
}
