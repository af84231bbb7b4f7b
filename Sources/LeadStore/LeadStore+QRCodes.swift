import GRDB
import LeadCore

/// FLYR's `qr_codes` table in the embedded file, and what `leadport export vdp` reads.
extension LeadStore {
    /// The table as FLYR has it (technical reference §3.2), with SQLite's types; the
    /// references to tables the embedded file does not hold (landing pages, farms) are left out.
    static func registerQRCodes(_ m: inout DatabaseMigrator) {
        m.registerMigration("qr-codes") { db in
            try db.execute(sql: """
                CREATE TABLE qr_codes (
                  id TEXT PRIMARY KEY, campaign_id TEXT REFERENCES campaigns(id), address_id TEXT REFERENCES campaign_addresses(id),
                  landing_page_id TEXT, farm_id TEXT, batch_id TEXT,
                  slug TEXT UNIQUE NOT NULL, qr_url TEXT, qr_image TEXT,
                  destination_type TEXT CHECK (destination_type = 'landingPage' OR destination_type = 'directLink'),
                  direct_url TEXT, qr_variant TEXT CHECK (qr_variant = 'A' OR qr_variant = 'B'), metadata TEXT,
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
                  updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE INDEX idx_qr_campaign ON qr_codes(campaign_id);
                CREATE INDEX idx_qr_address ON qr_codes(address_id);
                """)
        }
    }

    /// A campaign's addresses in its order (`seq`, then id), each with its first contact.
    public func printAddresses(campaign: String) throws -> [PrintAddress] {
        try db.read { db in
            var contacts: [String: (String, String?, String?, String?)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT address_id, full_name, email, phone, address FROM contacts
                WHERE campaign_id = ? AND address_id IS NOT NULL ORDER BY created_at, id
                """, arguments: [campaign]) {
                let id: String = row[0]
                if contacts[id] == nil { contacts[id] = (row[1], row[2], row[3], row[4]) }
            }
            return try Row.fetchAll(db, sql: """
                SELECT id, seq, \(AddressRecord.columnNames.joined(separator: ", "))
                FROM campaign_addresses WHERE campaign_id = ? ORDER BY seq IS NULL, seq, id
                """, arguments: [campaign]).map { row in
                var address = PrintAddress(id: row[0], seq: row[1], parts: AddressRecord(reading: { row[$0] }))
                address.contact = contacts[address.id].map { (fullName: $0.0, email: $0.1, phone: $0.2, address: $0.3) }
                return address
            }
        }
    }

    /// The slug of each of the campaign's addresses that has a QR code (the first made, if several).
    public func qrSlugs(campaign: String) throws -> [String: String] {
        try db.read { db in
            var slugs: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT address_id, slug FROM qr_codes WHERE campaign_id = ? AND address_id IS NOT NULL ORDER BY created_at DESC, id DESC",
                                        arguments: [campaign]) {
                slugs[row[0]] = row[1]
            }
            return slugs
        }
    }

    /// Inserts the codes whose slug is free, in one transaction; returns the slugs inserted (a
    /// code whose slug another row holds is left out, for the caller to try with another).
    public func insertQRCodes(_ codes: [NewQRCode], metadata: String) throws -> Set<String> {
        try db.write { db in
            var inserted: Set<String> = []
            let statement = try db.makeStatement(sql: """
                INSERT INTO qr_codes (id, campaign_id, address_id, slug, qr_url, metadata) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (slug) DO NOTHING
                """)
            for code in codes {
                try statement.execute(arguments: [code.id, code.campaign, code.address, code.slug, code.url, metadata])
                if db.changesCount > 0 { inserted.insert(code.slug) }
            }
            return inserted
        }
    }
}

extension LeadStore {
    /// The name of the campaign with this id, if there is one.
    public func campaignName(id: String) throws -> String? {
        try db.read { db in try String.fetchOne(db, sql: "SELECT name FROM campaigns WHERE id = ?", arguments: [id]) }
    }
}
