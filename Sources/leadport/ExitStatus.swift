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
            printError(inOurVoice(LeadPort.fullMessage(for: error)))
            Glibc.exit(usage)
        }
        LeadPort.exit(withError: error)
    }

    /// The parser's `Error: Unknown option '--x'` as every other message of LeadPort's starts:
    /// `leadport: unknown option '--x'`, with its usage lines after it unchanged.
    static func inOurVoice(_ message: String) -> String {
        guard message.hasPrefix("Error: ") else { return message }
        let rest = message.dropFirst("Error: ".count)
        // The parser's own sentences start lower-case after `leadport:`; LeadPort's messages,
        // which may start with a file name, are left as they are.
        let parserWords: Set<Substring> = ["Unknown", "Missing", "Unexpected", "The", "Invalid", "Value", "Too"]
        guard let first = rest.split(separator: " ", maxSplits: 1).first, parserWords.contains(first) else { return "leadport: " + rest }
        return "leadport: " + rest.prefix(1).lowercased() + rest.dropFirst()
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
