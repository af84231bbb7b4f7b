import ArgumentParser
import Foundation
import LeadEngine
import LeadReaders

/// `leadport cat`: the rows of one sheet exactly as read (docs/cli.md).
struct Cat: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the rows of a file exactly as read, before any mapping.",
        discussion: """
            jsonl prints one JSON array of strings per row: numbers in their shortest exact \
            form, dates as ISO 8601, booleans as TRUE/FALSE, blank rows inside the sheet as [] \
            (trailing blank rows and trailing empty cells are dropped). csv prints the same rows \
            as RFC 4180 CSV. count reads every cell and prints `rows=N cells=M` (M = non-empty cells).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, csv, count
    }

    @Argument(help: "A .csv/.txt/.tsv file (any encoding, any delimiter), an .xlsx/.xlsm workbook, or - for CSV on stdin.")
    var file: String

    @Option(help: "The sheet to read, by name or 1-based position (every sheet counts, hidden and chart sheets included). Default: the first.")
    var sheet: String?

    @Option(help: "Output format: jsonl, csv or count.")
    var format: Format = .jsonl

    @Option(help: ArgumentHelp("CSV delimiter to use instead of detecting one: a character, or tab, comma, semicolon, pipe.", valueName: "char"))
    var delimiter: String?

    func run() throws {
        var options = RowReaderOptions(sheet: sheet)
        options.delimiter = try DelimiterOption.parse(delimiter)
        let reader = try openRowReader(path: file, options: options)
        ReaderNote.print(reader.description.note)
        let out = StandardOutput.shared
        switch format {
        case .count:
            let count = try reader.count()
            try out.write("rows=\(count.rows) cells=\(count.cells)\n")
        case .jsonl:
            while let row = try reader.next() {
                try RowPrinter.jsonl(row.trimmedCells, to: out)
            }
        case .csv:
            while let row = try reader.next() {
                try RowPrinter.csv(row.trimmedCells, to: out)
            }
        }
    }
}

enum DelimiterOption {
    static func parse(_ text: String?) throws -> UInt8? {
        guard let text else { return nil }
        switch text.lowercased() {
        case "tab", "\\t", "\t": return 9
        case "comma": return UInt8(ascii: ",")
        case "semicolon": return UInt8(ascii: ";")
        case "pipe": return UInt8(ascii: "|")
        default:
            guard text.utf8.count == 1, let byte = text.utf8.first, byte != 10, byte != 13, byte != UInt8(ascii: "\"") else {
                throw ValidationError("--delimiter takes one ASCII character (or tab, comma, semicolon, pipe), not \"\(text)\"")
            }
            return byte
        }
    }
}

/// A reader's note about how it reads a file (a workbook name on CSV text), on stderr.
enum ReaderNote {
    static func print(_ note: String?) {
        guard let note else { return }
        FileHandle.standardError.write(Data("leadport: \(note)\n".utf8))
    }
}
