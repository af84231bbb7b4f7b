@testable import LeadNormalize
import Testing

/// Every entity word issue 23 lists, in the positions county owner rolls put it: ending the
/// name (`ACME PROPERTIES LLC`), inside it (`ACME LLC SERIES 2`), starting it (`CITY OF AUSTIN`),
/// after a comma or with its dots (`ACME, L.L.C.`), and in the reversed place-first order
/// assessors use for governments (`AUSTIN CITY OF`, `TRAVIS COUNTY`). The federal housing
/// agencies are written as REO deeds and rolls name them (FNMA, `SEC OF HUD`,
/// `SECRETARY OF VETERANS AFFAIRS`, `USDA RURAL HOUSING SERVICE`). The names are invented in
/// those shapes; the cased form is what a mailing prints.
@Suite struct EntityWordTests {
    static let entities: [(input: String, organization: String)] = [
        ("ACME PROPERTIES LLC", "Acme Properties LLC"),
        ("ACME PROPERTIES, LLC", "Acme Properties, LLC"),
        ("ACME LLC SERIES 2", "Acme LLC Series 2"),
        ("ACME PROPERTIES L.L.C.", "Acme Properties L.L.C."),
        ("ABC REALTY INC", "ABC Realty Inc"),
        ("ABC REALTY, INC.", "ABC Realty, Inc."),
        ("RIVERSIDE HOMES CORP", "Riverside Homes Corp"),
        ("SMITH & SONS CO", "Smith & Sons Co"),
        ("JONES CO.", "Jones Co."),
        ("SUNRISE INVESTMENTS LP", "Sunrise Investments LP"),
        ("MILLER & DAVIS LLP", "Miller & Davis LLP"),
        ("BLUE SKY VENTURES LTD", "Blue Sky Ventures Ltd"),
        ("SMITH FAMILY TRUST", "Smith Family Trust"),
        ("TRUST NO 1045", "Trust No 1045"),
        ("ESTATE OF MARY JONES", "Estate of Mary Jones"),
        ("EST OF ROBERT BROWN", "Est of Robert Brown"),
        ("WELLS FARGO BANK N A", "Wells Fargo Bank N A"),
        ("WELLS FARGO BANK N.A.", "Wells Fargo Bank N.A."),
        ("US BANK N.A.", "US Bank N.A."),
        ("BANK OF AMERICA, N.A.", "Bank of America, N.A."),
        ("FIRST NATIONAL BANK OF OMAHA", "First National Bank of Omaha"),
        ("GRACE CHURCH", "Grace Church"),
        ("FAITH TEMPLE", "Faith Temple"),
        ("FIRST BAPTIST CHURCH OF DALLAS", "First Baptist Church of Dallas"),
        ("CHURCH OF CHRIST", "Church of Christ"),
        ("ST PAUL AME CHURCH", "St Paul AME Church"),
        ("CITY OF AUSTIN", "City of Austin"),
        ("AUSTIN CITY OF", "City of Austin"),
        ("COUNTY OF TRAVIS", "County of Travis"),
        ("TRAVIS COUNTY", "Travis County"),
        ("STATE OF TEXAS", "State of Texas"),
        ("TEXAS STATE OF", "State of Texas"),
        ("HOUSING AUTHORITY OF THE CITY OF DALLAS", "Housing Authority of the City of Dallas"),
        ("TRAVIS COUNTY HOUSING AUTHORITY", "Travis County Housing Authority"),
        ("LAKESIDE HOMEOWNERS ASSOCIATION", "Lakeside Homeowners Association"),
        ("LAKESIDE HOMEOWNERS ASSN", "Lakeside Homeowners Assn"),
        ("OAK RIDGE HOA", "Oak Ridge HOA"),
        ("OAK RIDGE HOA INC", "Oak Ridge HOA Inc"),
        ("MAPLE PARTNERS", "Maple Partners"),
        ("MAPLE PARTNERS II LP", "Maple Partners II LP"),
        ("JPM HOLDINGS LLC", "JPM Holdings LLC"),
        ("JPM HOLDINGS", "JPM Holdings"),
        ("FEDERAL NATIONAL MORTGAGE ASSOCIATION", "Federal National Mortgage Association"),
        ("FANNIE MAE", "Fannie Mae"),
        ("FNMA", "FNMA"),
        ("FREDDIE MAC", "Freddie Mac"),
        ("FHLMC", "FHLMC"),
        ("FEDERAL HOME LOAN MORTGAGE CORPORATION", "Federal Home Loan Mortgage Corporation"),
        ("HUD", "HUD"),
        ("SEC OF HUD", "Sec of HUD"),
        ("SECRETARY OF HOUSING AND URBAN DEVELOPMENT", "Secretary of Housing and Urban Development"),
        ("US DEPT OF HUD", "US Dept of HUD"),
        ("SECRETARY OF VETERANS AFFAIRS", "Secretary of Veterans Affairs"),
        ("VETERANS AFFAIRS", "Veterans Affairs"),
        ("SEC OF VETERANS AFFAIRS", "Sec of Veterans Affairs"),
        ("GINNIE MAE", "Ginnie Mae"),
        ("GNMA", "GNMA"),
        ("USDA", "USDA"),
        ("USDA RURAL HOUSING SERVICE", "USDA Rural Housing Service"),
        ("RURAL HOUSING SERVICE", "Rural Housing Service"),
        ("UNITED STATES OF AMERICA", "United States of America"),
        ("USA", "USA"),
        // Found trying an owner list through the binary.
        ("HABITAT FOR HUMANITY", "Habitat for Humanity"),
        ("SMITH JOHN A & MARY B REV LIV TR", "Smith John A & Mary B Revocable Living Trust"),
    ]

    @Test(arguments: [NameOrder.lastFirst, .firstLast, .auto]) func everyEntityWordIsAnOrganization(_ order: NameOrder) {
        for (input, organization) in Self.entities {
            let n = NameRule.parse(input, order: order)
            #expect(n.organization == organization, "\(input) (\(order.rawValue))")
            #expect(n.given == nil && n.family == nil && n.household == false, "\(input): \(n)")
            #expect(n.salutation == organization, "\(input)")
        }
    }

    /// The words that name entities are family names too; a designation is not an entity.
    @Test func peopleStayPeople() {
        let people: [(String, NameOrder, given: String, family: String, designation: String?)] = [
            ("JOHNSON ROBERT TR", .lastFirst, "Robert", "Johnson", "TR"),
            ("JOHNSON ROBERT TRUSTEE", .lastFirst, "Robert", "Johnson", "TRUSTEE"),
            ("CHURCH JOHN A", .lastFirst, "John", "Church", nil),
            ("Mary Church", .firstLast, "Mary", "Church", nil),
            ("John Church", .firstLast, "John", "Church", nil),
            ("TEMPLE SUSAN", .lastFirst, "Susan", "Temple", nil),
            ("BANKS ROBERT", .lastFirst, "Robert", "Banks", nil),
            ("COUNTS MARY", .lastFirst, "Mary", "Counts", nil),
            ("STATES LINDA", .lastFirst, "Linda", "States", nil),
        ]
        for (input, order, given, family, designation) in people {
            let n = NameRule.parse(input, order: order)
            #expect(n.organization == nil && n.given == given && n.family == family && n.designation == designation, "\(input): \(n)")
        }
    }

    /// Acronyms stay in capitals and words are title-cased, including short words that could go
    /// either way.
    @Test func casing() {
        let cases: [(String, String)] = [
            ("ABC REALTY LLC", "ABC Realty LLC"), ("AAA STORAGE LLC", "AAA Storage LLC"), ("OAK STREET LLC", "Oak Street LLC"),
            ("THE OAK TRUST", "The Oak Trust"), ("NEW DAY PROPERTIES LLC", "New Day Properties LLC"), ("ONE WAY INVESTMENTS INC", "One Way Investments Inc"),
            ("RED FOX HOLDINGS", "Red Fox Holdings"), ("LEE FAMILY TRUST", "Lee Family Trust"), ("NG FAMILY TRUST", "Ng Family Trust"),
            ("KIM HOLDINGS LLC", "Kim Holdings LLC"), ("ACME PROPERTIES LLC", "Acme Properties LLC"), ("BB&T BANK", "BB&T Bank"), ("M&T BANK", "M&T Bank"),
            ("TD BANK N.A.", "TD Bank N.A."), ("RBC BANK", "RBC Bank"), ("MT ZION CHURCH", "Mt Zion Church"),
            ("SAN ANTONIO HOUSING AUTHORITY", "San Antonio Housing Authority"), ("COUNTY OF LOS ANGELES", "County of Los Angeles"),
            ("1ST CHOICE HOMES LLC", "1st Choice Homes LLC"), ("BIG SKY PARTNERS", "Big Sky Partners"), ("ACME MGMT LLC", "Acme Mgmt LLC"),
            ("deShawn Holdings LLC", "deShawn Holdings LLC"),
        ]
        for (input, expected) in cases {
            #expect(NameRule.parse(input, order: .lastFirst).organization == expected, "\(input)")
        }
    }
}
