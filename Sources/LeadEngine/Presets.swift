import Foundation
import LeadNormalize

/// Mapping presets shipped in mappings/: installed beside the binary, or in its repository.
public enum Presets {
    /// The installed layout (`make install`, `make dist`, the .deb): PREFIX/bin/leadport finds
    /// PREFIX/share/leadport/mappings. Relative to the binary, so a tarball unpacked anywhere works.
    static let installedRelativePath = "../share/leadport/mappings"

    public static func directory() -> String {
        if let env = ProcessInfo.processInfo.environment["LEADPORT_MAPPINGS"], !env.isEmpty { return env }
        // The binary itself (run by name from PATH, argv[0] is only its name).
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: binary).resolvingSymlinksInPath().deletingLastPathComponent()
        // Checked first: walking up from /usr/local/bin must not stop at some unrelated /mappings.
        let installed = url.appendingPathComponent(installedRelativePath).standardizedFileURL
        if FileManager.default.fileExists(atPath: installed.path) { return installed.path }
        // A build in the repository (.build/debug/leadport): the repository's mappings/ above it.
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
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: dir, isDirectory: &isFolder) && isFolder.boolValue
            throw MappingError.unknownPreset(name, directory: dir, isFolder: exists, available: described)
        }
        return try Mapping.load(path: path)
    }
}
