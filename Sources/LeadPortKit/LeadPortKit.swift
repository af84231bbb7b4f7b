// LeadPortKit: LeadPort's reading and cleaning for Swift programs, without the command line
// (docs/library.md). One `import LeadPortKit` gives the readers (`openRowReader`), the mapping
// (`Mapping`, `AutoMapper`, `ColumnPlan`), the rules (`PhoneRule`, `EmailRule`, `NameRule`,
// `AddressRule`, …), the lead model (`Lead`, `PostalAddress`, `LeadIssue`) and `LeadList`,
// which puts them together the way `leadport import` does before it sends anything.
@_exported import LeadCore
@_exported import LeadNormalize
@_exported import LeadReaders

/// A lead list read, mapped and cleaned: every data row of a CSV or XLSX file as a `Lead`, in
/// the file's order, built by the same `ColumnPlan` and `LeadBuilder` as `leadport import`.
/// What it leaves to the caller is what the import does after: rejecting leads whose required
/// fields are missing, dedupe and sending.
public struct LeadList: Sendable {
    public let path: String
    /// The header row found and which column feeds which field (`plan.mapping` is the mapping
    /// used; written out with `description`, it is what `leadport inspect --mapping-out` gives).
    public let plan: ColumnPlan
    private let options: RowReaderOptions
    private let builder: LeadBuilder

    /// Reads the head of the file to find its header and plan its columns.
    /// - Parameters:
    ///   - mapping: a mapping (`Mapping.load(path:)`, or a preset's file); nil maps the columns
    ///     automatically, as `leadport import` does without `--mapping`.
    ///   - region: the phone region for numbers written without a country code; default the
    ///     mapping's, else `US`.
    /// - Throws: `ReaderError` when the file cannot be read; `MappingError` when the mapping
    ///   names columns the file lacks, or automatic mapping finds no name, email, phone or address.
    public init(path: String, mapping: Mapping? = nil, region: String? = nil, options: RowReaderOptions = RowReaderOptions()) throws {
        self.path = path
        self.options = options
        plan = try ColumnPlan.make(path: path, options: options, mapping: mapping)
        let defaults = plan.mapping.defaults
        builder = LeadBuilder(plan: plan, region: region ?? defaults.region ?? "US", dateOrder: defaults.dateOrder,
                              defaultState: defaults.state, style: defaults.addressStyle ?? .usps)
    }

    /// Calls `body` with each data row's lead, in order, one at a time (the file is streamed, not
    /// held in memory). Rows above and at the header, and blank rows, are not leads. A lead's
    /// `issues` say what its rules found (an email without `@`, a phone that is not a number).
    public func forEach(_ body: (Lead) throws -> Void) throws {
        let reader = try openRowReader(path: path, options: options)
        while let row = try reader.next() {
            if let header = plan.headerRow, row.location.row <= header { continue }
            if row.cells.allSatisfy({ $0.trimmed.isEmpty }) { continue }
            try body(builder.build(row))
        }
    }
}
