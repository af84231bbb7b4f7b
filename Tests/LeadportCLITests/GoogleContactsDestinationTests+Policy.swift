import Foundation
import GRDB
import LeadTesting
import Testing

/// The mapping's modes and field policies against the Google People double (issue 13, item 4).
extension GoogleContactsDestinationTests {
    func run(_ list: URL, policy: String, ledger: String = "ledger.db") throws -> (result: Leadport.Result, outcomes: [Int: [String]]) {
        let mapping = t.dir.appendingPathComponent("mapping-\(UUID().uuidString).yaml")
        try ("columns: {Name: full_name, Email: email, Phone: phone, Address: address, City: city, State: state, Zip: zip}\n" + policy)
            .write(to: mapping, atomically: true, encoding: .utf8)
        return try run(list, extra: ["--mapping", mapping.path], ledger: ledger)
    }

    /// Contacts the user made, found by email: `fill_blank` keeps a name and fills a missing
    /// one, `append` adds the lead's phone after the user's, `never` sends no address; a new
    /// lead is created with everything; `update_only` then creates nobody.
    @Test func contactsFoundByEmailAreUpdatedUnderThePoliciesAndUpdateOnlyCreatesNobody() throws {
        defer { t.remove() }
        try control("/_double/seed", ["contacts": [
            ["names": [["givenName": "Old"]], "emailAddresses": [["value": "person3@example.com"]], "phoneNumbers": [["value": "+16175550000"]]],
            ["emailAddresses": [["value": "person4@example.com"]]],
        ]])
        let policy = "update: {first_name: fill_blank, phone: append, address: never}\n"
        let first = try run(try t.list("leads.csv", count: 4), policy: policy)
        #expect(first.result.status == 0, "\(first.result.stderr)")
        #expect(first.outcomes[4]?[0] == "updated" && first.outcomes[5]?[0] == "updated" && RemoteImport.count(first.outcomes, "created") == 2, "\(first.outcomes)")
        let stored = try contacts()
        let three = try #require(Self.contact(stored, email: "person3@example.com"))
        #expect(Self.values(three, "names", "givenName") == ["Old"], "fill_blank: the user's name stays")
        #expect(Self.values(three, "phoneNumbers") == ["+16175550000", "+16175550003"], "append: after the user's")
        #expect(Self.values(three, "addresses", "streetAddress").isEmpty, "never: no address on an update")
        let four = try #require(Self.contact(stored, email: "person4@example.com"))
        #expect(Self.values(four, "names", "givenName") == ["Person"], "fill_blank: a missing name is filled")
        let one = try #require(Self.contact(stored, email: "person1@example.com"))
        #expect(!Self.values(one, "addresses", "streetAddress").isEmpty, "a create sends everything")

        let more = try run(try t.list("leads.csv", count: 5), policy: policy + "mode: update_only\n")
        #expect(more.result.status == 0, "\(more.result.stderr)")
        #expect(more.outcomes[6]?[0] == "skipped" && more.outcomes[6]?[1] == "update_only: not at the destination", "\(more.outcomes)")
        #expect(try contacts().count == 4)
    }

    @Test func createOnlyLeavesAContactTheUserMadeAlone() throws {
        defer { t.remove() }
        try control("/_double/seed", ["contacts": [["names": [["givenName": "Old"]], "emailAddresses": [["value": "person2@example.com"]]]]])
        let run = try run(try t.list("leads.csv", count: 2), policy: "destinations: {google-contacts: {mode: create_only}}\n")
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.outcomes[2]?[0] == "created")
        #expect(run.outcomes[3]?[0] == "skipped" && run.outcomes[3]?[1] == "create_only: already at the destination", "\(run.outcomes)")
        #expect(Self.values(try #require(Self.contact(try contacts(), email: "person2@example.com")), "names", "givenName") == ["Old"])
    }
}

extension GoogleContactsDestinationTests {
    /// The ledger keeps each contact's etag as LeadPort last wrote it (issue 13 item 1), after a
    /// create and after an update: the version that tells a contact someone changed since.
    @Test func theLedgerKeepsTheEtagOfWhatWasWritten() throws {
        defer { t.remove() }
        func ledger() throws -> [String: String] {
            let db = try DatabaseQueue(path: t.dir.appendingPathComponent("ledger.db").path)
            return try db.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT remote_id, remote_version FROM leadport_ledger").map { ($0[0] as String, ($0[1] as String?) ?? "") })
            }
        }
        func etags() throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try contacts().map { ($0["resourceName"] as! String, $0["etag"] as? String ?? "?") })
        }
        #expect(try run(try t.list("leads.csv", count: 3)).result.status == 0)
        #expect(try ledger() == etags())
        let changed = try run(try t.list("leads.csv", count: 3) { k, cells in if k == 2 { cells[2] = "617-555-0999" } })
        #expect(changed.outcomes[3]?[0] == "updated")
        let (kept, now) = (try ledger(), try etags())
        #expect(kept == now, "\(kept) \(now)")
    }
}
