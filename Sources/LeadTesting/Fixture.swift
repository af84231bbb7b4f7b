import Foundation

/// Paths of the repository's shared test inputs.
public enum Fixture {
    /// The repository root, found from this source file's location.
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `fixtures/<relative>`.
    public static func url(_ relative: String) -> URL {
        root.appendingPathComponent("fixtures").appendingPathComponent(relative)
    }

    /// Every file under `fixtures/<folder>` with one of the extensions, sorted by name.
    public static func all(in folder: String, extensions: Set<String>) -> [URL] {
        let dir = url(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().map { dir.appendingPathComponent($0) }.filter { extensions.contains($0.pathExtension.lowercased()) }
    }
}
