#if canImport(Glibc)
import Glibc
#endif

/// How far a survey reads: a survey sizes a sheet without keeping its rows (`inspect` sizes
/// every sheet of a workbook and counts the data rows of the one it inspects). It stops at the
/// first limit reached and says so, and what it counted is then a lower bound. `cat` and
/// `import` read every row and are bounded by the file's own limits (`RowReaderOptions`).
public struct SurveyLimits: Sendable, Equatable {
    /// Non-empty cells to count in one sheet.
    public var cells: Int
    /// Seconds to spend on one sheet.
    public var seconds: Double
    /// Seconds for every sheet of a workbook together; sheets after it are not surveyed.
    public var totalSeconds: Double

    /// The defaults let a real 200,000-row workbook (3 million cells, 1.4 s in a release build)
    /// be sized whole, and keep a hostile one to seconds.
    public init(cells: Int = 20_000_000, seconds: Double = 3, totalSeconds: Double = 10) {
        self.cells = cells
        self.seconds = seconds
        self.totalSeconds = totalSeconds
    }

    /// No limit: the whole sheet, as `count()` reads it.
    public static let none = SurveyLimits(cells: .max, seconds: .infinity, totalSeconds: .infinity)
}

/// What a survey of one sheet found.
public struct SheetSurvey: Sendable, Equatable {
    /// Rows as `next()` would return them (blank rows inside the sheet included).
    public var rows: Int
    /// Non-empty cells.
    public var cells: Int
    /// The widest row, up to its last non-empty cell.
    public var columns: Int
    /// False when a limit stopped the survey: the figures are then lower bounds.
    public var complete: Bool

    public init(rows: Int, cells: Int, columns: Int, complete: Bool) {
        self.rows = rows
        self.cells = cells
        self.columns = columns
        self.complete = complete
    }
}

/// A deadline on the monotonic clock.
struct SurveyClock {
    private let deadline: Double

    init(seconds: Double) {
        deadline = seconds.isFinite ? SurveyClock.now() + seconds : .infinity
    }

    var expired: Bool { deadline.isFinite && SurveyClock.now() >= deadline }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// Surveys every sheet of the workbook `reader` reads, in workbook order, sharing its opened
/// archive, styles and shared strings (each sheet's own survey within `limits`; once
/// `limits.totalSeconds` is spent, the sheets left get nil). A CSV file has no sheets: [].
public func surveyEverySheet(of reader: any RowReader, limits: SurveyLimits) throws -> [SheetSurvey?] {
    guard let workbook = reader as? XLSXRowReader else { return [] }
    let total = SurveyClock(seconds: limits.totalSeconds)
    var surveys: [SheetSurvey?] = []
    for sheet in workbook.description.sheets {
        if total.expired {
            surveys.append(nil)
            continue
        }
        surveys.append(try workbook.reader(forSheet: sheet).survey(limits: limits))
    }
    return surveys
}
