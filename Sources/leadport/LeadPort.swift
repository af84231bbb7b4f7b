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
        subcommands: [Import.self, Export.self, Enrich.self, Sync.self, Status.self, Undo.self, Apply.self, Inspect.self, Cat.self, Normalize.self, Auth.self]
    )

    static func main() {
        signal(SIGPIPE, SIG_IGN)
        // `leadport --version` alone, the probe scripts and packagers run, is answered before the
        // argument parser starts: the parser reflects over every command's options, and each of
        // its hundred-odd type casts scans the binary's protocol conformances, about half the
        // instructions of a start-up (docs/benchmarks.md, "Start-up").
        if CommandLine.arguments.dropFirst() == ["--version"] {
            print(LeadPortVersion.string)
            return
        }
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

extension LeadPortVersion {
    /// The version and this very binary (its size and modification time): any rebuild, with
    /// rules changed or not, counts as other rules.
    static var build: String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return string }
        return "\(string):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
