import ArgumentParser
import HTTPKit
import LeadEngine

#if canImport(Glibc)
import Glibc
#endif

/// The one place where errors become a message on stderr and an exit status.
///
/// | status | meaning |
/// | --- | --- |
/// | 0 | success (also a closed pipe on stdout, as in `leadport cat f.csv \| head`) |
/// | 1 | the run failed: a file could not be read, a destination failed |
/// | 2 | usage or configuration: a bad option, a missing file or sheet |
/// | 3 | finished, but some rows were rejected |
/// | 130, 143 | interrupted by SIGINT (Ctrl-C) or SIGTERM: the rows read were delivered and recorded, the rest not read |
enum ExitStatus {
    static let success: Int32 = 0
    static let failed: Int32 = 1
    static let usage: Int32 = 2
    static let someRejected: Int32 = 3

    /// 128 + the signal's number, as a shell reports a command a signal ended.
    static func interrupted(by signal: Int32) -> Int32 { 128 + signal }

    static func exit(for error: Error) -> Never {
        if error is BrokenPipe { Glibc.exit(success) }
        // Every error of LeadPort's own declares what it means for the run.
        if let classified = error as? any Classified & CustomStringConvertible {
            printError("leadport: \(classified.description)")
            Glibc.exit(status(for: classified.disposition))
        }
        if let exit = error as? ExitCode { Glibc.exit(exit.rawValue) }
        // A bad option or argument: ArgumentParser's message and usage, with our usage status
        // (2, design.md §4.6) instead of its EX_USAGE (64).
        if LeadPort.exitCode(for: error) == .validationFailure {
            printError(LeadPort.fullMessage(for: error))
            Glibc.exit(usage)
        }
        LeadPort.exit(withError: error)
    }

    static func status(for disposition: FailureDisposition) -> Int32 {
        switch disposition {
        case .usage: return usage
        case .transient, .terminal: return failed
        case .rowRejected: return someRejected
        }
    }

    static func printError(_ message: String) {
        var text = KnownSecrets.redact(message)
        text.append("\n")
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}

/// Thrown when stdout's reader went away; exits 0.
struct BrokenPipe: Error {}
