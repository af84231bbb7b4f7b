import Foundation
import LeadCore
@testable import LeadNormalize
import LeadTesting
import Testing

private func load(_ yaml: String) throws -> Mapping {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-mapping-\(UUID().uuidString).yaml")
    try yaml.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    return try Mapping.load(path: url.path)
}

/// The message of the MappingError a bad mapping file gives.
private func problem(_ yaml: String) -> String? {
    do {
        _ = try load(yaml)
        return nil
    } catch let error as MappingError {
        return error.description
    } catch {
        return "unexpected \(error)"
    }
}

@Suite struct MappingFileTests {
    @Test func aFullMappingLoads() throws {
        let m = try load("""
            description: "Spring farm list"
            target: both
            sheet: Leads
            header_row: 4
            columns:
              "Owner Name": full_name
              "Phone": {field: phone, transform: [first, digits]}
              "Email": {field: email, transform: trim}
              "Internal ID": ignore
              C: zip
            defaults: {region: CA, date_order: dmy, state: ON, campaign: Spring, address_style: as-written}
            dedupe: [address, email]
            required: [full_name, address]
            extras: notes
            missing_columns: ignore
            """)
        #expect(m.target == .both && m.sheet == "Leads" && m.headerRow == 4)
        #expect(m.columns["Owner Name"] == ColumnRule(.fullName))
        #expect(m.columns["Phone"] == ColumnRule(.phone, transforms: [.first, .digits]))
        #expect(m.columns["Email"] == ColumnRule(.email, transforms: [.trim]))
        #expect(m.columns["Internal ID"] == ColumnRule(nil))
        #expect(m.columns["C"] == ColumnRule(.zip))
        #expect(m.defaults.region == "CA" && m.defaults.dateOrder == .dmy && m.defaults.state == "ON" && m.defaults.addressStyle == .asWritten)
        #expect(m.dedupe == [.address, .email] && m.required == [.fullName, .address] && m.extras == .notes && m.missingColumns == .ignore)
    }

    @Test func whatYamlWritesLoadsBackTheSame() throws {
        var m = Mapping()
        m.description = "a \"quoted\" description"
        m.target = .campaignAddresses
        m.headerRow = 2
        m.columns = ["Name": ColumnRule(.fullName), "Tel: home": ColumnRule(.phone, transforms: [.digits]), "Junk": ColumnRule(nil)]
        m.defaults.region = "US"
        m.defaults.state = "MA"
        m.required = [.address]
        m.missingColumns = .ignore
        #expect(try load(m.yaml(comment: "generated\n\nby a test")) == m)
    }

    @Test(arguments: [
        ("colums:\n  Name: full_name\n", "at colums: unknown key \"colums\"; expected one of: description, target"),
        ("columns:\n  Name: fullname\n", "at columns.Name: unknown field \"fullname\"; fields: full_name"),
        ("columns:\n  Name: {field: full_name, transform: [shout]}\n", "at columns.Name.transform[0]: \"shout\" is not a transform; expected one of: trim"),
        ("columns:\n  Name: {transform: upper}\n", "at columns.Name: \"field\" is missing"),
        ("columns:\n  Name: {field: full_name, transfrom: upper}\n", "at columns.Name.transfrom: unknown key"),
        ("columns:\n  Name: {field: full_name, order: surname}\n", "\"surname\" is not a name order; expected one of: first-last, last-first, auto"),
        ("columns:\n  Phone: {field: phone, order: auto}\n", "order applies to a full_name column"),
        ("target: people\n", "at target: \"people\" is not a target; expected one of: contacts, campaign_addresses, both"),
        ("required: [name]\n", "at required[0]: \"name\" is not a field"),
        ("dedupe: [mail]\n", "at dedupe[0]: \"mail\" is not a dedupe key; expected one of: email, phone, address"),
        ("defaults:\n  state: Massachussets\n", "at defaults.state: \"Massachussets\" is not a US state or Canadian province"),
        ("defaults:\n  date_order: ymd\n", "at defaults.date_order: \"ymd\" is not a date order; expected one of: mdy, dmy"),
        ("defaults:\n  regoin: US\n", "at defaults.regoin: unknown key \"regoin\""),
        ("defaults:\n  region: USA\n", "at defaults.region: \"USA\" is not a phone region"),
        ("columns: [a\n", "not valid YAML"),
    ])
    func aBadMappingSaysWhereAndWhatIsAllowed(yaml: String, expected: String) {
        let message = problem(yaml)
        #expect(message?.contains("not a valid mapping") == true || expected == "not valid YAML")
        #expect(message?.contains(expected) == true, "\(message ?? "loaded")")
    }

    /// Issue 23: a name column's order reads and writes back as written.
    @Test func aNameColumnKeepsItsOrder() throws {
        let mapping = try load("columns:\n  Owner: {field: full_name, order: last-first}\n  Name: full_name\n")
        #expect(mapping.columns["Owner"]?.order == .lastFirst)
        #expect(mapping.columns["Name"]?.order == nil)
        #expect(mapping.columns["Owner"]?.yaml == "{field: full_name, order: last-first}")
        #expect(mapping.columns["Name"]?.yaml == "full_name")
    }

    /// The `mapping` fuzz target's first finding: loading an empty file leaked a buffer
    /// (Foundation's `FileManager.contents`); it is now read with read(2) and refused as empty.
    @Test func anEmptyMappingFileIsRefusedAsEmpty() {
        let path = Fixture.url("fuzz/mapping-empty-file-leak.yaml").path
        #expect(throws: MappingError.invalid(path, "the file is empty")) { _ = try Mapping.load(path: path) }
        #expect(problem(" \n\t\n")?.hasSuffix(": not a valid mapping: the file is empty") == true)
    }

    @Test func anUnreadableFileIsNamed() {
        #expect(throws: MappingError.unreadable("/nonexistent/m.yaml")) { _ = try Mapping.load(path: "/nonexistent/m.yaml") }
    }

    @Test(arguments: [
        (Transform.trim, "  a b  ", "a b"),
        (.collapseSpaces, "12  Main\t\nSt", "12 Main St"),
        (.upper, "Main", "MAIN"),
        (.lower, "Bob@Example.COM", "bob@example.com"),
        (.proper, "MARY O'NEIL-MCDONALD", "Mary O'Neil-McDonald"),
        (.digits, "Tel. 617/555-0100", "6175550100"),
        (.first, "a@x.example, b@y.example", "a@x.example"),
        (.first, "+1 617-555-0110 ::: 617-555-0111", "+1 617-555-0110"),
    ])
    func transforms(transform: Transform, input: String, output: String) {
        #expect(transform.apply(input) == output)
    }

    @Test func everyShippedPresetLoadsAndNamesAnIdentifyingColumn() throws {
        let presets = Fixture.root.appendingPathComponent("mappings")
        let files = try FileManager.default.contentsOfDirectory(atPath: presets.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files == ["flyr-contacts.yaml", "flyr-recipients.yaml", "followupboss-export.yaml", "generic-leads.yaml",
                          "google-contacts-csv.yaml", "hubspot-export.yaml", "owner-list.yaml"])
        for file in files {
            let m = try Mapping.load(path: presets.appendingPathComponent(file).path)
            #expect(m.description?.isEmpty == false, "\(file) has no description")
            #expect(m.missingColumns == .ignore, "\(file)")
            #expect(m.columns.values.contains { $0.field?.isIdentifying == true }, "\(file)")
        }
    }
}

@Suite struct AutoMapperTests {
    private func field(_ header: String, _ values: [String] = []) -> (LeadField?, Double) {
        let s = AutoMapper.suggest(header: header, values: values, column: 0)
        return (s.field, s.confidence)
    }

    @Test(arguments: [
        ("E-Mail:", LeadField.email), ("Phone Number", .phone), ("Cell Phone", .mobile), ("Zip Code", .zip),
        ("Property Address", .address), ("Owner 1 First Name", .firstName), ("Mailing Zip", .mailingZip),
        ("State/Province", .state), ("Company Name", .company),
        // County parcel exports: the five-digit ZIP as `Zip5`, the owner's as `Mail Zip5`.
        ("Zip5", .zip), ("ZIP 5", .zip), ("Situs Zip", .zip), ("Mail Zip5", .mailingZip), ("Mailing Zip5", .mailingZip),
        ("Postal", .zip), ("Post Code", .zip), ("Mailing Postal", .mailingZip),
        // The owner's, however it is spelt: `Post Code` inside them is not the property's ZIP.
        ("Mailing Post Code", .mailingZip), ("Mail Post Code", .mailingZip), ("Mail Postal", .mailingZip), ("Mailing Postcode", .mailingZip),
        // Any mailing header naming a part of an address is the mailing address's part.
        ("Mailing Zipcode", .mailingZip), ("Mail Zip Code", .mailingZip), ("MAIL_ZIP_CODE", .mailingZip), ("Mail Zipcode", .mailingZip),
        ("Mailing Street Address", .mailingAddress), ("Mailing Street", .mailingAddress), ("Mail Street", .mailingAddress),
        ("Owner Mailing City", .mailingCity), ("Mailing State/Province", .mailingState), ("Zipcode", .zip), ("E-Mail Address", .email),
    ])
    func englishHeaders(header: String, expected: LeadField) {
        let (f, c) = field(header)
        #expect(f == expected)
        #expect(c >= AutoMapper.threshold)
    }

    /// `Postal` alone is the ZIP; as a word of another header it is not (a carrier route).
    @Test func postalIsAZipOnlyAsTheWholeHeader() {
        #expect(field("Postal Carrier Route", ["C001", "R012"]).0 != .zip)
        #expect(field("Postal", ["02134", "95814"]).0 == .zip)
    }

    @Test(arguments: [
        ("Teléfono", LeadField.phone), ("Correo electrónico", .email), ("Dirección", .address), ("Código Postal", .zip),
        ("Nombre", .firstName), ("Apellidos", .lastName), ("Ciudad", .city), ("Celular", .mobile), ("Nombre completo", .fullName),
    ])
    func spanishHeaders(header: String, expected: LeadField) {
        #expect(field(header).0 == expected)
    }

    @Test func partialHeadersMatchWholeWordsTheLongestAndTheLastNoun() {
        #expect(field("Last Sale Date").0 == .date)
        #expect(field("Owner 2 Last Name").0 == .lastName)
        #expect(field("Primary Email Address").0 == .email)
        // "st" is a synonym of state, but not inside another word.
        #expect(field("Best Time").0 == nil)
        // "zip" is a word of its own inside a header (a county's "Situs Zip").
        #expect(field("Situs Zip").0 == .zip)
    }

    /// Headers as list vendors and agents abbreviate them: a name column that says which order
    /// its names are in is a full name, not the first of the two words it mentions.
    @Test(arguments: [
        ("Nm (First Last)", LeadField.fullName), ("Name (Last, First)", .fullName), ("First and Last Name", .fullName),
        ("Ph #", .phone), ("Phone No.", .phone), ("Tel. No", .phone), ("Cell #", .mobile), ("Mobile Number", .mobile),
        ("Mailing Addr", .mailingAddress), ("Property Addr", .address), ("Addr 2", .unit), ("Email Addr", .email),
        ("First Name", .firstName), ("Owner 1 Last Name", .lastName),
    ])
    func abbreviatedHeaders(header: String, expected: LeadField) {
        let (f, c) = field(header)
        #expect(f == expected)
        #expect(c >= AutoMapper.threshold)
    }

    @Test func valuesDecideWhenTheHeaderSaysNothing() {
        let emails = ["ann@example.com", "bob@example.org", "cy@example.net", "dee@example.com", "not given"]
        #expect(field("Contact info", emails) == (.email, 0.85))
        let phones = ["(617) 555-0100", "617.555.0101", "+1 508 555 0123", "6175550199"]
        #expect(field("", phones) == (.phone, 0.85))
        // A ZIP-looking column without a header is only a guess below the threshold.
        let (zip, confidence) = field("", ["02134", "10001", "94103"])
        #expect(zip == .zip && confidence < AutoMapper.threshold)
    }

    @Test func agreementRaisesConfidenceAndClearValuesOverruleAVagueHeader() {
        #expect(field("Phone", ["617-555-0100", "617-555-0101"]) == (.phone, 0.99))
        // Header says notes, every value is an email address.
        #expect(field("Notes", ["ann@example.com", "bob@example.com"]).0 == .email)
    }

    @Test func eachFieldGoesToItsMostConfidentColumnAndWeakOnesStayOut() {
        let suggestions = [
            AutoMapper.suggest(header: "Owner 1 First Name", values: ["Ann"], column: 0),
            AutoMapper.suggest(header: "Owner 2 First Name", values: ["Bob"], column: 1),
            AutoMapper.suggest(header: "", values: ["02134", "10001"], column: 2),
            AutoMapper.suggest(header: "Phone", values: ["617-555-0100"], column: 3),
        ]
        let m = AutoMapper.mapping(headers: ["Owner 1 First Name", "Owner 2 First Name", "", "Phone"], suggestions: suggestions)
        #expect(m.columns == ["Owner 1 First Name": ColumnRule(.firstName), "Phone": ColumnRule(.phone)])
    }
}

/// `mode`, `update` and `destinations` (issue 13, item 4).
@Suite struct MappingPolicyTests {
    @Test func aDestinationsSectionIsLaidOverTheTopLevelModeAndPolicies() throws {
        let m = try load("""
            columns: {Email: email}
            mode: create_only
            update: {phone: fill_blank, email: append, notes: never}
            destinations:
              hubspot:
                mode: update_only
                update: {phone: overwrite, company: fill_blank}
                properties: {lead_import_key: "Row ID"}
                id_property: lead_import_key
              sqlite: {update: {notes: overwrite}}
            """)
        let hubspot = m.policy(for: "hubspot")
        #expect(hubspot.mode == .updateOnly)
        #expect(hubspot.update == ["phone": .overwrite, "email": .append, "notes": .never, "company": .fillBlank])
        #expect(hubspot.options == ["properties": .table(["lead_import_key": "Row ID"]), "id_property": .text("lead_import_key")])
        let sqlite = m.policy(for: "sqlite")
        #expect(sqlite.mode == .createOnly && sqlite[.notes] == .overwrite && sqlite[.phone] == .fillBlank && sqlite.options.isEmpty)
        #expect(m.policy(for: "webhook") == DestinationPolicy(mode: .createOnly, update: ["phone": .fillBlank, "email": .append, "notes": .never]))
        #expect(try load("columns: {Email: email}").policy(for: "hubspot") == DestinationPolicy(), "no keys: upsert, overwrite everything")
        // Where contacts hold lists, the lists are appended to unless the mapping names them.
        let lists: [String: FieldPolicy] = ["email": .append, "phone": .append, "mobile": .append, "tags": .append]
        #expect(try load("columns: {Email: email}").policy(for: "followupboss").update == lists)
        #expect(try load("columns: {Email: email}").policy(for: "google-contacts").update == lists)
        #expect(m.policy(for: "followupboss").update == ["phone": .fillBlank, "email": .append, "notes": .never, "mobile": .append, "tags": .append])
        let replaced = try load("columns: {Email: email}\ndestinations: {google-contacts: {update: {phone: overwrite}}}").policy(for: "google-contacts")
        #expect(replaced[.phone] == .overwrite && replaced[.email] == .append)
        // Written back out, the keys read the same.
        let reread = try load(m.yaml())
        #expect(reread.mode == m.mode && reread.update == m.update && reread.destinations == m.destinations, "\(m.yaml())")
    }

    @Test func aBadModePolicyFieldOrDestinationIsNamedWithWhatIsAllowed() {
        #expect(problem("mode: create")?.contains("at mode: \"create\" is not a mode; expected one of: upsert, create_only, update_only") == true,
                "\(problem("mode: create") ?? "")")
        #expect(problem("update: {phone: keep}")?.contains("\"keep\" is not a field policy; expected one of: overwrite, fill_blank, append, never") == true,
                "\(problem("update: {phone: keep}") ?? "")")
        #expect(problem("update: {fone: never}")?.contains("at update: \"fone\" is not a field; expected one of: full_name,") == true, "\(problem("update: {fone: never}") ?? "")")
        #expect(problem("update: {company: append}")?.contains("company: append adds to a field of several values; it applies to email, mobile, phone, tags") == true,
                "\(problem("update: {company: append}") ?? "")")
        #expect(problem("destinations: {hubspott: {mode: upsert}}")?.contains("\"hubspott\" is not a destination; expected one of: sqlite, postgres, supabase, webhook, hubspot, followupboss, google-contacts") == true,
                "\(problem("destinations: {hubspott: {mode: upsert}}") ?? "")")
        #expect(problem("destinations: {hubspot: {mode: sometimes}}")?.contains("at destinations.hubspot.mode: \"sometimes\" is not a mode") == true,
                "\(problem("destinations: {hubspot: {mode: sometimes}}") ?? "")")
    }
}
