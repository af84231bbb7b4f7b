import Foundation

/// Runs the built `leadport` binary, as a user would, and captures what it prints.
public enum Leadport {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The binary next to the test bundle (`swift build --build-tests` builds both).
    public static var binary: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("leadport")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Fixture.root.appendingPathComponent(".build/debug/leadport")
    }

    /// Runs `leadport arguments…` in `directory` (default: the repository root).
    /// `environment` is added to the test's own. LeadPort's config file is looked for in a
    /// folder that does not exist unless the test names one: the developer's own
    /// ~/.config/leadport/config.yaml must not change what a test sees.
    public static func run(_ arguments: [String], in directory: URL? = nil, stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let isolated = ["XDG_CONFIG_HOME": "/nonexistent/leadport-tests"].merging(environment) { $1 }
        return try run(program: binary, arguments, in: directory, stdin: stdin, environment: isolated)
    }

    /// Runs another program (a checker such as `python3`, found on PATH when not a path).
    public static func run(program: URL, _ arguments: [String], in directory: URL? = nil, stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if program.path.contains("/") && FileManager.default.isExecutableFile(atPath: program.path) {
            process.executableURL = program
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program.lastPathComponent] + arguments
        }
        process.currentDirectoryURL = directory ?? Fixture.root
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
