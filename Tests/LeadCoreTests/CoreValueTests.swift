import Foundation
import LeadCore
import Testing

@Suite struct RecordIDTests {
    @Test func idsAreVersion7UUIDsInCreationOrderAndUnique() {
        let generator = RecordIDGenerator()
        let ids = (0..<20_000).map { _ in generator.next() }
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted(), "ids must sort in the order they were made")
        for id in ids.prefix(100) {
            let parts = id.split(separator: "-")
            #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
            #expect(parts[2].first == "7")  // version 7
            #expect("89ab".contains(parts[3].first!))  // RFC 9562 variant
            #expect(id == id.lowercased())
        }
        // The first 48 bits are the time of creation in milliseconds.
        let millis = UInt64(ids[0].replacingOccurrences(of: "-", with: "").prefix(12), radix: 16) ?? 0
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        #expect(millis <= now && now - millis < 60_000, "\(ids[0]) holds \(millis), now is \(now)")
        #expect(UUID(uuidString: ids[0]) != nil)
    }
}

@Suite struct TrimmingTests {
    @Test(arguments: [
        ("  a b  ", "a b"), ("\t\r\nx\n", "x"), ("\u{00A0}NBSP\u{2003}", "NBSP"), ("", ""), ("   ", ""), ("é", "é"), (" ☃ ", "☃"),
        ("x", "x"), ("ab\u{00A0}", "ab"), ("\u{2003}ab", "ab"), ("a\u{2003}b", "a\u{2003}b"), ("a\n", "a"),
    ])
    func trimsUnicodeWhiteSpaceAtBothEnds(input: String, output: String) {
        #expect(input.trimmed == output)
        #expect(input[...].trimmed == output)
    }
}

@Suite struct CivilDateTests {
    @Test func daysAndFromDaysAreInverses() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (y, m, d) = CivilDate.fromDays(days)
            #expect(CivilDate.days(y, m, d) == days)
        }
        #expect(CivilDate.days(1970, 1, 1) == 0)
        #expect(CivilDate.days(2000, 3, 1) == 11_017)
    }

    @Test func excelSerialsOfISODates() {
        #expect(CivilDate.excelSerial(iso: "2024-03-01") == 45_352)
        #expect(CivilDate.excelSerial(iso: "1900-03-01") == 61)
        #expect(CivilDate.excelSerial(iso: "1900-02-28") == nil)  // before Excel's fictitious leap day
        #expect(CivilDate.excelSerial(iso: "2024-02-30") == nil)
        #expect(CivilDate.excelSerial(iso: "2024-3-1") == nil)
        #expect(CivilDate.excelSerial(45_352, date1904: false) == "2024-03-01")
    }
}

@Suite struct PostalAddressTests {
    @Test func linesAreBuiltFromTheParts() {
        var a = PostalAddress()
        #expect(a.isEmpty && a.deliveryLine == nil && a.formatted == nil && a.streetLine == nil)
        a.houseNumber = "12"
        a.streetPredirectional = "N"
        a.streetName = "MAIN"
        a.streetSuffix = "ST"
        a.unitType = "APT"
        a.unitID = "4"
        #expect(!a.isEmpty)
        #expect(a.streetLine == "N MAIN ST")
        #expect(a.deliveryLine == "12 N MAIN ST APT 4")
        #expect(a.formatted == "12 N MAIN ST APT 4")
        a.city = "BOSTON"
        a.state = "MA"
        a.postalCode = "02134"
        a.zip4 = "1234"
        #expect(a.formatted == "12 N MAIN ST APT 4, BOSTON, MA 02134-1234")
        var box = PostalAddress()
        box.poBoxID = "77"
        box.postalCode = "34102"
        #expect(box.deliveryLine == "PO BOX 77")
        #expect(box.formatted == "PO BOX 77, 34102")
        var cityOnly = PostalAddress()
        cityOnly.city = "NAPLES"
        #expect(!cityOnly.isEmpty && cityOnly.deliveryLine == nil && cityOnly.formatted == "NAPLES")
    }
}

@Suite struct LeadFieldTests {
    @Test func ordinalsAreTheCasePositions() {
        #expect(LeadField.allCases.map(\.ordinal) == Array(0..<LeadField.allCases.count))
    }
}

@Suite struct FieldOriginsTests {
    @Test func setReplaceAndRemoveByField() {
        var origins = FieldOrigins()
        #expect(origins[.email] == nil)
        origins[.email] = .column(Column(index: 2))
        origins[.phone] = .rule("excel repair")
        origins[.email] = .column(Column(index: 3))
        #expect(origins[.email] == .column(Column(index: 3)))
        #expect(origins.entries.map(\.field) == [.email, .phone])
        origins[.email] = nil
        #expect(origins[.email] == nil && origins[.phone] == .rule("excel repair"))
        #expect(origins.entries.count == 1)
    }
}

@Suite struct JSONTextTests {
    @Test func quotedTextReadsBackAsItWasThroughFoundationsParser() throws {
        let samples = ["", "plain", "O'Brien \"Jr\"", "back\\slash", "line\nbreak\r\ttab", "\u{01}\u{1F}\u{7F}",
                       "Zoë Ångström 北京 🏠", "ends with \\", "\"", String(repeating: "ab\"", count: 300)]
        for sample in samples {
            let parsed = try JSONSerialization.jsonObject(with: Data(("[" + JSONText.quote(sample) + "]").utf8)) as? [String]
            #expect(parsed == [sample], "\(sample.debugDescription)")
        }
        #expect(JSONText.quote("a\u{01}\"b") == #""a\u0001\"b""#)
    }

    @Test func anObjectKeepsItsFieldsInOrderWithNullsAndNumbers() throws {
        var o = JSONObject()
        o.set("name", "Ann \"Lee\"")
        o.set("email", nil as String?)
        o.set("seq", 7)
        o.set("ok", true)
        o.set("rate", 2.5)
        o.set("nested", json: "[1,2]")
        #expect(o.text == #"{"name":"Ann \"Lee\"","email":null,"seq":7,"ok":true,"rate":2.5,"nested":[1,2]}"#)
        #expect(JSONObject().text == "{}")
    }
}
