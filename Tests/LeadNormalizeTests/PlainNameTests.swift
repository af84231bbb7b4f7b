import LeadCore
@testable import LeadNormalize
import Testing

/// `NameRule.plainName` answers the common name without trying any reading; it must answer
/// exactly as the full reading (`NameRule.read`) does, and step aside whenever a word could
/// start one.
@Suite struct PlainNameTests {
    /// Words of every kind the readings look for, beside ordinary names in every casing.
    static let words: [String] = [
        "John", "JOHN", "john", "Mary", "MARY", "DeShawn", "Zoe", "Jennifer", "WILLIAMS", "smith", "Smith",
        "O'Neil", "O'NEIL", "d'angelo", "MCDONALD", "mcdonald", "McDonald", "MACDONALD", "Macdonald", "MACK", "Smith-Jones",
        "SMITH-JONES", "jean-luc", "A", "a", "B", "J", "V", "X", "Jo", "Le", "LE", "Van", "van", "de", "DE", "La", "St", "Mac",
        "Church", "CHURCH", "Grace", "Trust", "Bank", "LLC", "Co", "Jr", "JR", "III", "iv", "MD", "Esq", "PhD",
        "Est", "Estate", "ESTATE", "Of", "of", "And", "and", "The", "Dr", "DR", "Mrs", "Hon", "State", "Lt", "Rev", "Living",
        "TR", "ETAL", "Et", "Al", "Ux", "Jt", "Ten", "Hoa", "Nguyen", "Thi", "Fannie", "Mae", "County", "City", "For", "Na",
        "Representative", "Abcdefghijklmnopqrstuvwxyz",
        // Letters beyond ASCII, and characters that only look like them.
        "Zoë", "ZOË", "José", "JOSÉ", "renée", "Łukasz", "ŁUKASZ", "Müller-Lüdenscheidt", "Ñúñez", "D'Ávila", "Σοφία", "ΣΟΦΙΑ",
        "Иван", "李", "ǅemal", "Jose\u{301}", "Zoë\u{A0}", "ʻOla", "Ångström", "É",
    ]

    /// Texts no plain reading takes: marks, commas, dots, digits, other scripts, odd spacing.
    static let others: [String] = [
        "Smith, John", "John Smith Jr.", "J. Smith", "John A. Smith", "John & Mary Smith", "John + Mary Smith", "\"Bob\" Smith",
        "Robert (Bob) Smith", "'Bob' Smith", "Zoë Brown", "BROWN, ZOË E", "Zoë\u{A0}Brown", "José\u{2019}s Smith", "Zoë Brown Jr", "John\tSmith", "John  Smith", "  John Smith  ", "John",
        "-John Smith", "John Smith-", "John O'", "John 2nd", "John Smith 3", "Mr. and Mrs. Craig Courville", "SMITH JOHN & MARY & ROBERT",
        "ACME PROPERTIES LLC", "ESTATE OF MARY JONES", "JONES MARY EST", "John Paul George Ringo Starr", "Mary Jo Le", "AUSTIN CITY OF",
        "Dr John Smith", "The Hon John Smith", "John Smith MD", "Ann Marie de la Cruz", "Freddie Mac Holdings", "", " ",
    ]

    @Test func answersAsTheFullReadingDoes() {
        var cases = Self.others
        for a in Self.words {
            for b in Self.words { cases.append(a + " " + b) }
            for m in ["A", "Jo", "de", "Le", "Ann", "JR"] { cases.append(a + " " + m + " " + Self.words[(a.utf8.count * 7) % Self.words.count]) }
        }
        for (k, a) in Self.words.enumerated() {
            cases.append([a, Self.words[(k + 3) % Self.words.count], Self.words[(k + 11) % Self.words.count], Self.words[(k + 29) % Self.words.count]].joined(separator: " "))
        }
        var plain = 0
        for text in cases {
            let trimmed = text.trimmed
            if NameRule.plainName(trimmed, input: text) != nil { plain += 1 }
            #expect(NameRule.parse(text) == NameRule.read(text, trimmed: trimmed, order: .firstLast), "\(text)")
        }
        // Both ways are taken, many times each: the comparison is not of one path with itself.
        #expect(plain > 1_000)
        #expect(cases.count - plain > 2_000)
    }

    @Test func theCommonNameIsAnsweredAtOnce() throws {
        let n = try #require(NameRule.plainName("JENNIFER A WILLIAMS", input: " JENNIFER A WILLIAMS"))
        #expect(n.input == " JENNIFER A WILLIAMS")
        #expect((n.given, n.middle, n.family) == ("Jennifer", "A", "Williams"))
        #expect(NameRule.plainName("DeShawn O'Neil", input: "")?.family == "O'Neil")
        let accented = try #require(NameRule.plainName("JOSÉ GARCÍA", input: "JOSÉ GARCÍA"))
        #expect((accented.given, accented.family) == ("José", "García"))
        #expect(NameRule.plainName("Zoë van der Berg", input: "") == nil)  // the particles
    }

    @Test(arguments: ["Mary Jo Le", "John Smith Jr", "Dr John Smith", "John and Mary Smith", "Grace Church", "Ann de la Cruz", "Mary Jones Est", "Smith, John", "Zoe\u{301} Brown", "ǅemal Brown", "John"])
    func aWordAReadingLooksForStepsAside(text: String) {
        #expect(NameRule.plainName(text, input: text) == nil)
    }
}
