import LeadCore

/// The embedded database's hash of a lead (FNV-1a, 64 bits), so an unchanged lead is not
/// written again: over its contact whatever the target, as LeadPort has always kept it.
/// `target`: what the run writes (`contacts`, `campaign_addresses` or `both`: `FlyrScope.target`).
enum ContentHash {
    static func of(_ lead: Lead, contact: ContactRecord, target: String) -> String {
        var h = FNV64()
        // One call a field (this runs for every row: no array to allocate).
        h.mix(target)
        h.mix(contact.fullName)
        h.mix(contact.email)
        h.mix(lead.phone)
        h.mix(lead.mobile)
        h.mix(lead.company)
        h.mix(contact.notes)
        h.mix(contact.address)
        h.mix(lead.mailingAddress?.formatted)
        // Mixed only when there is one, so that a lead without a status hashes as it did before
        // statuses were written (and is not an update of every row after the upgrade).
        if let status = contact.status { h.mix("status"); h.mix(status) }
        // The same for a position, which only a campaign address holds.
        if target != "contacts", let coordinate = lead.coordinate { h.mix("coordinate"); h.mix(coordinate.json) }
        return String(h.value, radix: 16)
    }
}
