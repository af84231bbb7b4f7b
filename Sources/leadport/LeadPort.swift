import ArgumentParser
import LeadEngine

#if canImport(Glibc)
import Glibc
#endif

/// The `leadport` command line.
@main
struct LeadPort: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leadport",
        abstract: "Read lead lists (CSV, XLSX), clean them and push every row where it belongs.",
        discussion: """
            Start with `leadport inspect FILE` to see how LeadPort reads a file, and \
            `leadport cat FILE` to see its rows exactly as read.
            """,
        version: LeadPortVersion.string,
        subcommands: [Import.self, Inspect.self, Cat.self, Normalize.self]
    )

    static func main() {
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
            try StandardOutput.shared.flush()
        } catch {
            try? StandardOutput.shared.flush()
            ExitStatus.exit(for: error)
        }
    }
}

enum LeadPortVersion {
    static let string = "0.1.0"
}
