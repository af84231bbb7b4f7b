@testable import LeadNormalize
import Testing

/// Labelled names in the shapes lead lists, county owner rolls and mailing lists have: given
/// first or `FAMILY, GIVEN`, ALL CAPS, titles and courtesy prefixes, credentials and
/// generational suffixes (with and without dots, after a comma or not), particles, nicknames
/// in each kind of quote, and couples addressed as a household (`Mr. and Mrs. …`). The labels
/// follow the usual mailing conventions: proper case, dots dropped from initials, titles and
/// suffixes; several suffixes joined by `, `.
@Suite struct NameAccuracyTests {
    struct Case {
        var input: String
        var fields: [String: String?]
    }

    /// One person.
    static func one(_ input: String, p: String? = nil, g: String?, m: String? = nil, f: String?, s: String? = nil, nick: String? = nil) -> Case {
        Case(input: input, fields: ["prefix": p, "given": g, "middle": m, "family": f, "suffix": s, "nickname": nick, "household": "false"])
    }

    /// A couple.
    static func two(_ input: String, p: String? = nil, g: String?, m: String? = nil, f: String?,
                    p2: String? = nil, g2: String?, m2: String? = nil, f2: String?) -> Case {
        Case(input: input, fields: [
            "prefix": p, "given": g, "middle": m, "family": f, "household": "true",
            "second_prefix": p2, "second_given": g2, "second_middle": m2, "second_family": f2,
        ])
    }

    static let cases: [Case] = [
        // Given first.
        one("John Smith", g: "John", f: "Smith"),
        one("Mary Ann Jones", g: "Mary", m: "Ann", f: "Jones"),
        one("John Q. Public", g: "John", m: "Q", f: "Public"),
        one("J. Robert Oppenheimer", g: "J", m: "Robert", f: "Oppenheimer"),
        one("Sarah J Parker", g: "Sarah", m: "J", f: "Parker"),
        one("George Herbert Walker Bush", g: "George", m: "Herbert Walker", f: "Bush"),
        one("Madonna", g: "Madonna", f: nil),
        one("Anne-Marie Dubois", g: "Anne-Marie", f: "Dubois"),
        one("Mary Smith-Jones", g: "Mary", f: "Smith-Jones"),
        one("Sean O'Brien", g: "Sean", f: "O'Brien"),
        one("Ronald McDonald", g: "Ronald", f: "McDonald"),
        one("DeShawn Williams", g: "DeShawn", f: "Williams"),
        one("José García", g: "José", f: "García"),
        one("Zoë Ångström", g: "Zoë", f: "Ångström"),
        // ALL CAPS and all lower case are proper-cased.
        one("JOHN SMITH", g: "John", f: "Smith"),
        one("MARY ANN JONES", g: "Mary", m: "Ann", f: "Jones"),
        one("PATRICK O'NEIL", g: "Patrick", f: "O'Neil"),
        one("KEVIN MCDONALD", g: "Kevin", f: "McDonald"),
        one("ROBERT SMITH-JONES", g: "Robert", f: "Smith-Jones"),
        one("MARIA D'ANGELO", g: "Maria", f: "D'Angelo"),
        one("john smith", g: "John", f: "Smith"),
        one("JOSÉ GARCÍA", g: "José", f: "García"),
        one("KAREN P LINDSAY", g: "Karen", m: "P", f: "Lindsay"),
        // Family first, with a comma.
        one("Smith, John", g: "John", f: "Smith"),
        one("SMITH, JOHN A", g: "John", m: "A", f: "Smith"),
        one("Public, John Q.", g: "John", m: "Q", f: "Public"),
        one("O'NEIL, PATRICK J", g: "Patrick", m: "J", f: "O'Neil"),
        one("Smith-Jones, Mary", g: "Mary", f: "Smith-Jones"),
        one("de la Cruz, Maria", g: "Maria", f: "de la Cruz"),
        one("Van Buren, Martin", g: "Martin", f: "Van Buren"),
        one("Smith,John", g: "John", f: "Smith"),
        // Suffixes: generations and credentials, with or without dots, found before a comma is
        // read as family first.
        one("John Smith Jr", g: "John", f: "Smith", s: "Jr"),
        one("John Smith Jr.", g: "John", f: "Smith", s: "Jr"),
        one("John Smith, Jr.", g: "John", f: "Smith", s: "Jr"),
        one("John A. Smith Sr.", g: "John", m: "A", f: "Smith", s: "Sr"),
        one("John Smith II", g: "John", f: "Smith", s: "II"),
        one("John Smith III", g: "John", f: "Smith", s: "III"),
        one("JOHN SMITH IV", g: "John", f: "Smith", s: "IV"),
        one("John Smith V", g: "John", f: "Smith", s: "V"),
        one("John Smith VI", g: "John", f: "Smith", s: "VI"),
        one("Smith, John, Jr.", g: "John", f: "Smith", s: "Jr"),
        one("Smith Jr., John", g: "John", f: "Smith", s: "Jr"),
        one("SMITH JR, JOHN A", g: "John", m: "A", f: "Smith", s: "Jr"),
        one("Smith, John A., III", g: "John", m: "A", f: "Smith", s: "III"),
        one("Smith, Jr., John", g: "John", f: "Smith", s: "Jr"),
        one("Jane Doe MD", g: "Jane", f: "Doe", s: "MD"),
        one("Jane Doe, MD", g: "Jane", f: "Doe", s: "MD"),
        one("Jane Doe, M.D.", g: "Jane", f: "Doe", s: "MD"),
        one("JANE DOE, M.D.", g: "Jane", f: "Doe", s: "MD"),
        one("Robert Brown, DO", g: "Robert", f: "Brown", s: "DO"),
        one("Robert Brown D.O.", g: "Robert", f: "Brown", s: "DO"),
        one("Alan Green, DDS", g: "Alan", f: "Green", s: "DDS"),
        one("Alan Green D.D.S.", g: "Alan", f: "Green", s: "DDS"),
        one("Susan Lee, PhD", g: "Susan", f: "Lee", s: "PhD"),
        one("Susan Lee Ph.D.", g: "Susan", f: "Lee", s: "PhD"),
        one("Mark Davis, Esq.", g: "Mark", f: "Davis", s: "Esq"),
        one("Mark Davis Esq", g: "Mark", f: "Davis", s: "Esq"),
        one("Linda White, CPA", g: "Linda", f: "White", s: "CPA"),
        one("Frank Lloyd, AIA", g: "Frank", f: "Lloyd", s: "AIA"),
        one("Nancy Hall, RN", g: "Nancy", f: "Hall", s: "RN"),
        one("Nancy Hall R.N.", g: "Nancy", f: "Hall", s: "RN"),
        one("Jane Doe, PhD, CPA", g: "Jane", f: "Doe", s: "PhD, CPA"),
        one("John Smith Jr., MD", g: "John", f: "Smith", s: "Jr, MD"),
        one("Doe, Jane, MD", g: "Jane", f: "Doe", s: "MD"),
        one("BROWN, ROBERT, DO", g: "Robert", f: "Brown", s: "DO"),
        // Titles.
        one("Mr. John Smith", p: "Mr", g: "John", f: "Smith"),
        one("Mr John Smith", p: "Mr", g: "John", f: "Smith"),
        one("Mrs. Jane Smith", p: "Mrs", g: "Jane", f: "Smith"),
        one("Ms. Jane Smith", p: "Ms", g: "Jane", f: "Smith"),
        one("Miss Jane Smith", p: "Miss", g: "Jane", f: "Smith"),
        one("Dr. Susan Lee", p: "Dr", g: "Susan", f: "Lee"),
        one("DR SUSAN LEE", p: "Dr", g: "Susan", f: "Lee"),
        one("Rev. Martin Luther King Jr.", p: "Rev", g: "Martin", m: "Luther", f: "King", s: "Jr"),
        one("Reverend Al Green", p: "Reverend", g: "Al", f: "Green"),
        one("Hon. Mary Johnson", p: "Hon", g: "Mary", f: "Johnson"),
        one("Senator Tim Kaine", p: "Senator", g: "Tim", f: "Kaine"),
        one("Judge Judith Sheindlin", p: "Judge", g: "Judith", f: "Sheindlin"),
        one("Capt. James Kirk", p: "Capt", g: "James", f: "Kirk"),
        one("Prof. Alan Turing", p: "Prof", g: "Alan", f: "Turing"),
        one("Sgt. Bill Jones", p: "Sgt", g: "Bill", f: "Jones"),
        one("Father John Misty", p: "Father", g: "John", f: "Misty"),
        one("Mr. Smith", p: "Mr", g: nil, f: "Smith"),
        one("Dr. John A. Smith Jr.", p: "Dr", g: "John", m: "A", f: "Smith", s: "Jr"),
        one("Dr. Jane Doe, MD", p: "Dr", g: "Jane", f: "Doe", s: "MD"),
        one("Smith, Dr. John", p: "Dr", g: "John", f: "Smith"),
        // Particles stay with the family name.
        one("Ludwig van Beethoven", g: "Ludwig", f: "van Beethoven"),
        one("LUDWIG VAN DER BERG", g: "Ludwig", f: "van der Berg"),
        one("Wernher von Braun", g: "Wernher", f: "von Braun"),
        one("Maria de la Cruz", g: "Maria", f: "de la Cruz"),
        one("Leonardo da Vinci", g: "Leonardo", f: "da Vinci"),
        one("Rosa del Rio", g: "Rosa", f: "del Rio"),
        one("Anna della Rosa", g: "Anna", f: "della Rosa"),
        one("Marco di Stefano", g: "Marco", f: "di Stefano"),
        one("Jean le Blanc", g: "Jean", f: "le Blanc"),
        one("Pierre la Fontaine", g: "Pierre", f: "la Fontaine"),
        one("Mary St. John", g: "Mary", f: "St. John"),
        one("MARY ST. JOHN", g: "Mary", f: "St. John"),
        one("John Mc Donald", g: "John", f: "Mc Donald"),
        one("Angus Mac Donald", g: "Angus", f: "Mac Donald"),
        one("Ana dos Santos", g: "Ana", f: "dos Santos"),
        one("Juan Carlos de la Vega", g: "Juan", m: "Carlos", f: "de la Vega"),
        one("Vincent van Gogh Jr.", g: "Vincent", f: "van Gogh", s: "Jr"),
        // Nicknames in any quotes or brackets.
        one("Robert \"Bob\" Smith", g: "Robert", f: "Smith", nick: "Bob"),
        one("Robert “Bob” Smith", g: "Robert", f: "Smith", nick: "Bob"),
        one("William ‘Bill’ Jones", g: "William", f: "Jones", nick: "Bill"),
        one("William 'Bill' O'Reilly", g: "William", f: "O'Reilly", nick: "Bill"),
        one("Elizabeth (Liz) Taylor", g: "Elizabeth", f: "Taylor", nick: "Liz"),
        one("JAMES \"JIM\" BROWN", g: "James", f: "Brown", nick: "Jim"),
        one("Smith, Robert (Bob)", g: "Robert", f: "Smith", nick: "Bob"),
        one("Dr. Robert \"Bobby\" Smith Jr.", p: "Dr", g: "Robert", f: "Smith", s: "Jr", nick: "Bobby"),
        // Couples, as a household.
        two("John & Jane Smith", g: "John", f: "Smith", g2: "Jane", f2: "Smith"),
        two("John and Jane Smith", g: "John", f: "Smith", g2: "Jane", f2: "Smith"),
        two("JOHN AND JANE SMITH", g: "John", f: "Smith", g2: "Jane", f2: "Smith"),
        two("John + Jane Smith", g: "John", f: "Smith", g2: "Jane", f2: "Smith"),
        two("John Smith & Jane Doe", g: "John", f: "Smith", g2: "Jane", f2: "Doe"),
        two("John Smith and Jane Doe", g: "John", f: "Smith", g2: "Jane", f2: "Doe"),
        two("SMITH, JOHN & JANE", g: "John", f: "Smith", g2: "Jane", f2: "Smith"),
        two("Smith, John A. & Mary B.", g: "John", m: "A", f: "Smith", g2: "Mary", m2: "B", f2: "Smith"),
        two("Ronald T. & Karen P. Lindsay", g: "Ronald", m: "T", f: "Lindsay", g2: "Karen", m2: "P", f2: "Lindsay"),
        two("RONALD T & KAREN P LINDSAY", g: "Ronald", m: "T", f: "Lindsay", g2: "Karen", m2: "P", f2: "Lindsay"),
        two("Mr. and Mrs. Craig Courville", p: "Mr", g: "Craig", f: "Courville", p2: "Mrs", g2: nil, f2: "Courville"),
        two("Mr. & Mrs. John Smith", p: "Mr", g: "John", f: "Smith", p2: "Mrs", g2: nil, f2: "Smith"),
        two("MR AND MRS JOHN SMITH", p: "Mr", g: "John", f: "Smith", p2: "Mrs", g2: nil, f2: "Smith"),
        two("Dr. and Mrs. Alan Green", p: "Dr", g: "Alan", f: "Green", p2: "Mrs", g2: nil, f2: "Green"),
        two("Mr. and Mrs. Smith", p: "Mr", g: nil, f: "Smith", p2: "Mrs", g2: nil, f2: "Smith"),
        two("Mr. John Smith & Mrs. Jane Smith", p: "Mr", g: "John", f: "Smith", p2: "Mrs", g2: "Jane", f2: "Smith"),
        two("Maria & Jose de la Cruz", g: "Maria", f: "de la Cruz", g2: "Jose", f2: "de la Cruz"),
        two("John Smith & Jane", g: "John", f: "Smith", g2: "Jane", f2: "Smith"),
        two("Dr. and Mrs. John A. Smith", p: "Dr", g: "John", m: "A", f: "Smith", p2: "Mrs", g2: nil, f2: "Smith"),
        two("Mr. John Smith and Ms. Jane Doe", p: "Mr", g: "John", f: "Smith", p2: "Ms", g2: "Jane", f2: "Doe"),
        two("John and Mary Smith-Jones", g: "John", f: "Smith-Jones", g2: "Mary", f2: "Smith-Jones"),
        two("Smith, John and Mary", g: "John", f: "Smith", g2: "Mary", f2: "Smith"),
        two("Mr. & Mrs. John and Jane Smith", p: "Mr", g: "John", f: "Smith", p2: "Mrs", g2: "Jane", f2: "Smith"),
        two("Mr. John and Mrs. Jane Smith", p: "Mr", g: "John", f: "Smith", p2: "Mrs", g2: "Jane", f2: "Smith"),
        two("Jane Smith and John Smith", g: "Jane", f: "Smith", g2: "John", f2: "Smith"),
        // Issue 23 item 4: titles of office and the law (the forms of address in the U.S. State
        // Department's and Emily Post's protocol guides: "State Senator", "Attorney", "Drs." for a
        // couple who are both doctors) and credentials beyond the first table: the National
        // Association of REALTORS® designations (REALTOR®, GRI, CRS, ABR, e-PRO) and design ones
        // (AIA, CSI: the Construction Specifications Institute).
        one("State Senator Jane Doe", p: "State Senator", g: "Jane", f: "Doe"),
        one("U.S. Senator John Smith", p: "US Senator", g: "John", f: "Smith"),
        one("The Honorable State Senator Mary Lee", p: "The Honorable State Senator", g: "Mary", f: "Lee"),
        one("Attorney Robert Lee", p: "Attorney", g: "Robert", f: "Lee"),
        one("Atty. Karen Wu", p: "Atty", g: "Karen", f: "Wu"),
        one("Jane Doe, REALTOR, GRI, ABR", g: "Jane", f: "Doe", s: "REALTOR, GRI, ABR"),
        one("Mark Davis REALTOR", g: "Mark", f: "Davis", s: "REALTOR"),
        one("Lisa Chen, CRS, e-PRO", g: "Lisa", f: "Chen", s: "CRS, e-PRO"),
        one("Robert Brown AIA", g: "Robert", f: "Brown", s: "AIA"),
        one("Mary Jones, CSI, AIA", g: "Mary", f: "Jones", s: "CSI, AIA"),
        one("Paul Ortiz DDS", g: "Paul", f: "Ortiz", s: "DDS"),
        two("Drs. Ann and Paul Reyes", p: "Drs", g: "Ann", f: "Reyes", g2: "Paul", f2: "Reyes"),
        // More shapes from real lists.
        one("Dr. Martin Luther King, Jr.", p: "Dr", g: "Martin", m: "Luther", f: "King", s: "Jr"),
        one("King, Martin Luther, Jr.", g: "Martin", m: "Luther", f: "King", s: "Jr"),
        one("Rev. Dr. Martin Luther King Jr.", p: "Rev Dr", g: "Martin", m: "Luther", f: "King", s: "Jr"),
        one("Jean-Luc Picard", g: "Jean-Luc", f: "Picard"),
        one("MARY O'CONNOR-MCDONALD", g: "Mary", f: "O'Connor-McDonald"),
        one("DOUGLAS MACARTHUR", g: "Douglas", f: "MacArthur"),
        one("ANGUS MACLEOD", g: "Angus", f: "MacLeod"),
        one("JAMES MACK", g: "James", f: "Mack"),
        one("MARIA MACHADO", g: "Maria", f: "Machado"),
        one("Dr. Jane Smith-Doe, DDS, PhD", p: "Dr", g: "Jane", f: "Smith-Doe", s: "DDS, PhD"),
        one("Ms. Smith", p: "Ms", g: nil, f: "Smith"),
        one("Gen. Colin L. Powell (Ret.)", p: "Gen", g: "Colin", m: "L", f: "Powell", s: "Ret"),
        one("Lt. Col. John A. Doe III", p: "Lt Col", g: "John", m: "A", f: "Doe", s: "III"),
        one("O'Connor-Smith, Mary", g: "Mary", f: "O'Connor-Smith"),
        one("John F. Kennedy Jr.", g: "John", m: "F", f: "Kennedy", s: "Jr"),
    ]

    @Test func accuracy() {
        var tally = AccuracyTally(rule: "name")
        for c in Self.cases {
            let n = NameRule.parse(c.input)
            let actual: [String: String?] = [
                "prefix": n.prefix, "given": n.given, "middle": n.middle, "family": n.family, "suffix": n.suffix,
                "nickname": n.nickname, "household": String(n.household), "second_prefix": n.secondPrefix,
                "second_given": n.secondGiven, "second_middle": n.secondMiddle, "second_family": n.secondFamily,
            ]
            tally.score(input: c.input, expected: c.fields, actual: actual)
        }
        #expect(tally.cases >= 100)
        let below = tally.publish(
            floors: ["second_prefix": 0.9, "second_given": 0.9, "second_middle": 0.9, "second_family": 0.9], defaultFloor: 0.97)
        #expect(below.isEmpty, "\(below)")
    }
}
