import LeadCore

/// Why a file could not be read. Always names the file; names the sheet, row and column when
/// the problem is at one place. Rendered as one line by `description`.
public struct ReaderError: Error, Locatable, Classified, CustomStringConvertible, Equatable {
    public enum Reason: Equatable, Sendable {
        case notFound
        case unreadable(String)
        case emptyFile
        case tooSmall(bytes: Int64, smallest: Int64)
        case legacyXLS
        case encryptedWorkbook
        case xlsb
        case ods
        case otherZip(String)
        case otherBinary(String)
        /// A workbook or another archive (named) on standard input, which is read as CSV text only.
        case notTextOnStandardInput(String)
        case corruptZip(String)
        /// libzip or libxml2, which reading a workbook loads on first use, is not installed.
        case libraryMissing(String)
        case zipBomb(part: String, detail: String)
        case xmlDoctype(part: String)
        case xmlMalformed(part: String, line: Int, message: String)
        case missingPart(String)
        case cellTooLarge(limit: Int)
        case unterminatedQuote(openedOnLine: Int)
        case recordTooLarge(limit: Int, openQuoteLine: Int?)
        case tooManyFields(limit: Int)
        case sheetNotFound(requested: String, available: [String])
        case sheetsNotSupported
    }

    /// The file as the user named it.
    public var file: String
    public var reason: Reason
    public var location: SourceLocation?

    public init(file: String, _ reason: Reason, at location: SourceLocation? = nil) {
        self.file = file
        self.reason = reason
        self.location = location
    }

    /// A file or sheet that is not there is a usage problem; one that cannot be read stops the run.
    public var disposition: FailureDisposition {
        switch reason {
        case .notFound, .sheetNotFound, .sheetsNotSupported: return .usage
        default: return .terminal
        }
    }

    public var description: String {
        "\(location?.description ?? file): \(message)"
    }

    /// `64 MiB`, or `8-byte` below a mebibyte.
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes)-byte"
    }

    /// The reason alone, without the file.
    public var message: String {
        switch reason {
        case .notFound: return "no such file"
        case .unreadable(let why): return "cannot read the file: \(why)"
        case .emptyFile: return "the file is empty (0 bytes), so it is not a workbook"
        case .tooSmall(let bytes, let smallest):
            return "the file is only \(bytes) byte\(bytes == 1 ? "" : "s"), far too small to be a workbook (the smallest possible is \(smallest)); it was probably cut short"
        case .legacyXLS:
            return "this is a legacy Excel 97-2003 workbook (.xls), which LeadPort does not read; save it as .xlsx or .csv"
        case .encryptedWorkbook:
            return "this workbook is password-protected (encrypted); remove the password in Excel and save it again"
        case .xlsb:
            return "this is an Excel binary workbook (.xlsb), which LeadPort does not read; save it as .xlsx or .csv"
        case .ods:
            return "this is an OpenDocument spreadsheet (.ods), which LeadPort does not read; save it as .xlsx or .csv"
        case .otherZip(let what): return "this zip archive is not an Excel workbook (\(what))"
        case .otherBinary(let what): return "this is not a spreadsheet or CSV text (\(what))"
        case .notTextOnStandardInput(let what):
            return "this is \(what), and standard input is read as CSV text only: give the file's path instead of -"
        case .corruptZip(let detail): return "the workbook is a corrupt or truncated zip archive (\(detail))"
        case .libraryMissing(let detail): return "cannot read workbooks: \(detail)"
        case .zipBomb(let part, let detail): return "refused \(part): \(detail) (possible zip bomb)"
        case .xmlDoctype(let part): return "refused \(part): it declares a DTD, which a workbook never does"
        case .xmlMalformed(let part, let line, let message):
            return "\(part) is not well-formed XML (line \(line): \(message))"
        case .missingPart(let part): return "the workbook has no \(part)"
        case .cellTooLarge(let limit): return "a cell is larger than the \(ReaderError.size(limit)) limit"
        case .unterminatedQuote(let line):
            return "unterminated quoted field: the quote opened on line \(line) is never closed"
        case .recordTooLarge(let limit, let openQuote?):
            return "a record is larger than the \(ReaderError.size(limit)) limit; the quoted field opened on line \(openQuote) is probably never closed"
        case .recordTooLarge(let limit, nil):
            return "a record is larger than the \(ReaderError.size(limit)) limit"
        case .tooManyFields(let limit): return "a record has more than \(limit) fields"
        case .sheetNotFound(let requested, let available):
            let list = available.enumerated().map { "\($0.offset + 1) \"\($0.element)\"" }.joined(separator: ", ")
            return "no sheet \(requested); the workbook has \(available.count): \(list)"
        case .sheetsNotSupported: return "a CSV file has one sheet only; --sheet takes 1 or nothing"
        }
    }
}
