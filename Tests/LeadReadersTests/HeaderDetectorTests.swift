import LeadReaders
import Testing

@Suite struct HeaderDetectorTests {
    @Test func skipsTitleNoteAndBlankRows() {
        let rows = [["Leads export"], ["Generated 2024-03-01 by CRM", "", ""], [], ["Name", "Email", "Phone"],
                    ["Ann", "ann@example.com", "617-555-0100"], ["Bob", "bob@example.com", "617-555-0101"]]
        #expect(HeaderDetector.detect(rows) == 3)
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
}
