import GRDBSQLite
import LeadCore

public struct StoreError: Error, CustomStringConvertible, Classified {
    public var path: String
    public var message: String
    /// SQLite's extended result code, when SQLite gave one.
    public var code: Int32? = nil
    public var disposition: FailureDisposition { .terminal }
    public var description: String { "\(path): \(message)" }

    /// The database refused a row (a constraint, or a trigger's RAISE(ABORT)), not the write
    /// as such: the row's rejection, not the run's failure.
    public var refusesRow: Bool { code.map { $0 & 0xFF == SQLITE_CONSTRAINT } ?? false }
}
