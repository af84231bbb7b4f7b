import LeadConnectors
import LeadCore

/// FLYR's tables in PostgreSQL (`--to postgres://…`), Supabase's database included.
public final class PostgresQRCodes: QRCodeStore {
    public let name: String
    private let connection: PostgresConnection

    /// Connects, and checks that the database has FLYR's tables, `qr_codes` among them.
    public init(url: String) throws {
        name = Postgres.displayName(url)
        do {
            connection = try PostgresConnection(url: url)
            let missing = try connection.execute("""
                SELECT t FROM unnest(ARRAY['campaigns', 'campaign_addresses', 'contacts', 'qr_codes']) AS t WHERE to_regclass('public.' || t) IS NULL
                """).compactMap { $0[0] }
            if !missing.isEmpty {
                throw DestinationError(destination: name, message: "the database has no \(missing.joined(separator: ", ")) table; "
                                       + "create FLYR's tables with: psql \"URL\" -f sql/flyr-schema.sql", disposition: .usage)
            }
        } catch let error as PostgresError {
            throw DestinationError(destination: name, message: error.description)
        }
    }

    public func findCampaign(_ reference: String) throws -> (id: String, name: String)? {
        let rows = try fatal {
            CampaignMatch.isID(reference)
                ? try connection.execute("SELECT id, name FROM campaigns WHERE id = $1::uuid", [reference])
                : try connection.execute("SELECT id, name FROM campaigns WHERE name = $1 ORDER BY created_at, id LIMIT 10", [reference])
        }
        if rows.count > 1 { throw VDPError.ambiguous(reference, ids: rows.compactMap { $0[0] }) }
        guard let row = rows.first, let id = row[0] else { return nil }
        return (id, row[1] ?? reference)
    }

    public func printAddresses(campaign: String) throws -> [PrintAddress] {
        try fatal {
            var contacts: [String: (String, String?, String?, String?)] = [:]
            for row in try connection.execute("""
                SELECT address_id, full_name, email, phone, address FROM contacts
                WHERE campaign_id = $1::uuid AND address_id IS NOT NULL ORDER BY created_at, id
                """, [campaign]) {
                guard let id = row[0], contacts[id] == nil else { continue }
                contacts[id] = (row[1] ?? "", row[2], row[3], row[4])
            }
            let names = AddressRecord.columnNames
            return try connection.execute("""
                SELECT id, seq, \(names.joined(separator: ", "))
                FROM campaign_addresses WHERE campaign_id = $1::uuid ORDER BY seq NULLS LAST, id
                """, [campaign]).map { row in
                var address = PrintAddress(id: row[0] ?? "", seq: row[1].flatMap { Int($0) },
                                           parts: AddressRecord(reading: { row[2 + names.firstIndex(of: $0)!] }))
                address.contact = contacts[address.id].map { (fullName: $0.0, email: $0.1, phone: $0.2, address: $0.3) }
                return address
            }
        }
    }

    public func qrSlugs(campaign: String) throws -> [String: String] {
        try fatal {
            var slugs: [String: String] = [:]
            // The first code made for an address wins, as in the embedded file.
            for row in try connection.execute("""
                SELECT address_id, slug FROM qr_codes WHERE campaign_id = $1::uuid AND address_id IS NOT NULL ORDER BY created_at DESC, id DESC
                """, [campaign]) {
                if let address = row[0], let slug = row[1] { slugs[address] = slug }
            }
            return slugs
        }
    }

    public func insertQRCodes(_ codes: [NewQRCode], metadata: String) throws -> Set<String> {
        var inserted: Set<String> = []
        try fatal {
            // 6 parameters a row: 1,000 rows a statement stays under PostgreSQL's 65,535.
            for start in stride(from: 0, to: codes.count, by: 1000) {
                let chunk = codes[start..<min(start + 1000, codes.count)]
                var values: [String] = []
                var parameters: [String?] = []
                for (k, code) in chunk.enumerated() {
                    let p = k * 6
                    values.append("($\(p + 1)::uuid, $\(p + 2)::uuid, $\(p + 3)::uuid, $\(p + 4), $\(p + 5), $\(p + 6)::jsonb)")
                    parameters += [code.id, code.campaign, code.address, code.slug, code.url, metadata]
                }
                let rows = try connection.execute("INSERT INTO qr_codes (id, campaign_id, address_id, slug, qr_url, metadata) VALUES "
                                                  + values.joined(separator: ", ") + " ON CONFLICT (slug) DO NOTHING RETURNING slug", parameters)
                for row in rows { if let slug = row[0] { inserted.insert(slug) } }
            }
        }
        return inserted
    }

    private func fatal<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PostgresError { throw DestinationError(destination: name, message: error.description) }
    }
}
