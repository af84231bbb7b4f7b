import LeadCore

/// The exit statuses a run ends with, and which disposition gives which. The executable's
/// `ExitStatus.exit(for:)` is the one place an error becomes a message and one of these.
///
/// | status | meaning |
/// | --- | --- |
/// | 0 | success (also a closed pipe on stdout, as in `leadport cat f.csv \| head`) |
/// | 1 | the run failed: a file could not be read, a destination failed |
/// | 2 | usage or configuration: a bad option, a missing file or sheet |
/// | 3 | finished, but some rows were rejected |
/// | 4 | a sync job was already running (another sync holds its lock): nothing was done for it |
/// | 130, 143 | interrupted by SIGINT (Ctrl-C) or SIGTERM: the rows read were delivered and recorded, the rest not read |
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failed: Int32 = 1
    public static let usage: Int32 = 2
    public static let someRejected: Int32 = 3
    public static let alreadyRunning: Int32 = 4

    /// 128 + the signal's number, as a shell reports a command a signal ended.
    public static func interrupted(by signal: Int32) -> Int32 { 128 + signal }

    /// The status of a run with several problems (several destinations, several sync jobs): a
    /// usage problem first (nothing could start as asked), then a failure, then a sync job
    /// already running, then rejected rows; 0 when there are none.
    public static func gravest(_ statuses: [Int32]) -> Int32 {
        for status in [usage, failed, alreadyRunning, someRejected] where statuses.contains(status) { return status }
        return statuses.first { $0 != success } ?? success
    }

    /// The gravest of several problems' dispositions, as a status.
    public static func gravest(_ dispositions: [FailureDisposition]) -> Int32 {
        gravest(dispositions.map(status(for:)))
    }

    public static func status(for disposition: FailureDisposition) -> Int32 {
        switch disposition {
        case .usage: return usage
        case .transient, .terminal: return failed
        case .rowRejected: return someRejected
        }
    }
}

/// A run that finished with a status other than 0 and has already said why (rows rejected, an
/// interruption, the gravest of several problems): the executable exits with `status`.
public struct FinishedWithStatus: Error, Equatable {
    public var status: Int32

    public init(_ status: Int32) { self.status = status }
}
