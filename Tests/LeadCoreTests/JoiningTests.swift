import LeadCore
import Testing

/// The joined lines are what appending the parts one by one gives: a separator only after text,
/// an empty part kept, a missing one skipped. The fixed-arity form agrees with the array form.
@Suite struct JoiningTests {
    @Test func theArrayFormIsAppending() {
        #expect(Joining.joined([nil, "12", nil, "MAIN", "ST"], separator: " ") == "12 MAIN ST")
        #expect(Joining.joined(["", "A"], separator: ", ") == "A")
        #expect(Joining.joined(["A", "", "B"], separator: "-") == "A--B")
        #expect(Joining.joined([nil, nil], separator: " ") == "")
    }

    /// Every choice of up to seven parts from a few shapes (missing, empty, text, non-ASCII).
    @Test func theFixedFormAgreesWithTheArrayForm() {
        var checked = 0
        let shapes: [String?] = [nil, "", "12", "é", " "]
        for a in shapes { for b in shapes { for c in shapes { for d in shapes {
            for tail in [[], ["MAIN"], ["ST", nil], [nil, "APT", "4"]] as [[String?]] {
                let all = [a, b, c, d] + tail
                let fixed: String
                switch all.count {
                case 4: fixed = Joining.joined(a, b, c, d, separator: ", ")
                case 5: fixed = Joining.joined(a, b, c, d, all[4], separator: ", ")
                case 6: fixed = Joining.joined(a, b, c, d, all[4], all[5], separator: ", ")
                default: fixed = Joining.joined(a, b, c, d, all[4], all[5], all[6], separator: ", ")
                }
                #expect(fixed == Joining.joined(all, separator: ", "), "\(all)")
                checked += 1
            }
        } } } }
        #expect(checked == 2_500)
        #expect(Joining.joined("12", nil, separator: " ") == "12" && Joining.joined(nil, "MAIN", separator: " ") == "MAIN")
    }
}

/// `hasFullName` is `fullName != nil`, over every shape of name a lead can hold.
@Suite struct HasFullNameTests {
    @Test func itAgreesWithTheFullName() {
        let parts: [String?] = [nil, "", "Ann"]
        var checked = 0
        for given in parts { for middle in parts { for family in parts { for organization in [nil, "Acme LLC"] as [String?] {
            for household in [false, true] { for second in [nil, "Bo"] as [String?] {
                var lead = Lead(source: SourceLocation(file: "t.csv", sheet: nil, row: 2))
                (lead.givenName, lead.middleName, lead.familyName, lead.organization) = (given, middle, family, organization)
                (lead.household, lead.secondGivenName) = (household, second)
                #expect(lead.hasFullName == (lead.fullName != nil), "\(String(describing: lead.fullName))")
                checked += 1
            } }
        } } } }
        #expect(checked == 216)
    }
}
