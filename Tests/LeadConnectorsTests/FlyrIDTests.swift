import LeadConnectors
import Testing

@Suite struct FlyrIDTests {
    /// The ids are RFC 9562 version-5 UUIDs in LeadPort's namespace over the parts joined by
    /// U+001F: the expected values come from Python's `uuid.uuid5`, so rows a PostgreSQL or
    /// Supabase destination already holds keep their ids whatever computes the hash.
    @Test func versionFiveUUIDs() {
        #expect(FlyrID.stable("postgres", "campaign", "owner-1", "Spring farm") == "2ea4646d-765b-54f9-8bd4-61e83347417e")
        #expect(FlyrID.stable("supabase", "c-9", "e:ana@example.com", "contact") == "2421b6b5-162d-58c1-9b27-5f0d1bca6afb")
    }

    /// The ledger's and the report's remote id: `contact|a:address`, either alone, and split
    /// back into the same parts (ledgers hold these, so the format is fixed).
    @Test func remoteIDsJoinAndSplit() {
        let cases: [(String?, String?, String)] = [
            ("01a2-c", "01a2-a", "01a2-c|a:01a2-a"), ("01a2-c", nil, "01a2-c"), (nil, "01a2-a", "a:01a2-a"),
            (nil, nil, ""), ("", "01a2-a", "a:01a2-a"), ("ß-ü", "é", "ß-ü|a:é"),
        ]
        for (contact, address, id) in cases {
            #expect(FlyrID.join(contact: contact, address: address) == id)
            let split = FlyrID.split(id)
            #expect(split.contact == (contact?.isEmpty == false ? contact : nil))
            #expect(split.address == address)
        }
    }
}
