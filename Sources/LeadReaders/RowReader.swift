import LeadCore

/// A single forward stream of rows from one sheet of one file.
///
/// Guarantee: every row returned carries its `SourceLocation` (file, sheet, 1-based row).
/// `next()` returns rows in file order and nil at the end; rows with recoverable problems are
/// returned with `issues`, never skipped. Fatal problems throw `ReaderError` naming the file
/// and, where known, the row. Trailing blank rows are not returned; blank rows between others
/// are.
public protocol RowReader: AnyObject {
    /// What was found while opening: format, encoding, delimiter, sheets.
    var description: SourceDescription { get }
    /// The next row, or nil at the end.
    func next() throws -> RawRow?
    /// Reads every remaining cell without building strings: the rows `next()` would return and
    /// their non-empty cells.
    func count() throws -> CellCount
    /// Counts like `count()` (and the widest row), stopping at the first of `limits`.
    func survey(limits: SurveyLimits) throws -> SheetSurvey
}

extension RowReader {
    public func count() throws -> CellCount {
        let survey = try survey(limits: .none)
        return CellCount(rows: survey.rows, cells: survey.cells)
    }
}

/// The result of `RowReader.count()`.
public struct CellCount: Equatable, Sendable {
    public var rows: Int
    public var cells: Int
    public init(rows: Int, cells: Int) {
        self.rows = rows
        self.cells = cells
    }
}

/// What a reader found out about its file while opening it.
public struct SourceDescription: Sendable, Equatable {
    public enum Format: String, Sendable { case csv, xlsx }
    public var file: String
    public var format: Format
    /// CSV only: `utf-8`, `utf-8-bom`, `utf-16le`, `utf-16be`, `windows-1252`.
    public var encoding: String?
    /// CSV only: the delimiter used, and whether it was detected, given, or from `sep=`.
    public var delimiter: Character?
    public var delimiterSource: String?
    /// XLSX only: every sheet in workbook order.
    public var sheets: [SheetInfo]
    /// The sheet being read (nil for CSV).
    public var sheet: SheetInfo?
    /// Something the user should know about how the file is read, for stderr: a file named
    /// as a workbook that holds CSV text.
    public var note: String?

    public init(file: String, format: Format, encoding: String? = nil, delimiter: Character? = nil,
                delimiterSource: String? = nil, sheets: [SheetInfo] = [], sheet: SheetInfo? = nil) {
        self.file = file
        self.format = format
        self.encoding = encoding
        self.delimiter = delimiter
        self.delimiterSource = delimiterSource
        self.sheets = sheets
        self.sheet = sheet
    }
}

/// One sheet of a workbook as listed in workbook.xml.
public struct SheetInfo: Sendable, Equatable {
    public enum Kind: String, Sendable { case worksheet, chartsheet, dialogsheet, macrosheet, unknown }
    /// 1-based position among all sheets, hidden and chart sheets included.
    public var position: Int
    public var name: String
    /// `visible`, `hidden` or `veryHidden`.
    public var state: String
    public var kind: Kind
    /// The sheet's part inside the zip, e.g. `xl/worksheets/sheet1.xml`.
    public var part: String?

    public init(position: Int, name: String, state: String, kind: Kind, part: String?) {
        self.position = position
        self.name = name
        self.state = state
        self.kind = kind
        self.part = part
    }

    public var isHidden: Bool { state != "visible" }
}

/// Options every command reads rows with (xsv's `Config`).
public struct RowReaderOptions: Sendable {
    /// A sheet by name or 1-based position; nil for the first.
    public var sheet: String?
    /// A CSV delimiter to use instead of detecting one.
    public var delimiter: UInt8?
    /// Refuse any single cell larger than this many bytes.
    public var maxCellBytes: Int = 16 << 20
    /// Refuse any zip part that inflates past this many bytes.
    public var maxPartBytes: Int64 = 4 << 30
    /// Refuse a part whose inflated/compressed ratio passes this, once it is past 64 MiB.
    public var maxCompressionRatio: Int64 = 500
    /// Refuse a shared-string table larger than this many bytes of text.
    public var maxSharedStringBytes: Int = 1 << 30

    public init(sheet: String? = nil, delimiter: UInt8? = nil) {
        self.sheet = sheet
        self.delimiter = delimiter
    }
}
