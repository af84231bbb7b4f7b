import Foundation

extension Leadport {
    /// Starts `leadport arguments…`, kills it with SIGKILL after `seconds` (if it is still
    /// running) and waits until it is gone. True when the kill found it running. `environment`
    /// is added to the test's own, with the config file isolated as `run` does.
    public static func kill(after seconds: Double, _ arguments: [String], environment: [String: String] = [:]) throws -> Bool {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": "/nonexistent/leadport-tests"].merging(environment) { $1 }) { $1 }
        process.currentDirectoryURL = Fixture.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: seconds)
        let wasRunning = process.isRunning
        Foundation.kill(process.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { throw KillError(message: "the killed import (pid \(process.processIdentifier)) did not go within 30 s") }
        return wasRunning
    }

    /// `count` moments between 0.05 s and `longest`, one in each slice of that span so that
    /// early and late kills both happen, drawn from `seed` (which the caller prints, so that a
    /// failure can be run again with the same moments).
    public static func killMoments(count: Int, upTo longest: Double, seed: UInt64) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { k in
            let unit = Double(generator.next() >> 11) / Double(1 << 53)
            return 0.05 + (Double(k) + unit) * (longest - 0.05) / Double(count)
        }
    }

    public struct KillError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
