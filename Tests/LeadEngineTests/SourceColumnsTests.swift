@testable import LeadEngine
import Testing

/// The one header of a CSV output over several inputs: the union of their columns, first seen
/// first, a repeated name kept as often as one input repeats it, and every column placed.
@Suite struct SourceColumnsTests {
    @Test func unionKeepsEveryColumnOfEveryInput() {
        let columns = SourceColumns([["A", "A", "B"], ["B", "A", "C"], ["C", "A", "A", "A"]])
        #expect(columns.names == ["A", "A", "B", "C", "A"])
        #expect(columns.places == [[0, 1, 2], [2, 0, 3], [3, 0, 1, 4]])
    }

    @Test func theSameColumnsStayAsTheyAre() {
        let columns = SourceColumns([["Name", "Email"], ["Name", "Email"]])
        #expect(columns.names == ["Name", "Email"] && columns.places == [[0, 1], [0, 1]])
    }
}
