@testable import LeadConnectors
import LeadCore
import Testing

/// The hashes FLYR's destinations keep in users' ledgers, pinned to the values LeadPort has
/// written all along: a change to any of them would make every row of every ledger an update.
/// The embedded database's `ContentHash`, PostgreSQL's and Supabase's `FlyrPayload.hash`, and
/// `FlyrVersion` (the `remote_version` undo compares), over leads that fill every column.
@Suite struct FlyrHashGoldenTests {
    /// Every column filled: a status FLYR keeps, a unit and ZIP+4, a mailing address and a position.
    static func full() -> Lead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: 2))
        (lead.givenName, lead.familyName) = ("Ana", "Lima")
        lead.email = "ana@example.com"
        lead.phone = "+12175550100"
        lead.mobile = "+12175550199"
        lead.company = "Lima Realty"
        lead.notes = "met at open house"
        lead.status = "Hot"
        lead.address.houseNumber = "12"
        lead.address.streetPredirectional = "N"
        lead.address.streetName = "Oak"
        lead.address.streetSuffix = "St"
        lead.address.unitType = "Apt"
        lead.address.unitID = "4"
        lead.address.city = "Springfield"
        lead.address.state = "IL"
        lead.address.postalCode = "62704"
        lead.address.zip4 = "1234"
        var mailing = PostalAddress()
        mailing.poBoxID = "77"
        mailing.city = "Springfield"
        mailing.state = "IL"
        mailing.postalCode = "62705"
        lead.mailingAddress = mailing
        lead.coordinate = Coordinate(latitude: 39.7817, longitude: -89.6501)
        return lead
    }

    /// A company alone: no person, no address, no status (the hashes' optional parts left out).
    static func bare() -> Lead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: 3))
        lead.company = "Acme Roofing"
        lead.phone = "+13125550142"
        return lead
    }

    /// An address with no position and a status FLYR does not keep.
    static func plain() -> Lead {
        var lead = Lead(source: SourceLocation(file: "leads.csv", row: 4))
        (lead.givenName, lead.familyName) = ("Bo", "Chen")
        lead.email = "bo@example.com"
        lead.status = "callback"
        lead.address.houseNumber = "9"
        lead.address.streetName = "Elm"
        lead.address.streetSuffix = "Ave"
        lead.address.city = "Peoria"
        lead.address.state = "IL"
        lead.address.postalCode = "61602"
        return lead
    }

    static let leads: [(String, Lead)] = [("full", full()), ("bare", bare()), ("plain", plain())]

    /// The embedded database's hash, by lead and target.
    static let embedded: [String: String] = [
        "bare/both": "33bba78981bf0053",
        "bare/campaign_addresses": "750249f2edda1ded",
        "bare/contacts": "51590de01aeeefdd",
        "full/both": "96e9ab20eb106148",
        "full/campaign_addresses": "521e22a6aa02036",
        "full/contacts": "27a8d70b474dd9b5",
        "plain/both": "64f8ec1c4c192995",
        "plain/campaign_addresses": "7edc492208384e6b",
        "plain/contacts": "75dcc558580a529b",
    ]
    /// PostgreSQL's and Supabase's hash of the rows a lead writes, by lead and target.
    static let rows: [String: String] = [
        "bare/both": "8a3fc8d455acdbf4",
        "bare/campaign_addresses": "409fb07f05b671ed",
        "bare/contacts": "8a3fc8d455acdbf4",
        "full/both": "d9f22f22e4c837d2",
        "full/campaign_addresses": "37fc85f813bd8285",
        "full/contacts": "404c8394bf3b2de2",
        "plain/both": "60e8d7d72ac06e96",
        "plain/campaign_addresses": "c3c3d57e4e4bfa59",
        "plain/contacts": "bc900331c5476ce",
    ]
    /// `FlyrVersion` of the rows a lead creates, by lead and target.
    static let versions: [String: String] = [
        "bare/both": "f8506347898cf202:3",
        "bare/campaign_addresses": "cbf29ce484222325:0",
        "bare/contacts": "f8506347898cf202:3",
        "full/both": "fa0aaf9d875f0d5:1fff",
        "full/campaign_addresses": "6cb1430dfe236e37:1fc0",
        "full/contacts": "738288fdb94a44ff:3f",
        "plain/both": "5bcc90968ef04a48:1fcd",
        "plain/campaign_addresses": "7f74ef1a6ddd806:1fc0",
        "plain/contacts": "12bad3d98534433b:d",
    ]

    @Test(arguments: ["contacts", "both", "campaign_addresses"])
    func theHashesAreTheOnesLedgersHold(target: String) {
        for (name, lead) in Self.leads {
            let rows = FlyrRows(lead, contacts: target != "campaign_addresses", addresses: target != "contacts")
            let key = name + "/" + target
            let embedded = ContentHash.of(lead, contact: rows.contact ?? ContactRecord(lead), target: target)
            #expect(embedded == Self.embedded[key], "embedded \(key)")
            #expect(FlyrPayload.hash(contact: rows.contact, address: rows.address) == Self.rows[key], "rows \(key)")
            #expect(FlyrVersion.of(contact: rows.contact, address: rows.address) == Self.versions[key], "version \(key)")
        }
    }

    /// The version's text is written without `String(_:radix:)`: the same digits, for
    /// every size of number (the golden values above cover only a few).
    @Test func theVersionsHexadecimalIsRadix16s() {
        var generator = SystemRandomNumberGenerator()
        var values: [UInt64] = [0, 1, 0xF, 0x10, 0xFF, 0x100, 0xFFFF_FFFF, 0x1_0000_0000, .max, .max - 1, 1 << 63]
        for _ in 0..<2_000 { values.append(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)) }
        for (k, hash) in values.enumerated() {
            let mask = values[(k * 7 + 3) % values.count]
            #expect(FlyrVersion.hex(hash, mask) == String(hash, radix: 16) + ":" + String(mask, radix: 16))
        }
    }
}
