import Foundation
import LeadTesting
@testable import LeadNormalize
import Testing

@Suite struct PhoneRuleTests {
    @Test(arguments: [
        ("(617) 555-0100", "+16175550100"),
        ("617.555.0100", "+16175550100"),
        ("+1 (617) 555-0100", "+16175550100"),
        ("2015550123.0", "+12015550123"),       // Excel turned it into a number
        ("2.015550123E+09", "+12015550123"),    // scientific notation, every digit kept
        ("tel:+44 20 7946 0958", "+442079460958"),
    ])
    func shapesBecomeE164(input: String, e164: String) {
        let r = PhoneRule.normalize(input)
        #expect(r.e164 == e164)
        #expect(r.valid)
    }

    @Test func extensionIsSplitOff() {
        let r = PhoneRule.normalize("617-555-0100 ext. 204")
        #expect(r.e164 == "+16175550100")
        #expect(r.extension == "204")
    }

    @Test func scientificNotationThatLostDigitsIsRejectedNotGuessed() {
        let r = PhoneRule.normalize("2.01555E+09")
        #expect(r.e164 == nil)
        #expect(!r.valid)
        #expect(r.problem?.contains("scientific notation") == true)
    }

    /// The plain-number fast path must answer as libphonenumber's full path does.
    @Test func plainNorthAmericanNumbersAnswerAsTheFullPath() {
        // A toll-free number is valid in every NANP region; libphonenumber names the US.
        for region in ["US", "CA"] {
            let r = PhoneRule.normalize("1-800-555-0199", region: region)
            #expect(r.e164 == "+18005550199" && r.valid && r.region == "US" && r.numberType == "TOLL_FREE", "\(region)")
        }
        // A Canadian number from a US default: valid, and in Canada.
        let toronto = PhoneRule.normalize("(416) 555-0199")
        #expect(toronto.valid && toronto.region == "CA")
        // Leading 1 and +1 are the country code, not digits of the number.
        #expect(PhoneRule.normalize("16175550100").e164 == "+16175550100")
        #expect(PhoneRule.normalize("+1 617 555 0100").e164 == "+16175550100")
        // Ten digits that are no real number, and eleven that are too many.
        let fake = PhoneRule.normalize("123-456-7890")
        #expect(!fake.valid && fake.problem != nil)
        #expect(!PhoneRule.normalize("617 555 01000").valid)
        // The type is looked up only when wanted.
        #expect(PhoneRule.normalize("617-555-0100", wantType: false).numberType == nil)
        #expect(PhoneRule.normalize("617-555-0100").numberType == "FIXED_LINE_OR_MOBILE")
    }

    @Test func regionDecidesNationalNumbers() {
        #expect(PhoneRule.normalize("020 7946 0958", region: "GB").e164 == "+442079460958")
        #expect(PhoneRule.normalize("800 555 0199").numberType == "TOLL_FREE")
        #expect(!PhoneRule.normalize("555-0100").valid)
        #expect(PhoneRule.normalize("call me").problem == "not a phone number")
    }

    /// The shim settles plain US numbers with the fixed-line pattern tried first; over 300,000
    /// numbers (a tenth from the toll-free, premium, personal and special prefixes) it agrees
    /// with libphonenumber's own IsValidNumberForRegion on every one.
    @Test func theFixedLineFirstValidityCheckAgreesWithLibphonenumber() throws {
        #expect(PhoneLibrary.checkValidOrder(300_000, 2026) == 0)
        #expect(PhoneLibrary.checkValidOrder(20_000, 7) == 0)
    }
}

@Suite struct EmailRuleTests {
    @Test(arguments: [
        ("mailto:Jane.Doe@GMAIL.COM", "Jane.Doe@gmail.com"),
        ("Jane Doe <jane@example.com>", "jane@example.com"),
        ("  ann+leads@sub.example.co.uk ", "ann+leads@sub.example.co.uk"),
    ])
    func cleans(input: String, normalized: String) {
        let r = EmailRule.normalize(input)
        #expect(r.normalized == normalized)
        #expect(r.valid)
    }

    @Test(arguments: ["no-at-sign", "a..b@example.com", "a@b", "a@-x.com", "a@x.c0m", "@example.com", "a b@c@d.com"])
    func refuses(input: String) {
        let r = EmailRule.normalize(input)
        #expect(!r.valid)
        #expect(r.normalized == nil)
    }

    @Test func suggestsButNeverApplies() {
        let r = EmailRule.normalize("jane@gmial.com")
        #expect(r.normalized == "jane@gmial.com")
        #expect(r.suggestion == "jane@gmail.com")
        #expect(EmailRule.normalize("bob@yahoo.con").suggestion == "bob@yahoo.com")
        #expect(EmailRule.normalize("bob@hotmial.com").suggestion == "bob@hotmail.com")
        #expect(EmailRule.normalize("bob@gmail.com").suggestion == nil)
        #expect(EmailRule.normalize("bob@acme-realty.com").suggestion == nil)
    }

    /// Issue 12 item 6: a space inside was taken out silently and the address called valid.
    @Test(arguments: [
        ("john smith@gmail.com", "johnsmith@gmail.com"), (" bob @ example.org ;", "bob@example.org"),
        ("ann\u{00A0}@exa\u{2003}mple.com", "ann@example.com"), ("(ann+leads@example.co.uk)", "ann+leads@example.co.uk"),
        ("Jane.Doe@GMAIL.COM!", "Jane.Doe@gmail.com"),
    ])
    func aRepairIsOnlySuggested(input: String, suggestion: String) {
        let r = EmailRule.normalize(input)
        #expect(!r.valid)
        #expect(r.normalized == nil)
        #expect(r.suggestion == suggestion)
    }

    /// Issue 23 item 3: a `,` `;` or `.` copied along after a valid address is taken off and said.
    @Test(arguments: [("bob@example.com,", "bob@example.com", ","), ("bob@example.com;", "bob@example.com", ";"),
                      ("Jane.Doe@GMAIL.COM.", "Jane.Doe@gmail.com", "."), ("bob@example.com.,", "bob@example.com", ".,"),
                      ("Ann Lee <ann@example.com>,", "ann@example.com", ",")])
    func aCopiedTrailingMarkIsTakenOff(input: String, normalized: String, marks: String) {
        let r = EmailRule.normalize(input)
        #expect(r.valid)
        #expect(r.normalized == normalized)
        #expect(r.repair == "trailing \"\(marks)\" removed")
        // Not a guess beyond that: other marks, or an address still invalid, stay suggestions.
        #expect(!EmailRule.normalize("bob@example,com,").valid)
        #expect(EmailRule.normalize("bob@example.com").repair == nil)
    }

    /// Issue 23 item 5: Excel's serial 60 (1900-02-29, which never was) is flagged, not a date.
    @Test func excelSerialSixtyIsFlagged() {
        let r = DateRule.normalize("60", order: nil)
        #expect(!r.valid && r.iso == nil)
        #expect(r.problem?.contains("never was") == true)
        #expect(DateRule.normalize("59", order: nil).iso == "1900-02-28")
        #expect(DateRule.normalize("61", order: nil).iso == "1900-03-01")
    }

    /// RFC 6532: a decomposed address is put in NFC; an IDN domain is given in Unicode.
    @Test func unicodeAddressesAreComposedAndIDNDomainsDecoded() {
        let decomposed = "jose\u{0301}@example.com"
        let r = EmailRule.normalize(decomposed)
        #expect(r.valid)
        #expect(r.normalized == "jos\u{00E9}@example.com")
        #expect(r.normalized?.unicodeScalars.count == 16)
        #expect(EmailRule.normalize("info@xn--mnchen-3ya.de").normalized == "info@münchen.de")
        #expect(EmailRule.normalize("Info@XN--MNCHEN-3YA.DE").normalized == "Info@münchen.de")
        // RFC 3492 §7.1's sample (B): Chinese (simplified).
        #expect(EmailRule.punycodeDecoded("ihqwcrb4cv8a8dqg056pqjye") == "他们为什么不说中文")
        #expect(EmailRule.punycodeDecoded("99999999999") == nil)
    }

    /// Addresses that need a repair are invalid, yet their column is still an email column.
    @Test func aColumnOfRepairableAddressesIsStillEmail() {
        let values = [" ann@example.com. ", "bob smith@example.org", "cy@example.net", "dee@example.com.", "not given"]
        #expect(AutoMapper.shape(of: values) == .email)
    }

    /// Issue 12 item 6: special-use names (RFC 6761, 6762, 7686) receive no mail.
    @Test(arguments: ["a@example.arpa", "a@x.invalid", "a@printer.local", "a@host.localhost", "a@duck.onion", "a@example.test", "A@X.TEST"])
    func specialUseDomainsAreInvalid(input: String) {
        #expect(!EmailRule.normalize(input).valid)
    }

    /// Issue 12 item 6: RFC 6531 addresses are valid, the domain in Unicode lower case.
    @Test func internationalisedAddresses() {
        #expect(EmailRule.normalize("josé@Bücher.DE").normalized == "josé@bücher.de")
        #expect(EmailRule.normalize("用户@例子.广告").normalized == "用户@例子.广告")
    }

    /// Issue 12 item 6: quoted local parts and address literals intact or not at all.
    @Test func quotedAndLiteralIntact() {
        #expect(EmailRule.normalize("\"John Doe\"@Example.com").normalized == "\"John Doe\"@example.com")
        #expect(EmailRule.normalize("user@[IPv6:2001:DB8::1]").normalized == "user@[IPv6:2001:DB8::1]")
        #expect(EmailRule.normalize("user@[192.0.2.1]").normalized == "user@[192.0.2.1]")
        #expect(EmailRule.normalize("user@[192.0.2.256]").normalized == nil)
        #expect(EmailRule.normalize("\"unclosed@example.com").normalized == nil)
    }
}

@Suite struct NameRuleTests {
    @Test func familyFirstWithComma() {
        let n = NameRule.parse("SMITH, JOHN A")
        #expect([n.given, n.middle, n.family] == ["John", "A", "Smith"])
    }

    @Test func prefixSuffixAndInitial() {
        let n = NameRule.parse("Dr. John A. Smith Jr.")
        #expect([n.prefix, n.given, n.middle, n.family, n.suffix] == ["Dr", "John", "A", "Smith", "Jr"])
    }

    @Test(arguments: ["John & Jane Smith", "John and Jane Smith", "JOHN AND JANE SMITH", "SMITH, JOHN & JANE"])
    func couplesSharingAFamilyName(input: String) {
        let n = NameRule.parse(input)
        #expect(n.household)
        #expect([n.given, n.family, n.secondGiven, n.secondFamily] == ["John", "Smith", "Jane", "Smith"])
    }

    @Test func coupleWithTwoFamilyNames() {
        let n = NameRule.parse("John Smith & Jane Doe")
        #expect([n.given, n.family, n.secondGiven, n.secondFamily] == ["John", "Smith", "Jane", "Doe"])
    }

    @Test(arguments: [("Maria de la Cruz", "de la Cruz"), ("LUDWIG VAN DER BERG", "van der Berg"), ("Ana dos Santos", "dos Santos")])
    func particlesStayWithTheFamilyName(input: String, family: String) {
        #expect(NameRule.parse(input).family == family)
    }

    @Test func nicknameInQuotesOrBrackets() {
        #expect(NameRule.parse("Robert \"Bob\" Smith").nickname == "Bob")
        let n = NameRule.parse("Elizabeth (Liz) Taylor")
        #expect([n.given, n.nickname, n.family] == ["Elizabeth", "Liz", "Taylor"])
        let curly = NameRule.parse("William ‘Bill’ O'Reilly")
        #expect([curly.given, curly.nickname, curly.family] == ["William", "Bill", "O'Reilly"])
    }

    /// Issue 12 item 7: titles as `prefix` for each person of a household.
    @Test func mrAndMrsIsAHousehold() {
        let n = NameRule.parse("Mr. and Mrs. Craig Courville")
        #expect(n.household)
        #expect([n.prefix, n.given, n.family, n.secondPrefix, n.secondGiven, n.secondFamily] == ["Mr", "Craig", "Courville", "Mrs", nil, "Courville"])
    }

    /// Issue 12 item 7: each person of a couple keeps a middle initial.
    @Test func coupleKeepsBothMiddleInitials() {
        let n = NameRule.parse("Ronald T. & Karen P. Lindsay")
        #expect([n.given, n.middle, n.family, n.secondGiven, n.secondMiddle, n.secondFamily] == ["Ronald", "T", "Lindsay", "Karen", "P", "Lindsay"])
    }

    /// Issue 12 item 7: a credential after a comma is a suffix, not a `Family, Given` reading.
    @Test(arguments: [("JOHN SMITH, MD", "MD"), ("John Smith, M.D.", "MD"), ("Jane Doe, Ph.D., CPA", "PhD, CPA"), ("John Smith, DO", "DO"), ("Ann Lee, Esq.", "Esq")])
    func credentialsAfterACommaAreSuffixes(input: String, suffix: String) {
        let n = NameRule.parse(input)
        #expect(n.suffix == suffix)
        #expect(n.family != nil && n.given != nil)
        #expect(n.family != n.given)
        #expect(["Smith", "Doe", "Lee"].contains(n.family ?? ""))
    }

    @Test(arguments: [
        ("MCDONALD", "McDonald"), ("O'NEIL", "O'Neil"), ("SMITH-JONES", "Smith-Jones"), ("DeShawn", "DeShawn"),
        ("macdonald", "MacDonald"), ("MACK", "Mack"), ("d'angelo", "D'Angelo"),
    ])
    func properCase(input: String, expected: String) {
        #expect(NameRule.properCase(input) == expected)
    }
}

@Suite struct AddressRuleTests {
    @Test func oneLineWithEverything() {
        let a = AddressRule.parse("123 North Main Street Apartment 4B, Springfield, Massachusetts 01101-1234").address
        #expect(a.houseNumber == "123")
        #expect(a.streetPredirectional == "N")
        #expect(a.streetName == "MAIN")
        #expect(a.streetSuffix == "ST")
        #expect(a.unitType == "APT")
        #expect(a.unitID == "4B")
        #expect(a.city == "SPRINGFIELD")
        #expect(a.state == "MA")
        #expect(a.postalCode == "01101")
        #expect(a.zip4 == "1234")
        #expect(a.formatted == "123 N MAIN ST APT 4B, SPRINGFIELD, MA 01101-1234")
    }

    @Test func noCommasCityAfterTheSuffix() {
        let a = AddressRule.parse("10 Downing St North Adams MA 01247").address
        #expect([a.streetName, a.streetSuffix, a.city] == ["DOWNING", "ST", "NORTH ADAMS"])
        let b = AddressRule.parse("500 W Park Ave SE Suite 200, Washington, DC 20001").address
        #expect([b.streetPredirectional, b.streetName, b.streetSuffix, b.streetPostdirectional, b.unitType, b.unitID] == ["W", "PARK", "AVE", "SE", "STE", "200"])
    }

    @Test func poBoxes() {
        for text in ["PO Box 77, Hanover, NH 03755", "P.O. Box 77 Hanover NH 03755", "Post Office Box 77, Hanover, NH 03755"] {
            let a = AddressRule.parse(text).address
            #expect(a.poBoxID == "77", "\(text)")
            #expect(a.city == "HANOVER", "\(text)")
            #expect(a.deliveryLine == "PO BOX 77")
        }
    }

    @Test func asWrittenKeepsTheWords() {
        let a = AddressRule.parse("45 Elm Avenue, Boston, MA 02134", style: .asWritten).address
        #expect([a.streetName, a.streetSuffix, a.city] == ["Elm", "Avenue", "Boston"])
    }

    @Test func canadianPostalCodes() {
        let a = AddressRule.parse("1 Yonge St, Toronto, ON M5E1W7").address
        #expect([a.city, a.state, a.postalCode, a.country] == ["TORONTO", "ON", "M5E 1W7", "CA"])
    }

    @Test func streetLineOnly() {
        let a = AddressRule.parseStreetLine("12 1/2 Oak Ln Unit 3").address
        #expect([a.houseNumber, a.streetName, a.streetSuffix, a.unitType, a.unitID] == ["12 1/2", "OAK", "LN", "UNIT", "3"])
    }
}

@Suite struct ExcelRepairTests {
    @Test(arguments: [
        ("2134", "MA", "02134"), ("021341234", "MA", "02134-1234"), ("21341234", "MA", "02134-1234"),
        ("601", "PR", "00601"), ("6103", "CT", "06103"), ("2134.0", "Massachusetts", "02134"),
    ])
    func zipsPaddedWhereTheStateSaysSo(input: String, state: String, expected: String) {
        guard case .repaired(let zip, _) = ExcelRepair.usZip(input, state: state) else {
            Issue.record("\(input) was not repaired")
            return
        }
        #expect(zip == expected)
    }

    @Test func zipsNotPaddedWhenTheStateDisagreesOrIsUnknown() {
        if case .repaired = ExcelRepair.usZip("2134", state: "TX") { Issue.record("padded for TX") }
        if case .repaired = ExcelRepair.usZip("2134", state: nil) { Issue.record("padded without a state") }
        #expect(ExcelRepair.usZip("02134", state: "MA") == .unchanged("02134"))
        if case .invalid = ExcelRepair.usZip("123456", state: "MA") {} else { Issue.record("6 digits accepted") }
    }

    /// USPS numbers ZIP codes from 00501: five digits below it are no one's, and `00000` is an
    /// export's "none".
    @Test(arguments: ["00000", "00123", "00499", "00500", "00000-0000", "004991234", "00000.0", " 00042 "])
    func zipsNoOneHasAreNotZips(input: String) {
        guard case .invalid(let why) = ExcelRepair.usZip(input, state: "NY") else {
            Issue.record("\(input) taken for a ZIP")
            return
        }
        #expect(why.contains("numbered from 00501"))
    }

    @Test func theLowestZipsAreZips() {
        #expect(ExcelRepair.usZip("00501", state: "NY") == .unchanged("00501"))
        #expect(ExcelRepair.usZip("00544", state: nil) == .unchanged("00544"))
        #expect(ExcelRepair.usZip("00601", state: "PR") == .unchanged("00601"))
        #expect(ExcelRepair.usZip("005011234", state: "NY") == .repaired("00501-1234", "formatted as ZIP+4"))
        // Three digits that would pad to a prefix no ZIP has are not padded.
        if case .repaired = ExcelRepair.usZip("42", state: "NY") { Issue.record("42 padded") }
    }

    @Test func anAddressWithZipZerosSaysSo() {
        let r = AddressRule.parse("1 Main St, Springfield, IL 00000")
        #expect(r.address.postalCode == nil)
        #expect(r.problems.contains { $0.contains("00000 is not a ZIP code") })
        // Without a state: said too, and never read as a unit or a city.
        for (line, zip) in [("12 Main St 00500-1234", "00500-1234"), ("12 Main St 00042", "00042"), ("12 Main St, Boston 00500-1234", "00500-1234")] {
            let a = AddressRule.parse(line)
            #expect(a.address.postalCode == nil && a.address.unitID == nil && a.address.city?.contains(zip) != true, "\(line): \(a.address)")
            #expect(a.problems.contains { $0.contains("\(zip) is not a ZIP code") }, "\(line): \(a.problems)")
        }
        #expect(AddressRule.parse("12 Main St 00501").address.postalCode == "00501")
    }
}

@Suite struct DateRuleTests {
    @Test(arguments: [
        ("2024-03-01", "2024-03-01"), ("3/1/2024", nil), ("13/1/2024", "2024-01-13"), ("1/13/2024", "2024-01-13"),
        ("1-Mar-2024", "2024-03-01"), ("March 1, 2024", "2024-03-01"), ("45352", "2024-03-01"), ("7/7/24", "2024-07-07"),
        ("2024-03-01T13:45:00", "2024-03-01"),
    ])
    func withoutAnOrder(input: String, iso: String?) {
        #expect(DateRule.normalize(input, order: nil).iso == iso)
    }

    @Test func ambiguousIsFlaggedNotGuessed() {
        let r = DateRule.normalize("03/04/2024", order: nil)
        #expect(r.ambiguous)
        #expect(r.iso == nil)
        #expect(DateRule.normalize("03/04/2024", order: .mdy).iso == "2024-03-04")
        #expect(DateRule.normalize("03/04/2024", order: .dmy).iso == "2024-04-03")
    }

    @Test func impossibleDatesAreInvalid() {
        #expect(!DateRule.normalize("2/30/2024", order: .mdy).valid)
        #expect(!DateRule.normalize("soon", order: .mdy).valid)
        #expect(DateRule.normalize("2/29/2024", order: .mdy).valid)
    }

    /// Issue 12 item 9: "July" (four letters) was read as a year; "March 1, 2024" worked.
    @Test(arguments: [("July 11, 1988", "1988-07-11"), ("June 11, 1988", "1988-06-11"), ("Sept 11, 1988", "1988-09-11"), ("11 July 1988", "1988-07-11")])
    func monthNamesOfFourLetters(input: String, iso: String) {
        #expect(DateRule.normalize(input, order: nil).iso == iso)
    }

    /// Issue 12 item 9: the time goes to `time`, midnight included; `iso` is the date alone.
    @Test func timeIsItsOwnField() {
        let r = DateRule.normalize("9/19/2014 2:35 PM", order: nil)
        #expect([r.iso, r.time] == ["2014-09-19", "14:35:00"])
        let midnight = DateRule.normalize("2024-03-01 00:00", order: nil)
        #expect([midnight.iso, midnight.time] == ["2024-03-01", "00:00:00"])
        #expect(DateRule.normalize("2024-03-01", order: nil).time == nil)
    }

    /// Issue 12 item 9: `ambiguous` says the order decided, even when one was given.
    @Test func ambiguousEvenWithAnOrder() {
        let r = DateRule.normalize("03/04/2024", order: .dmy)
        #expect(r.valid && r.ambiguous && r.iso == "2024-04-03")
        #expect(!DateRule.normalize("13/04/2024", order: .dmy).ambiguous)
        #expect(!DateRule.normalize("04/04/2024", order: nil).ambiguous)
    }

    /// Issue 12 item 9: weekdays, ordinals, compact and full-width dates.
    @Test(arguments: ["Fri, 19 Sep 2014", "19th September 2014", "20140919", "２０１４-０９-１９", "Friday, September 19th, 2014"])
    func moreWritings(input: String) {
        #expect(DateRule.normalize(input, order: nil).iso == "2014-09-19")
    }
}

@Suite struct EmailSpaceTests {
    /// The byte-level removal must drop exactly the characters Unicode calls white space.
    @Test func removesExactlyTheNonASCIIWhiteSpace() {
        var scalars: [Unicode.Scalar] = []
        for v in UInt32(0x80)...UInt32(0x3100) { if let s = Unicode.Scalar(v) { scalars.append(s) } }
        var text = ""
        for s in scalars { text.unicodeScalars.append(s); text += "a" }
        let removed = String(decoding: EmailRule.removingUnicodeSpaces(Array(text.utf8)), as: UTF8.self)
        var expected = ""
        expected.unicodeScalars.append(contentsOf: text.unicodeScalars.filter { !$0.properties.isWhitespace })
        #expect(removed == expected)
        #expect(EmailRule.normalize("ann\u{00A0}@exa\u{2003}mple.com").suggestion == "ann@example.com")
    }
}

/// Issue 12: `e164` and `region` belong to valid numbers only.
@Suite struct PhoneValidityTests {
    @Test func anInvalidNumberHasNoE164AndNoRegion() {
        for input in ["123-456-7890", "617-555-010", "(017) 555-0100"] {
            let r = PhoneRule.normalize(input)
            #expect(!r.valid && r.e164 == nil && r.region == nil && r.problem != nil, "\(input)")
        }
    }

    @Test func theLibraryChecksItselfBeforeAnImport() {
        #expect(PhoneRule.selfCheck() == nil)
    }

    /// A default region the library has no metadata for would make every number without `+`
    /// "not a phone number", so only known regions are taken. They are libphonenumber's own:
    /// held, over all 676 two-letter codes, to the list Python's phonenumbers gives (the same
    /// project's metadata; a newer release that adds a region changes this list).
    @Test func theRegionsKnownAreLibphonenumbers() throws {
        let text = try String(contentsOf: Fixture.url("phone/supported-regions.txt"), encoding: .utf8)
        let listed = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        #expect(listed.count > 200)
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let known = Set(letters.flatMap { a in letters.map { a + $0 } }.filter(PhoneRule.knowsRegion))
        #expect(known == listed, "known only here: \(known.subtracting(listed).sorted()); listed only: \(listed.subtracting(known).sorted())")
        #expect(PhoneRule.knowsRegion("us") && PhoneRule.knowsRegion("Ca"))
        for code in ["", "U", "USA", "ZZ", "001", "U1", "ÜS"] { #expect(!PhoneRule.knowsRegion(code), "\(code)") }
    }
}

/// Issue 12 item 8: each bug named there, with the test that would have caught it.
@Suite struct AddressRuleIssue12Tests {
    @Test func aUnitNeverVanishes() {
        // "STE 305" and "Apt 4" used to be lost when the city followed without a comma.
        let a = AddressRule.parse("John Smith, 123 Main St STE 305, Springfield IL 62701").address
        #expect([a.unitType, a.unitID] == ["STE", "305"])
        let b = AddressRule.parse("123 Main St Apt 4 Springfield IL 62701").address
        #expect([b.unitType, b.unitID, b.city] == ["APT", "4", "SPRINGFIELD"])
        // A second unit is kept, not dropped.
        let c = AddressRule.parse("7 Pine Rd Bldg 3 Apt 4, Dover, DE 19901").address
        #expect([c.unitType, c.unitID, c.unparsed] == ["BLDG", "3", "Apt 4"])
    }

    @Test func aNumberThatIsNoZIPIsKept() {
        // A trailing number read as a bad ZIP used to be discarded.
        let a = AddressRule.parse("123 Main Street Springfield IL 62")
        #expect(a.address.postalCode == nil)
        #expect(a.address.unparsed == "62")
        #expect(a.problems.contains { $0.contains("62") })
    }

    @Test(arguments: [
        ("123 Main St Apt 12", "APT", "12"), ("123 Main St Suite 4500", "STE", "4500"), ("123 Main St # 7", "#", "7"),
    ])
    func aNumberAfterAUnitWordIsNoZIP(input: String, type: String, id: String) {
        let a = AddressRule.parse(input).address
        #expect(a.postalCode == nil)
        #expect([a.unitType, a.unitID] == [type, id])
    }

    @Test func aNumberAfterABoxOrHighwayWordIsNoZIP() {
        #expect(AddressRule.parse("PO Box 12345").address.poBoxID == "12345")
        #expect(AddressRule.parse("PO Box 12345").address.postalCode == nil)
        let h = AddressRule.parse("1234 West US Hwy 50").address
        #expect([h.streetPredirectional, h.streetName, h.postalCode] == ["W", "US HIGHWAY 50", nil])
        let r = AddressRule.parse("RR2 BOX 348").address
        #expect([r.streetName, r.poBoxID, r.postalCode] == ["RR 2", "348", nil])
    }

    @Test func aShortNumberWithoutAStateIsNoZIP() {
        let a = AddressRule.parse("123 Main St Springfield 4").address
        #expect([a.postalCode, a.city, a.unparsed] == [nil, "SPRINGFIELD", "4"])
    }

    @Test func theCityIsFoundWithoutACommaOrAState() {
        #expect(AddressRule.parse("10 Downing St North Adams MA 01247").address.city == "NORTH ADAMS")
        #expect(AddressRule.parse("123 Main St, Springfield").address.city == "SPRINGFIELD")
        #expect(AddressRule.parse("123 Main St Springfield 62701").address.city == "SPRINGFIELD")
        let oregon = AddressRule.parse("123A Main St Portland Oregon 97205").address
        #expect([oregon.city, oregon.state] == ["PORTLAND", "OR"])
    }

    @Test func cityOnlyLines() {
        let a = AddressRule.parse("Wausau, WI 54403").address
        #expect([a.city, a.state, a.postalCode, a.streetName] == ["WAUSAU", "WI", "54403", nil])
        let b = AddressRule.parse("St. Louis, MO 63101").address
        #expect([b.city, b.streetName, b.streetSuffix] == ["ST LOUIS", nil, nil])
    }

    @Test func saintCities() {
        #expect(AddressRule.parse("123 Main St St Louis MO 63101").address.city == "ST LOUIS")
        #expect(AddressRule.parse("456 Elm Ave Port St. Lucie FL 34952").address.city == "PORT ST LUCIE")
    }

    @Test func noDepartmentOrMailStopInTheCity() {
        let a = AddressRule.parse("100 Main St Mail Stop 5 Springfield IL 62701").address
        #expect([a.city, a.unparsed] == ["SPRINGFIELD", "Mail Stop 5"])
        let b = AddressRule.parse("1 University Ave, Dept 12 Lowell, MA 01854").address
        #expect([b.city, b.unitType, b.unitID] == ["LOWELL", "DEPT", "12"])
    }

    @Test(arguments: ["PO Box 77", "P O Box 77", "P.O. Box 77", "POB 77", "Post Office Box 77", "Box 77", "PO Box #77", "POBox 77"])
    func poBoxSpellings(input: String) {
        let a = AddressRule.parse(input + ", Hanover, NH 03755").address
        #expect([a.poBoxID, a.city, a.deliveryLine] == ["77", "HANOVER", "PO BOX 77"])
    }

    @Test func ruralAndHighwayContractRoutes() {
        let rr = AddressRule.parse("RR2 BOX 348, Anytown, KY 40000").address
        #expect([rr.streetName, rr.poBoxID, rr.deliveryLine] == ["RR 2", "348", "RR 2 BOX 348"])
        let hc = AddressRule.parse("HC 284 Box 27, Roy, NM 87743").address
        #expect([hc.streetName, hc.poBoxID, hc.deliveryLine] == ["HC 284", "27", "HC 284 BOX 27"])
    }

    @Test(arguments: [
        ("1234 West US Hwy 50, Pueblo, CO 81008", "US HIGHWAY 50"), ("55 State Route 9, Lake George, NY 12845", "STATE ROUTE 9"),
        ("77 County Road 12, Farmington, NY 14425", "COUNTY ROAD 12"),
    ])
    func highwaysKeepTheirNumber(input: String, name: String) {
        let a = AddressRule.parse(input).address
        #expect(a.streetName == name)
        #expect(a.streetSuffix == nil)
        #expect(a.postalCode != nil)
    }

    @Test func theRecipientIsItsOwnField() {
        let a = AddressRule.parse("Acme Corp 123 Main St Springfield IL 62701").address
        #expect([a.recipient, a.houseNumber, a.city] == ["ACME CORP", "123", "SPRINGFIELD"])
        #expect(a.formatted == "123 MAIN ST, SPRINGFIELD, IL 62701")
        #expect(AddressRule.parseStreetLine("Jane Doe 9 Elm St").address.recipient == "JANE DOE")
    }

    @Test func dottedPostDirectionals() {
        let a = AddressRule.parse("1200 Pennsylvania AVE. N.W. Washington DC 20500").address
        #expect([a.streetSuffix, a.streetPostdirectional, a.city] == ["AVE", "NW", "WASHINGTON"])
    }

    @Test func houseNumbersWithALetterOrAFraction() {
        #expect(AddressRule.parse("123A Main St").address.houseNumber == "123A")
        #expect(AddressRule.parse("123 1/2 Main St").address.houseNumber == "123 1/2")
    }

    @Test func theCountryIsWhatTheAddressShowsElseTheOption() {
        #expect(AddressRule.parse("1 Yonge St, Toronto, ON M5E 1W7").address.country == "CA")
        #expect(AddressRule.parse("123 Main St").address.country == "US")
        #expect(AddressRule.parse("123 Main St", country: "CA").address.country == "CA")
        #expect(AddressRule.parse("123 Main St, Boston, MA 02134", country: "CA").address.country == "US")
        // Canada Post's unit-before-civic form only where the address is Canadian.
        let ca = AddressRule.parse("10-123 Main St NW", country: "CA").address
        #expect([ca.unitID, ca.houseNumber, ca.deliveryLine] == ["10", "123", "10-123 MAIN ST NW"])
        #expect(AddressRule.parse("112-10 Bronx Rd").address.houseNumber == "112-10")
    }

    @Test func nothingWrittenIsDropped() {
        // Every word of the input is in some component (or the recipient or unparsed).
        for input in ["Acme, Attn Billing, 12 Elm St Apt 4 Rear, Springfield, Sangamon County, IL 62",
                      "PO Box 4001 Stn A, Toronto ON M5W 1A1", "100 Main St MS 4410 Springfield IL 62701"] {
            let a = AddressRule.parse(input, style: .asWritten).address
            let parts = [a.recipient, a.houseNumber, a.streetPredirectional, a.streetName, a.streetSuffix, a.streetPostdirectional,
                         a.unitType, a.unitID, a.poBoxID, a.city, a.state, a.postalCode, a.unparsed].compactMap { $0 }.joined(separator: " ")
            let kept = Set(parts.split(whereSeparator: { " ,".contains($0) }).map { $0.uppercased() })
            for word in input.split(whereSeparator: { " ,".contains($0) }) where !["PO", "BOX", "IL", "ON", "MA"].contains(word.uppercased()) {
                #expect(kept.contains(word.uppercased()), "\(word) of \(input)")
            }
        }
    }
}

/// Inputs the rule fuzz targets (fuzz/Sources/RuleTargets.swift) crashed on, kept in
/// fixtures/fuzz/; the first byte is the target's settings byte, the rest the cell's text.
@Suite struct RuleFuzzFindingsTests {
    private func text(_ name: String) throws -> String {
        let data = try Data(contentsOf: Fixture.url("fuzz/" + name))
        return String(decoding: data.dropFirst(), as: UTF8.self)
    }

    /// A six-byte word with a multi-byte letter was cut in the middle of the letter while
    /// being tried as a Canadian postal code (a force-unwrapped String from three bytes).
    @Test func aMultiByteLetterWhereAPostalCodeMightBeDoesNotTrap() throws {
        let r = AddressRule.parse(try text("address-multibyte-in-canadian-postal-code.bin"))
        #expect(r.address.postalCode == nil || r.address.postalCode?.count == 5)
        #expect(AddressRule.parse("1 Main St, Montréal QC H2X-é1B").address.postalCode == nil)
    }

    /// A run of 25 digits overflowed while being read as an Excel serial day number.
    @Test func aLongRunOfDigitsIsNoDateAndDoesNotTrap() throws {
        #expect(!DateRule.normalize(try text("date-long-digit-run-overflows-serial.bin"), order: nil).valid)
        #expect(!DateRule.normalize(String(repeating: "9", count: 40), order: .mdy, date1904: true).valid)
    }
}
