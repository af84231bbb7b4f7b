import ArgumentParser
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
enum ExitStatus {
    static let success: Int32 = 0
    static let failed: Int32 = 1
    static let usage: Int32 = 2
    static let someRejected: Int32 = 3

    static func exit(for error: Error) -> Never {
        if error is BrokenPipe { Glibc.exit(success) }
        if let reader = error as? ReaderError {
            printError("leadport: \(reader.description)")
            switch reader.reason {
            case .notFound, .sheetNotFound, .sheetsNotSupported: Glibc.exit(usage)
            default: Glibc.exit(failed)
            }
        }
        if let mapping = error as? MappingError {
            printError("leadport: \(mapping.description)")
            Glibc.exit(usage)
        }
        if error is UnknownCampaign || error is AmbiguousCampaign {
            printError("leadport: \(error)")
            Glibc.exit(usage)
        }
        if let store = error as? StoreError {
            printError("leadport: \(store.description)")
            Glibc.exit(failed)
        }
        if let destination = error as? DestinationError {
            printError("leadport: \(destination.description)")
            Glibc.exit(failed)
        }
        if let writer = error as? WriterError {
            printError("leadport: \(writer.description)")
            Glibc.exit(failed)
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

    static func printError(_ message: String) {
        var text = message
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
