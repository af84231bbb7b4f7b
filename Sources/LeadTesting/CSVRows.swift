import Foundation
import LeadReaders

/// Reads a CSV file that LeadPort wrote (a report, rejects or processed file) into rows of
/// cells, through the CSV reader that its own tests check against Python's csv module.
public enum CSVRows {
    public static func read(_ url: URL) throws -> [[String]] {
        let reader = try openRowReader(path: url.path, options: RowReaderOptions())
        var rows: [[String]] = []
        while let row = try reader.next() { rows.append(row.cells) }
        return rows
    }
}
