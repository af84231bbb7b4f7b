@testable import LeadReaders
import Testing

@Suite struct HeaderDetectorTests {
    @Test func skipsTitleNoteAndBlankRows() {
        let rows = [["Leads export"], ["Generated 2024-03-01 by CRM", "", ""], [], ["Name", "Email", "Phone"],
                    ["Ann", "ann@example.com", "617-555-0100"], ["Bob", "bob@example.com", "617-555-0101"]]
        #expect(HeaderDetector.detect(rows) == 3)
    }

    /// Blank rows above a list do not use up the rows a header is looked for in: an export that
    /// leaves 40 of them, then a title, has its header found, and as an index of all the rows.
    @Test func blankRowsAboveDoNotCountTowardsTheWindow() {
        let rows = Array(repeating: ["", "", ""], count: 40) + [["Owner roll 2026"], ["Name", "Email", "Phone"],
                                                                 ["Ann", "ann@example.com", "617-555-0100"], ["Bob", "bob@example.com", "617-555-0101"]]
        #expect(HeaderDetector.detect(top: rows) == 41)
        // The window still ends 30 rows after the first with text.
        let late = [["Leads"]] + Array(repeating: ["x"], count: 30) + [["Name", "Email", "Phone"], ["Ann", "ann@example.com", "617-555-0100"]]
        #expect(HeaderDetector.detect(top: late) == nil)
        #expect(HeaderDetector.detect(top: []) == nil)
    }

    @Test func headerOnFirstRow() {
        #expect(HeaderDetector.detect([["First", "Last", "ZIP"], ["Ann", "Lee", "02134"]]) == 0)
    }

    @Test func dataOnlyHasNoHeader() {
        #expect(HeaderDetector.detect([["1", "2", "3"], ["4", "5", "6"]]) == nil)
    }

    @Test func spanishHeaders() {
        let rows = [["Lista de clientes"], ["Nombre", "Correo", "Teléfono", "Ciudad"], ["Ana", "ana@example.com", "555-0100", "Miami"]]
        #expect(HeaderDetector.detect(rows) == 1)
    }

    /// The byte pre-check never says no where `String.contains` says yes.
    @Test func theBytePreCheckAgreesWithContains() {
        let texts = ["teléfono móvil", "tele\u{301}fono", "e-mail", "email", "nombre completo", "zip code", "código postal",
                     "co\u{301}digo", "address", "ph\u{301}one", "", "name\u{301}", "\u{212A}ey", "cell #"]
        for text in texts.map({ $0.lowercased() }) {
            for word in HeaderDetector.headerWords where text.contains(word) {
                #expect(HeaderDetector.mayContain(text, word), "\(text) contains \(word)")
            }
        }
        #expect(!HeaderDetector.mayContain("city", "zip"))
        #expect(HeaderDetector.mayContain("ph\u{301}one", "phone") == false)
    }
}
