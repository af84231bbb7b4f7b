import CLeadZip
import Foundation

/// One cell of a written table. Text stays text (a ZIP such as `02134` or a phone such as
/// `+16175550123` is never turned into a number); a date is a real date in a workbook.
public enum SheetCell: Sendable, Equatable {
    case text(String)
    case number(Double)
    /// `YYYY-MM-DD`.
    case date(String)

    /// A number a workbook stored, by its canonical text; text when the text is no number.
    public static func number(_ text: String) -> SheetCell {
        guard let value = Double(text), value.isFinite else { return .text(text) }
        return .number(value)
    }

    /// The cell as CSV writes it.
    public var plainText: String {
        switch self {
        case .text(let s), .date(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        }
    }
}

/// A spreadsheet written a row at a time, in constant memory: a CSV file or a workbook.
public protocol TableWriter: AnyObject {
    var path: String { get }
    /// Starts a section named after its input (a sheet in a workbook); its first row is `header`.
    func startSheet(_ name: String, header: [String]) throws
    func write(_ row: [SheetCell]) throws
    func close() throws
}

/// Opens the writer for `path` by its extension: `.xlsx` or `.csv`. `shownAs` is the name an
/// error gives the file (the user's, when `path` is where it is written until it is kept). A
/// workbook needs libzip, which is opened on first use: checked here, before any row is written.
public func openTableWriter(path: String, shownAs: String? = nil) throws -> TableWriter {
    switch (path as NSString).pathExtension.lowercased() {
    case "xlsx":
        if let missing = lp_zip_load_error() {
            throw WriterError(path: shownAs ?? path, message: "cannot write workbooks: " + String(cString: missing))
        }
        return try XLSXWriter(path: path)
    case "csv": return try CSVWriter(path: path)
    default: throw WriterError(path: path, message: "cannot tell what to write: give a .xlsx or .csv file name")
    }
}

extension CSVWriter: TableWriter {
    /// A CSV file has one header; a later input whose columns differ gets its own header row.
    public func startSheet(_ name: String, header: [String]) throws {
        if header != lastHeader { try write(header) }
        lastHeader = header
    }

    public func write(_ row: [SheetCell]) throws {
        try write(row.map(\.plainText))
    }
}
