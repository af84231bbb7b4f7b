import LeadCore
@testable import LeadNormalize
import Testing

/// Three owners or more on one row. County rolls join every owner of record with `&`
/// (Precisely's assessment schema describes the owner field as `LAST FIRST MIDDLE` with
/// further owners after `&`); grantee lists on deeds to siblings or heirs routinely name three.
/// The names are invented in those shapes; the salutation lists the given names of owners who
/// share a family name before it once, as a mailing writes a family (`John, Mary & Robert Smith`).
@Suite struct CoOwnerTests {
    struct Case {
        var input: String
        var order: NameOrder
        /// Every owner as `Given Family` (middle names left out), in the order written.
        var owners: [String]
        var salutation: String
        var designation: String? = nil
    }

    static let cases: [Case] = [
        Case(input: "SMITH JOHN & MARY & ROBERT", order: .lastFirst, owners: ["John Smith", "Mary Smith", "Robert Smith"],
             salutation: "John, Mary & Robert Smith"),
        Case(input: "SMITH JOHN A & MARY B & ROBERT C", order: .lastFirst, owners: ["John Smith", "Mary Smith", "Robert Smith"],
             salutation: "John, Mary & Robert Smith"),
        Case(input: "SMITH JOHN & JONES MARY & DOE PAT", order: .lastFirst, owners: ["John Smith", "Mary Jones", "Pat Doe"],
             salutation: "John Smith, Mary Jones & Pat Doe"),
        Case(input: "SMITH JOHN & MARY & JONES PAT", order: .lastFirst, owners: ["John Smith", "Mary Smith", "Pat Jones"],
             salutation: "John & Mary Smith & Pat Jones"),
        Case(input: "SMITH JOHN & JONES MARY & PAT", order: .lastFirst, owners: ["John Smith", "Mary Jones", "Pat Jones"],
             salutation: "John Smith & Mary & Pat Jones"),
        Case(input: "SMITH JOHN & MARY & ROBERT JR", order: .lastFirst, owners: ["John Smith", "Mary Smith", "Robert Smith"],
             salutation: "John, Mary & Robert Smith"),
        Case(input: "GARCIA LUIS & ANA & SOFIA & DIEGO", order: .lastFirst,
             owners: ["Luis Garcia", "Ana Garcia", "Sofia Garcia", "Diego Garcia"], salutation: "Luis, Ana, Sofia & Diego Garcia"),
        Case(input: "SMITH JOHN TR & MARY TR & ROBERT TR", order: .lastFirst, owners: ["John Smith", "Mary Smith", "Robert Smith"],
             salutation: "John, Mary & Robert Smith", designation: "TR"),
        Case(input: "BROWN JAMES & LINDA & KAREN ETAL", order: .lastFirst, owners: ["James Brown", "Linda Brown", "Karen Brown"],
             salutation: "James, Linda & Karen Brown", designation: "ETAL"),
        Case(input: "SMITH, JOHN A & MARY B & ROBERT", order: .firstLast, owners: ["John Smith", "Mary Smith", "Robert Smith"],
             salutation: "John, Mary & Robert Smith"),
        Case(input: "John & Mary & Robert Smith", order: .firstLast, owners: ["John Smith", "Mary Smith", "Robert Smith"],
             salutation: "John, Mary & Robert Smith"),
        Case(input: "John Smith & Mary Jones & Pat Doe", order: .firstLast, owners: ["John Smith", "Mary Jones", "Pat Doe"],
             salutation: "John Smith, Mary Jones & Pat Doe"),
        Case(input: "Ronald T. & Karen P. & Amy Lindsay", order: .firstLast, owners: ["Ronald Lindsay", "Karen Lindsay", "Amy Lindsay"],
             salutation: "Ronald, Karen & Amy Lindsay"),
        Case(input: "JOHN AND MARY AND ROBERT SMITH", order: .firstLast, owners: ["John Smith", "Mary Smith", "Robert Smith"],
             salutation: "John, Mary & Robert Smith"),
    ]

    @Test(arguments: cases) func everyOwnerIsKept(_ c: Case) {
        let n = NameRule.parse(c.input, order: c.order)
        func named(_ given: String?, _ family: String?) -> String { [given, family].compactMap { $0 }.joined(separator: " ") }
        let owners = [named(n.given, n.family), named(n.secondGiven, n.secondFamily)] + n.otherOwners.map { named($0.given, $0.family) }
        #expect(n.household)
        #expect(n.organization == nil)
        #expect(owners == c.owners, "\(c.input)")
        #expect(n.salutation == c.salutation, "\(c.input)")
        #expect(n.designation == c.designation, "\(c.input)")
    }

    /// Two owners read as before; an entity's `&` is not a list of people.
    @Test func fewerOwnersAndEntitiesAreUnchanged() {
        #expect(NameRule.parse("SMITH JOHN & MARY", order: .lastFirst).otherOwners.isEmpty)
        let junior = NameRule.parse("SMITH JOHN & ROBERT JR", order: .lastFirst)
        #expect(junior.secondGiven == "Robert" && junior.secondFamily == "Smith", "\(junior)")
        #expect(NameRule.parse("SMITH & JONES & BROWN LLP", order: .lastFirst).organization == "Smith & Jones & Brown LLP")
        let titled = NameRule.parse("Mr. & Mrs. John and Jane Smith")
        #expect(titled.otherOwners.isEmpty && titled.secondGiven == "Jane")
    }

    /// The lead's full name (FLYR's `full_name`, the export's `full_name`) names everyone.
    @Test func theFullNameNamesEveryOwner() {
        var lead = Lead(source: SourceLocation(file: "owners.csv", row: 2, recordIndex: 0))
        let n = NameRule.parse("SMITH JOHN A & MARY & JONES PAT", order: .lastFirst)
        (lead.givenName, lead.middleName, lead.familyName, lead.household) = (n.given, n.middle, n.family, n.household)
        (lead.secondGivenName, lead.secondFamilyName, lead.otherOwners) = (n.secondGiven, n.secondFamily, n.otherOwners)
        #expect(lead.fullName == "John A & Mary Smith & Pat Jones")
        #expect(lead.salutation == "John & Mary Smith & Pat Jones")
    }
}

extension CoOwnerTests.Case: CustomTestStringConvertible {
    var testDescription: String { input }
}
