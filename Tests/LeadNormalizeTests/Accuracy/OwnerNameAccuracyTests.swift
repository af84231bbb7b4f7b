@testable import LeadNormalize
import Testing

/// Owner names as county assessors' rolls and property-data exports write them, labelled by
/// the conventions those sources publish, not from our output:
/// - owner name fields written `LAST FIRST MIDDLE`, second owners after `&`, and an owner type
///   telling individuals from businesses and governments (Precisely's assessment data schema,
///   fields OWNER/OWNTYPE, https://help.precisely.com/r/Spectrum/addressing/23.1/en-US/spectrum-inline/Property-Attributes-Assessment-Data-Schema);
/// - the abbreviations printed by the owner's name on tax bills: ET AL, ET UX, ET VIR, ET UM,
///   TR/TRSE, TRS, TRST, REV TR, LE/LEST, HW (Wisconsin Department of Revenue, "Common
///   abbreviations on property tax bills", https://www.revenue.wi.gov/eserv/hcabbrev.html);
/// - the federal housing agencies as owners of foreclosed homes (FNMA, FHLMC, HUD, the
///   Secretary of Veterans Affairs), as county rolls list REO properties.
/// The names themselves are invented in those shapes.
@Suite struct OwnerNameAccuracyTests {
    struct Case {
        var input: String
        var order: NameOrder
        var fields: [String: String?]
    }

    static func person(_ input: String, _ order: NameOrder = .lastFirst, g: String?, m: String? = nil, f: String?, s: String? = nil,
                       d: String? = nil, sal: String) -> Case {
        Case(input: input, order: order, fields: ["given": g, "middle": m, "family": f, "suffix": s, "designation": d,
                                                  "organization": nil, "household": "false", "salutation": sal])
    }

    static func couple(_ input: String, _ order: NameOrder = .lastFirst, g: String?, m: String? = nil, f: String?, g2: String?,
                       m2: String? = nil, f2: String?, d: String? = nil, sal: String) -> Case {
        Case(input: input, order: order, fields: ["given": g, "middle": m, "family": f, "second_given": g2, "second_middle": m2,
                                                  "second_family": f2, "designation": d, "organization": nil, "household": "true",
                                                  "salutation": sal])
    }

    static func entity(_ input: String, _ name: String, _ order: NameOrder = .lastFirst, d: String? = nil) -> Case {
        Case(input: input, order: order, fields: ["organization": name, "given": nil, "family": nil, "designation": d, "salutation": name])
    }

    static let cases: [Case] = [
        // Surname first, one owner.
        person("SMITH JOHN", g: "John", f: "Smith", sal: "John Smith"),
        person("SMITH JOHN A", g: "John", m: "A", f: "Smith", sal: "John Smith"),
        person("GARCIA MARIA ELENA", g: "Maria", m: "Elena", f: "Garcia", sal: "Maria Garcia"),
        person("O'BRIEN PATRICK J", g: "Patrick", m: "J", f: "O'Brien", sal: "Patrick O'Brien"),
        person("MCDONALD KEVIN", g: "Kevin", f: "McDonald", sal: "Kevin McDonald"),
        person("DE LA CRUZ MARIA", g: "Maria", f: "de la Cruz", sal: "Maria de la Cruz"),
        person("VAN DER BERG JAN", g: "Jan", f: "van der Berg", sal: "Jan van der Berg"),
        person("SMITH JOHN JR", g: "John", f: "Smith", s: "Jr", sal: "John Smith Jr"),
        person("SMITH JR JOHN A", g: "John", m: "A", f: "Smith", s: "Jr", sal: "John Smith Jr"),
        person("LE THANH", g: "Thanh", f: "Le", sal: "Thanh Le"),
        person("NGUYEN THI LE", g: "Le", m: "Thi", f: "Nguyen", sal: "Le Nguyen"),  // Vietnamese: family, middle, given
        person("SMITH, JOHN A", g: "John", m: "A", f: "Smith", sal: "John Smith"),
        person("O CONNOR PATRICK J", g: "Patrick", m: "J", f: "O'Connor", sal: "Patrick O'Connor"),
        person("NGUYEN THI HOA", g: "Hoa", m: "Thi", f: "Nguyen", sal: "Hoa Nguyen"),
        person("NGUYEN VAN AN", g: "An", m: "Van", f: "Nguyen", sal: "An Nguyen"),
        // Designations after the names.
        person("JOHNSON ROBERT TR", g: "Robert", f: "Johnson", d: "TR", sal: "Robert Johnson"),
        person("JOHNSON ROBERT L TRUSTEE", g: "Robert", m: "L", f: "Johnson", d: "TRUSTEE", sal: "Robert Johnson"),
        person("WILLIAMS MARY ETAL", g: "Mary", f: "Williams", d: "ETAL", sal: "Mary Williams"),
        person("WILLIAMS MARY ET AL", g: "Mary", f: "Williams", d: "ET AL", sal: "Mary Williams"),
        person("BROWN JAMES ETUX", g: "James", f: "Brown", d: "ETUX", sal: "James Brown"),
        person("BROWN JAMES ET UX", g: "James", f: "Brown", d: "ET UX", sal: "James Brown"),
        person("DAVIS LINDA ET VIR", g: "Linda", f: "Davis", d: "ET VIR", sal: "Linda Davis"),
        person("MILLER GEORGE W LE", g: "George", m: "W", f: "Miller", d: "LE", sal: "George Miller"),
        person("TAYLOR SUSAN TTEE", g: "Susan", f: "Taylor", d: "TTEE", sal: "Susan Taylor"),
        person("MOORE DAVID JTWROS", g: "David", f: "Moore", d: "JTWROS", sal: "David Moore"),
        person("Robert Johnson TR", .firstLast, g: "Robert", f: "Johnson", d: "TR", sal: "Robert Johnson"),
        person("Mary Jo Le", .firstLast, g: "Mary", m: "Jo", f: "Le", sal: "Mary Le"),
        person("MARY JO LE", .firstLast, g: "Mary", m: "Jo", f: "Le", sal: "Mary Le"),
        // Couples.
        couple("SMITH JOHN & MARY", g: "John", f: "Smith", g2: "Mary", f2: "Smith", sal: "John & Mary Smith"),
        couple("SMITH JOHN A & MARY B", g: "John", m: "A", f: "Smith", g2: "Mary", m2: "B", f2: "Smith", sal: "John & Mary Smith"),
        couple("SMITH JOHN & SMITH MARY", g: "John", f: "Smith", g2: "Mary", f2: "Smith", sal: "John & Mary Smith"),
        couple("SMITH JOHN & JONES MARY", g: "John", f: "Smith", g2: "Mary", f2: "Jones", sal: "John Smith & Mary Jones"),
        couple("SMITH JOHN & MARY ANN", g: "John", f: "Smith", g2: "Mary", m2: "Ann", f2: "Smith", sal: "John & Mary Smith"),
        couple("SMITH JOHN TR & MARY TR", g: "John", f: "Smith", g2: "Mary", f2: "Smith", d: "TR", sal: "John & Mary Smith"),
        couple("THOMAS RICHARD & LINDA TRS", g: "Richard", f: "Thomas", g2: "Linda", f2: "Thomas", d: "TRS", sal: "Richard & Linda Thomas"),
        couple("RIVERA CARLOS & ANA LE", g: "Carlos", f: "Rivera", g2: "Ana", f2: "Rivera", d: "LE", sal: "Carlos & Ana Rivera"),
        couple("HILL RANDY & CONNIE H/W", g: "Randy", f: "Hill", g2: "Connie", f2: "Hill", d: "H/W", sal: "Randy & Connie Hill"),
        couple("JONES WILLIAM R SR & BETTY J", g: "William", m: "R", f: "Jones", g2: "Betty", m2: "J", f2: "Jones", sal: "William & Betty Jones"),
        couple("SMITH JOHN AND MARY", g: "John", f: "Smith", g2: "Mary", f2: "Smith", sal: "John & Mary Smith"),
        couple("John & Mary Smith", .firstLast, g: "John", f: "Smith", g2: "Mary", f2: "Smith", sal: "John & Mary Smith"),
        couple("JOHN & MARY SMITH", .lastFirst, g: "John", f: "Smith", g2: "Mary", f2: "Smith", sal: "John & Mary Smith"),
        // Entities.
        entity("ACME PROPERTIES LLC", "Acme Properties LLC"),
        entity("ACME PROPERTIES L.L.C.", "Acme Properties L.L.C."),
        entity("JMK HOLDINGS INC", "JMK Holdings Inc"),
        entity("SUNRISE INVESTMENTS LP", "Sunrise Investments LP"),
        entity("BLUE SKY VENTURES LTD", "Blue Sky Ventures Ltd"),
        entity("SMITH & JONES LLP", "Smith & Jones LLP"),
        entity("ESTATE OF MARY JONES", "Estate of Mary Jones"),
        entity("JONES MARY EST", "Estate of Mary Jones"),
        entity("JONES MARY ESTATE OF", "Estate of Mary Jones"),
        entity("SMITH FAMILY TRUST", "Smith Family Trust"),
        entity("SMITH JOHN REV TR", "Smith John Revocable Trust"),
        entity("JOHNSON LIVING TRUST ETAL", "Johnson Living Trust", d: "ETAL"),
        entity("WELLS FARGO BANK N.A.", "Wells Fargo Bank N.A."),
        entity("U S BANK NATIONAL ASSOCIATION", "U S Bank National Association"),
        entity("FIRST BAPTIST CHURCH", "First Baptist Church"),
        entity("CHURCH OF GOD IN CHRIST", "Church of God in Christ"),
        entity("CITY OF SPRINGFIELD", "City of Springfield"),
        entity("COUNTY OF LOS ANGELES", "County of Los Angeles"),
        entity("STATE OF TEXAS", "State of Texas"),
        entity("HOUSING AUTHORITY OF THE CITY OF AUSTIN", "Housing Authority of the City of Austin"),
        entity("OAK RIDGE HOA", "Oak Ridge HOA"),
        entity("LAKESIDE HOMEOWNERS ASSOCIATION INC", "Lakeside Homeowners Association Inc"),
        entity("MAPLE PARTNERS", "Maple Partners"),
        entity("FEDERAL NATIONAL MORTGAGE ASSOCIATION", "Federal National Mortgage Association"),
        entity("FNMA", "FNMA"),
        entity("FANNIE MAE", "Fannie Mae"),
        entity("FHLMC", "FHLMC"),
        entity("FEDERAL HOME LOAN MORTGAGE CORP", "Federal Home Loan Mortgage Corp"),
        entity("HUD", "HUD"),
        entity("SECRETARY OF HOUSING AND URBAN DEVELOPMENT", "Secretary of Housing and Urban Development"),
        entity("SECRETARY OF VETERANS AFFAIRS", "Secretary of Veterans Affairs"),
        entity("KLM CO", "KLM Co"),
        entity("CHICAGO TITLE LAND TRUST CO TR 8002", "Chicago Title Land Trust Co TR 8002"),
        entity("SMITH FAM TR", "Smith Family Trust"),
        entity("THOMPSON MARK A & LISA M REVOCABLE LIVING TRUST", "Thompson Mark A & Lisa M Revocable Living Trust"),
        entity("BANK OF AMERICA NA", "Bank of America NA"),
        entity("DEUTSCHE BANK NATIONAL TRUST CO", "Deutsche Bank National Trust Co"),
        entity("HABITAT FOR HUMANITY OF DANE COUNTY INC", "Habitat for Humanity of Dane County Inc"),
        entity("UNITED STATES OF AMERICA", "United States of America"),
        entity("TOWN OF AMHERST", "Town of Amherst"),
        entity("MOUNT ZION BAPTIST CHURCH", "Mount Zion Baptist Church"),
        entity("ACME PROPERTIES LLC", "Acme Properties LLC", .firstLast),
        // Words that name entities elsewhere stay names of people.
        person("CHURCH JOHN A", g: "John", m: "A", f: "Church", sal: "John Church"),
        person("John Church", .firstLast, g: "John", f: "Church", sal: "John Church"),
        person("PARISH MARY", g: "Mary", f: "Parish", sal: "Mary Parish"),
        person("NA YOUNG", g: "Young", f: "Na", sal: "Young Na"),
        person("Mary Ann Church", .firstLast, g: "Mary", m: "Ann", f: "Church", sal: "Mary Church"),
        person("John A Parish", .firstLast, g: "John", m: "A", f: "Parish", sal: "John Parish"),
        person("Jason Co", .firstLast, g: "Jason", f: "Co", sal: "Jason Co"),
        person("Pastor John Board", .firstLast, g: "John", f: "Board", sal: "John Board"),
        person("Dr. Anna Fund", .firstLast, g: "Anna", f: "Fund", sal: "Anna Fund"),
        entity("Grace Community Church", "Grace Community Church", .firstLast),
    ]

    @Test func accuracy() {
        var tally = AccuracyTally(rule: "owner name")
        for c in Self.cases {
            let n = NameRule.parse(c.input, order: c.order)
            let actual: [String: String?] = [
                "given": n.given, "middle": n.middle, "family": n.family, "suffix": n.suffix, "household": String(n.household),
                "second_given": n.secondGiven, "second_middle": n.secondMiddle, "second_family": n.secondFamily,
                "organization": n.organization, "designation": n.designation, "salutation": n.salutation,
            ]
            tally.score(input: c.input, expected: c.fields, actual: actual)
        }
        let below = tally.publish(floors: [:], defaultFloor: 0.97)
        #expect(below.isEmpty, "\(below)")
    }

    /// The column decides, as a person reading it would: county rolls are read surname first,
    /// an ordinary list of `John Smith` names is never flipped.
    @Test func columnOrder() {
        let county = ["SMITH JOHN A", "GARCIA MARIA", "ACME PROPERTIES LLC", "JOHNSON ROBERT TR", "NGUYEN VAN AN", "SMITH JOHN & MARY", "WILLIAMS DAVID"]
        #expect(NameOrder.decide(county) == .lastFirst)
        let ordinary = ["John Smith", "Mary Jones", "Robert Brown", "Acme Properties LLC", "Smith John"]
        #expect(NameOrder.decide(ordinary) == .firstLast)
        let ordinaryCaps = ["JOHN SMITH", "MARY JONES", "ROBERT BROWN", "DAVID WILLIAMS", "JOHN & MARY SMITH"]
        #expect(NameOrder.decide(ordinaryCaps) == .firstLast)
        #expect(NameOrder.decide(["SMITH JONES", "BROWN TAYLOR"]) == .firstLast)  // no evidence either way
        #expect(NameOrder.decide([String]()) == .firstLast)
        #expect(NameRule.parse("SMITH JOHN", order: .auto).given == "John")
        #expect(NameRule.parse("JOHN SMITH", order: .auto).given == "John")
    }

    /// Salutations for mailings (`Current Resident` when no name is usable).
    @Test func salutations() {
        #expect(NameRule.parse("").salutation == "Current Resident")
        #expect(NameRule.parse("--").salutation == "Current Resident")
        #expect(NameRule.parse("Mr. and Mrs. Craig Courville").salutation == "Mr. & Mrs. Craig Courville")
        #expect(NameRule.parse("Mr. Smith").salutation == "Mr. Smith")
        #expect(NameRule.parse("SMITH", order: .lastFirst).salutation == "The Smith Family")
        #expect(NameRule.parse("John Smith, MD").salutation == "John Smith")
    }
}
