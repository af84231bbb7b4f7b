import Foundation
import LeadNormalize

/// Mapping presets shipped in mappings/ beside the binary's repository.
public enum Presets {
    public static func directory() -> String {
        if let env = ProcessInfo.processInfo.environment["LEADPORT_MAPPINGS"] { return env }
        // The binary itself (run by name from PATH, argv[0] is only its name).
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: binary).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("mappings")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
            url.deleteLastPathComponent()
        }
        return "mappings"
    }

    public static func load(_ name: String) throws -> Mapping {
        let dir = directory()
        let path = dir + "/" + name + ".yaml"
        guard FileManager.default.fileExists(atPath: path) else {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
            let described = names.map { preset in
                (try? Mapping.load(path: dir + "/" + preset + ".yaml").description).flatMap { $0 }.map { "\(preset): \($0)" } ?? preset
            }
            throw MappingError.unknownPreset(name, available: described)
        }
        return try Mapping.load(path: path)
    }
}
