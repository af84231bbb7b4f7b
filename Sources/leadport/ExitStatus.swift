import ArgumentParser
import HTTPKit
import LeadEngine

#if canImport(Glibc)
import Glibc
import LeadCore
#endif

/// The one place where errors become a message on stderr and an exit status (the statuses
/// themselves: `ExitStatus` in LeadEngine).
extension ExitStatus {
    static func exit(for error: Error) -> Never {
        if error is BrokenPipe { Glibc.exit(success) }
        // Every error of LeadPort's own declares what it means for the run.
        if let classified = error as? any Classified & CustomStringConvertible {
            printError("leadport: \(classified.description)")
            Glibc.exit(status(for: classified.disposition))
        }
        if let finished = error as? FinishedWithStatus { Glibc.exit(finished.status) }
        // A bad option or argument: ArgumentParser's message and usage, with our usage status
        // (2, design.md §4.6) instead of its EX_USAGE (64).
        if LeadPort.exitCode(for: error) == .validationFailure {
            printError(LeadPort.fullMessage(for: error))
            Glibc.exit(usage)
        }
        LeadPort.exit(withError: error)
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
