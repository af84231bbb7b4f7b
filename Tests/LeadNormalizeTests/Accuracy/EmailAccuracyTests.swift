@testable import LeadNormalize
import Testing

/// Labelled email addresses written from RFC 5321 (§4.1.2 Mailbox, §4.1.3 address literals,
/// §4.5.3.1 sizes), RFC 5322 (addr-spec, name-addr), RFC 3696 §3 (its examples of unusual
/// but valid local parts), RFC 6531/6532 (UTF-8 addresses), RFC 6761/6762/7686 (special-use
/// names) and issue 12's contract (a repair is only a suggestion).
@Suite struct EmailAccuracyTests {
    /// One case: `normalized` nil means invalid; `suggestion` is scored only when given.
    struct Case {
        var input: String
        var normalized: String?
        var suggestion: String??

        init(_ input: String, _ normalized: String?, suggestion: String?? = .none) {
            (self.input, self.normalized, self.suggestion) = (input, normalized, suggestion)
        }
    }

    static let long63 = String(repeating: "a", count: 63)
    static let long64 = String(repeating: "b", count: 64)

    static let cases: [Case] = [
        // Dot-atom local parts (RFC 5322 atext) and ordinary domains.
        Case("simple@example.com", "simple@example.com"),
        Case("very.common@example.com", "very.common@example.com"),
        Case("disposable.style.email.with+symbol@example.com", "disposable.style.email.with+symbol@example.com"),
        Case("other.email-with-hyphen@example.com", "other.email-with-hyphen@example.com"),
        Case("fully-qualified-domain@example.com", "fully-qualified-domain@example.com"),
        Case("user.name+tag+sorting@example.com", "user.name+tag+sorting@example.com"),
        Case("x@example.com", "x@example.com"),
        Case("example-indeed@strange-example.com", "example-indeed@strange-example.com"),
        Case("test/test@test.com", "test/test@test.com"),
        Case("example@s.example", "example@s.example"),
        Case("mailhost!username@example.org", "mailhost!username@example.org"),
        Case("user%example.com@example.org", "user%example.com@example.org"),
        Case("user-@example.org", "user-@example.org"),
        Case("customer/department=shipping@example.com", "customer/department=shipping@example.com"),
        Case("$A12345@example.com", "$A12345@example.com"),
        Case("!def!xyz%abc@example.com", "!def!xyz%abc@example.com"),
        Case("_somename@example.com", "_somename@example.com"),
        Case("a!#$%&'*+/=?^_`{|}~b@example.com", "a!#$%&'*+/=?^_`{|}~b@example.com"),
        Case("first.middle.last@sub.domain.example.co.uk", "first.middle.last@sub.domain.example.co.uk"),
        Case("jane_doe@example.museum", "jane_doe@example.museum"),
        Case("info@123.com", "info@123.com"),
        Case("a@b.c.d.example.com", "a@b.c.d.example.com"),
        Case("sales@my-company.io", "sales@my-company.io"),
        Case("o'brien@example.ie", "o'brien@example.ie"),
        Case("agent@realty.agency", "agent@realty.agency"),
        Case("j@ex--ample.com", "j@ex--ample.com"),
        Case("user@xn--bcher-kva.example", "user@bücher.example"),  // issue 23: IDN domains in Unicode (RFC 6532)
        Case("user@example.xn--p1ai", "user@example.рф"),
        // The domain in lower case, the local part as written (RFC 5321 §2.4).
        Case("Jane.Doe@EXAMPLE.COM", "Jane.Doe@example.com"),
        Case("UPPER@EXAMPLE.ORG", "UPPER@example.org"),
        Case("MixedCase@Example.Net", "MixedCase@example.net"),
        Case("  padded@example.com  ", "padded@example.com"),
        Case("\tpadded.tab@example.com", "padded.tab@example.com"),
        // RFC 5322 name-addr and mailto: links hold an address that is used as written.
        Case("Jane Doe <jane@example.com>", "jane@example.com"),
        Case("\"Doe, Jane\" <jane.doe@example.com>", "jane.doe@example.com"),
        Case("<bob@example.org>", "bob@example.org"),
        Case("mailto:info@example.com", "info@example.com"),
        Case("MAILTO:Info@Example.com?subject=Hello", "Info@example.com"),
        // Quoted local parts (RFC 5321 Quoted-string) kept intact.
        Case("\" \"@example.org", "\" \"@example.org"),
        Case("\"john..doe\"@example.org", "\"john..doe\"@example.org"),
        Case("\"john doe\"@example.com", "\"john doe\"@example.com"),
        Case("\"Abc@def\"@example.com", "\"Abc@def\"@example.com"),
        Case("\"Fred\\\"Bloggs\"@example.com", "\"Fred\\\"Bloggs\"@example.com"),
        Case("\"Joe.\\\\Blow\"@example.com", "\"Joe.\\\\Blow\"@example.com"),
        Case("\"test\\ blah\"@example.com", "\"test\\ blah\"@example.com"),
        Case("\"very.(),:;<>[]\\\".VERY.\\\"very@\\\\ \\\"very\\\".unusual\"@strange.example.com",
             "\"very.(),:;<>[]\\\".VERY.\\\"very@\\\\ \\\"very\\\".unusual\"@strange.example.com"),
        Case("\"\"@example.com", "\"\"@example.com"),
        Case("\"quoted\"@EXAMPLE.COM", "\"quoted\"@example.com"),
        Case("\"unclosed@example.com", nil),
        Case("\"a\"b\"@example.com", nil),
        Case("\"a\"x@example.com", nil),
        // Address literals (RFC 5321 §4.1.3) kept intact.
        Case("postmaster@[123.123.123.123]", "postmaster@[123.123.123.123]"),
        Case("user@[192.0.2.1]", "user@[192.0.2.1]"),
        Case("postmaster@[IPv6:2001:0db8:85a3:0000:0000:8a2e:0370:7334]", "postmaster@[IPv6:2001:0db8:85a3:0000:0000:8a2e:0370:7334]"),
        Case("_test@[IPv6:2001:db8::1]", "_test@[IPv6:2001:db8::1]"),
        Case("user@[IPv6:::1]", "user@[IPv6:::1]"),
        Case("user@[IPv6:1:2:3:4:5:6:7:8]", "user@[IPv6:1:2:3:4:5:6:7:8]"),
        Case("user@[IPv6:::ffff:192.0.2.1]", "user@[IPv6:::ffff:192.0.2.1]"),
        Case("user@[IPv6:1:2:3:4:5:6:192.0.2.1]", "user@[IPv6:1:2:3:4:5:6:192.0.2.1]"),
        Case("user@[192.0.2.256]", nil),
        Case("user@[1.2.3]", nil),
        Case("user@[IPv6:1:2:3:4:5:6:7]", nil),
        Case("user@[IPv6:1::2:3:4:5:6:7]", nil),
        Case("user@[IPv6:1::2::3]", nil),
        Case("user@[IPv6:12345::1]", nil),
        Case("user@[tag:content]", nil),
        Case("user@[192.0.2.1", nil),
        // RFC 6531 internationalised addresses: valid, the domain in Unicode lower case.
        Case("用户@例子.广告", "用户@例子.广告"),
        Case("अजय@डाटा.भारत", "अजय@डाटा.भारत"),
        Case("квіточка@пошта.укр", "квіточка@пошта.укр"),
        Case("θσερ@εχαμπλε.ψομ", "θσερ@εχαμπλε.ψομ"),
        Case("Dörte@Sörensen.example.com", "Dörte@sörensen.example.com"),
        Case("коля@пример.рф", "коля@пример.рф"),
        Case("josé@BÜCHER.DE", "josé@bücher.de"),
        Case("ñoño@example.com", "ñoño@example.com"),
        Case("user@MÜNCHEN.de", "user@münchen.de"),
        // Special-use names (RFC 6761, 6762, 7686): no mail reaches them.
        Case("user@example.test", nil),
        Case("user@EXAMPLE.TEST", nil),
        Case("user@printer.local", nil),
        Case("user@host.localhost", nil),
        Case("user@expyuzz4wqqyqhjn.onion", nil),
        Case("user@1.0.0.127.in-addr.arpa", nil),
        Case("user@home.arpa", nil),
        Case("user@foo.invalid", nil),
        Case("user@localhost", nil),
        // Sizes (RFC 5321 §4.5.3.1): local part 64 octets, labels 63, the path 256 (address 254).
        Case(long64 + "@example.com", long64 + "@example.com"),
        Case(long64 + "x@example.com", nil),
        Case("a@" + long63 + ".com", "a@" + long63 + ".com"),
        Case("a@" + long63 + "a.com", nil),
        Case(long64 + "@" + [long63, long63, String(repeating: "c", count: 57), "com"].joined(separator: "."),
             long64 + "@" + [long63, long63, String(repeating: "c", count: 57), "com"].joined(separator: ".")),
        Case(long64 + "@" + [long63, long63, String(repeating: "c", count: 58), "com"].joined(separator: "."), nil),
        // Not addresses.
        Case("", nil),
        Case("Abc.example.com", nil),
        Case("A@b@c@example.com", nil),
        Case("a\"b(c)d,e:f;g<h>i[j\\k]l@example.com", nil),
        Case("just\"not\"right@example.com", nil),
        Case("this is\"not\\allowed@example.com", nil),
        Case("this\\ still\\\"not\\\\allowed@example.com", nil),
        Case("i.like.underscores@but_they_are_not_allowed_in_this_part", nil),
        Case("@example.com", nil),
        Case("user@", nil),
        Case(".user@example.com", nil),
        Case("user.@example.com", nil),
        Case("us..er@example.com", nil),
        Case("user@.example.com", nil),
        Case("user@example..com", nil),
        Case("user@-example.com", nil),
        Case("user@example-.com", nil),
        Case("user@example.c", nil),
        Case("user@example.123", nil),
        Case("user@1.2.3.4", nil),
        Case("user@exa_mple.com", nil),
        Case("user(comment)@example.com", nil),
        Case("user@example", nil),
        Case("N/A", nil),
        // Never repaired silently: invalid, the repair only suggested.
        Case("john smith@example.com", nil, suggestion: "johnsmith@example.com"),
        Case("john@example .com", nil, suggestion: "john@example.com"),
        Case(" bob @ example.org ;", nil, suggestion: "bob@example.org"),
        Case("jane@example.com.", "jane@example.com"),  // issue 23: a copied trailing mark is taken off
        Case("(ann@example.com)", nil, suggestion: "ann@example.com"),
        Case("'pat@example.com'", nil, suggestion: "pat@example.com"),
        Case("ann\u{00A0}@example.com", nil, suggestion: "ann@example.com"),
        Case("mary jones@gmial.com", nil, suggestion: "maryjones@gmail.com"),
        // A misspelt common domain is valid as written, the fix suggested.
        Case("jane@gmial.com", "jane@gmial.com", suggestion: "jane@gmail.com"),
        Case("bob@yahoo.con", "bob@yahoo.con", suggestion: "bob@yahoo.com"),
        Case("bob@hotmial.com", "bob@hotmial.com", suggestion: "bob@hotmail.com"),
        Case("ann@outlok.com", "ann@outlok.com", suggestion: "ann@outlook.com"),
        Case("ann@gmail.com", "ann@gmail.com", suggestion: nil),
        Case("ann@acme-realty.com", "ann@acme-realty.com", suggestion: nil),
        // RFC 3696 §3 and further RFC 5321 cases.
        Case("\"Abc\\@def\"@example.com", "\"Abc\\@def\"@example.com"),
        Case("\"Fred Bloggs\"@example.com", "\"Fred Bloggs\"@example.com"),
        Case("\"Joe\\\\Blow\"@example.com", "\"Joe\\\\Blow\"@example.com"),
        Case("user+mailbox/department=shipping@example.com", "user+mailbox/department=shipping@example.com"),
        Case("test@[IPv6:1111:2222:3333:4444:5555:6666:7777:8888]", "test@[IPv6:1111:2222:3333:4444:5555:6666:7777:8888]"),
        Case("test@[IPv6:1111:2222:3333:4444:5555:6666::8888]", nil),
        Case("test@[IPv6::3333:4444:5555:6666:7777:8888]", nil),
        Case("test@255.255.255.255", nil),
        Case("test@iana.org-", nil),
        Case("test@xn--hxajbheg2az3al.xn--jxalpdlp", "test@παράδειγμα.δοκιμή"),
        Case("😀@example.com", "😀@example.com"),
        Case("test\u{200B}@example.com", nil),
        Case("TEST@GMAIL.COM", "TEST@gmail.com", suggestion: nil),
        Case("test@exam ple.com", nil, suggestion: "test@example.com"),
        Case("ann@gmail.com; bob@gmail.com", nil),
        Case("ann@gmail.com, bob@yahoo.com", nil),
        Case("bob@@example.com", nil),
        Case("bob@example.com>", nil),
    ]

    @Test func accuracy() {
        var tally = AccuracyTally(rule: "email")
        for c in Self.cases {
            let r = EmailRule.normalize(c.input)
            var expected: [String: String?] = ["valid": String(c.normalized != nil), "normalized": c.normalized]
            var actual: [String: String?] = ["valid": String(r.valid), "normalized": r.normalized]
            if case .some(let suggestion) = c.suggestion {
                expected["suggestion"] = suggestion
                actual["suggestion"] = r.suggestion
            }
            tally.score(input: c.input, expected: expected, actual: actual)
        }
        #expect(tally.cases >= 100)
        let below = tally.publish(floors: ["valid": 0.98, "normalized": 0.98, "suggestion": 0.9], defaultFloor: 0.98)
        #expect(below.isEmpty, "\(below)")
    }
}
