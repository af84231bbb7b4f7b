import Foundation
import LeadCore

/// What `leadport export vdp` reads and writes through the REST API: a campaign's addresses
/// and contacts, and its `qr_codes`.
extension SupabaseDestination {
    /// The name of the campaign with this id, if the credentials see it.
    public func campaignName(id: String) throws -> String? {
        try fatal { try rows(request("GET", "campaigns", query: [("select", "name"), ("id", "eq." + id), ("limit", "1")])).first?["name"] as? String }
    }

    /// The campaign's addresses in its order (`seq`, then id), each with its first contact.
    public func printAddresses(campaign: String) throws -> [PrintAddress] {
        var contacts: [String: (fullName: String, email: String?, phone: String?, address: String?)] = [:]
        for row in try pages("contacts", select: "address_id,full_name,email,phone,address", campaign: campaign, order: "created_at,id") {
            guard let id = row["address_id"] as? String, contacts[id] == nil else { continue }
            contacts[id] = ((row["full_name"] as? String) ?? "", row["email"] as? String, row["phone"] as? String, row["address"] as? String)
        }
        return try pages("campaign_addresses", select: (["id", "seq"] + AddressRecord.columnNames).joined(separator: ","), campaign: campaign,
                         order: "seq.asc.nullslast,id").map { row in
            let text = { (column: String) in row[column] as? String }
            var address = PrintAddress(id: text("id") ?? "", seq: row["seq"] as? Int, parts: AddressRecord(reading: text))
            address.contact = contacts[address.id]
            return address
        }
    }

    /// address id → slug, for the campaign's addresses that have a code (the first made, if several).
    public func qrSlugs(campaign: String) throws -> [String: String] {
        var slugs: [String: String] = [:]
        for row in try pages("qr_codes", select: "address_id,slug", campaign: campaign, order: "created_at.desc,id.desc") {
            if let address = row["address_id"] as? String, let slug = row["slug"] as? String { slugs[address] = slug }
        }
        return slugs
    }

    /// Inserts the codes whose slug is free (`on_conflict=slug`, `ignore-duplicates`), 500 a
    /// request; returns the slugs inserted, as PostgREST represents the rows it inserted.
    public func insertQRCodes(_ codes: [NewQRCode], metadata: String) throws -> Set<String> {
        var inserted: Set<String> = []
        for start in stride(from: 0, to: codes.count, by: Self.capabilities.largestBatch) {
            let body = "[" + codes[start..<min(start + Self.capabilities.largestBatch, codes.count)].map { code in
                var o = JSONObject()
                o.set("id", code.id)
                o.set("campaign_id", code.campaign)
                o.set("address_id", code.address)
                o.set("slug", code.slug)
                o.set("qr_url", code.url)
                o.set("metadata", json: metadata)
                return o.text
            }.joined(separator: ",") + "]"
            let answer = try fatal {
                try request("POST", "qr_codes", query: [("columns", "id,campaign_id,address_id,slug,qr_url,metadata"), ("on_conflict", "slug"), ("select", "slug")],
                            prefer: ["return=representation", "resolution=ignore-duplicates"], body: body)
            }
            for row in rows(answer) { if let slug = row["slug"] as? String { inserted.insert(slug) } }
        }
        return inserted
    }

    /// Every row of `table` in the campaign, a page of 1,000 at a time (PostgREST's usual `max_rows`).
    private func pages(_ table: String, select: String, campaign: String, order: String) throws -> [[String: Any]] {
        var all: [[String: Any]] = []
        while true {
            let page = try fatal {
                try rows(request("GET", table, query: [("select", select), ("campaign_id", "eq." + campaign), ("order", order),
                                                       ("limit", "1000"), ("offset", String(all.count))]))
            }
            all += page
            if page.count < 1000 { return all }
        }
    }
}
