import Foundation
import GRDB
import LeadCore
import LeadStore
import Testing

/// The embedded database's updates under the mapping's field policies (`updateContact`).
extension LeadStoreTests {
    @Test func anUpdateFillsOnlyBlankColumnsForFillBlankLeavesNeverColumnsAndNoBlankValueWipesAnything() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.transaction { tx in
            // c1 has a phone an agent typed, and no email; c2 has both, and notes.
            try tx.insertContact(id: "c1", user: owner, ContactRecord(fullName: "Ann Lee", phone: "+16175550100", email: nil, address: nil, notes: nil), campaign: nil, addressID: nil)
            try tx.insertContact(id: "c2", user: owner, ContactRecord(fullName: "Bo Ray", phone: "+16175550200", email: "bo@example.com", address: "1 Main St", notes: "keep"),
                                 campaign: nil, addressID: nil)
        }
        let policy = DestinationPolicy(update: ["phone": .fillBlank, "email": .fillBlank, "notes": .never, "full_name": .never])
        try store.transaction { tx in
            try tx.updateContact(id: "c1", ContactRecord(fullName: "Ann B Lee", phone: "+16175559999", email: "ann@example.com", address: "2 Elm St", notes: "new"), policy: policy)
            // Overwrite (the default) with blank values: nothing is wiped.
            try tx.updateContact(id: "c2", ContactRecord(fullName: "", phone: nil, email: "", address: nil, notes: nil))
        }
        let db = try DatabaseQueue(path: store.path)
        let rows = try db.read { try Row.fetchAll($0, sql: "SELECT id, full_name, phone, email, address, notes FROM contacts ORDER BY id") }
        #expect(rows[0]["full_name"] as String? == "Ann Lee", "never: the name stays")
        #expect(rows[0]["phone"] as String? == "+16175550100", "fill_blank: a filled phone stays")
        #expect(rows[0]["email"] as String? == "ann@example.com", "fill_blank: an empty email is filled")
        #expect(rows[0]["address"] as String? == "2 Elm St", "overwrite")
        #expect(rows[0]["notes"] as String? == nil, "never")
        #expect(rows[1]["full_name"] as String? == "Bo Ray" && rows[1]["phone"] as String? == "+16175550200" && rows[1]["email"] as String? == "bo@example.com")
        #expect(rows[1]["address"] as String? == "1 Main St" && rows[1]["notes"] as String? == "keep")
    }
}

extension LeadStoreTests {
    @Test func anAddressUpdateFollowsThePolicyOfAddressAndABlankPartWipesNothing() throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let campaign = try #require(try store.campaign("A", owner: owner, create: true)).id
        var old = PostalAddress()
        (old.houseNumber, old.streetName, old.streetSuffix, old.city, old.state, old.postalCode) = ("12", "MAIN", "ST", "BOSTON", "MA", "02134")
        var moved = PostalAddress()
        (moved.houseNumber, moved.streetName, moved.streetSuffix, moved.city) = ("7", "ELM", "ST", "CAMBRIDGE")
        try store.transaction { tx in
            try tx.insertAddress(id: "a1", campaign: campaign, AddressRecord(old), seq: 1)
            try tx.insertAddress(id: "a2", campaign: campaign, AddressRecord(old), seq: 2)
        }
        try store.transaction { tx in
            try tx.updateAddress(id: "a1", AddressRecord(moved))
            try tx.updateAddress(id: "a2", AddressRecord(moved), policy: DestinationPolicy(update: ["address": .never]))
        }
        let db = try DatabaseQueue(path: store.path)
        let rows = try db.read { try Row.fetchAll($0, sql: "SELECT house_number, locality, postal_code FROM campaign_addresses ORDER BY id") }
        #expect(rows[0]["house_number"] as String? == "7" && rows[0]["locality"] as String? == "CAMBRIDGE", "overwrite")
        #expect(rows[0]["postal_code"] as String? == "02134", "no ZIP in the update: the old one stays")
        #expect(rows[1]["house_number"] as String? == "12" && rows[1]["locality"] as String? == "BOSTON", "never")
    }
}
