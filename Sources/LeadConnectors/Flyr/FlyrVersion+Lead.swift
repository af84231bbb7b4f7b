/// FLYR's rows have no version of their own: the hash of what a lead wrote stands for one, for
/// every FLYR destination alike (`Destination.writtenVersion`).
extension FlyrVersion {
    /// The rows `lead` created, as written.
    public static func of(_ lead: OutboundLead) -> String {
        of(contact: lead.flyr.createsContact ? lead.flyr.contact : nil, address: lead.flyr.createsAddress ? lead.flyr.address : nil)
    }
}
