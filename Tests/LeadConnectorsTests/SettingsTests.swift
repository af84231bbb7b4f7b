import Foundation
import LeadConnectors
import Testing

/// LeadPort's config file (Settings): the environment first, then the file, which is refused
/// when anyone but its owner may read it.
@Suite struct SettingsTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func file(_ text: String, mode: Int) throws -> String {
        let path = dir.appendingPathComponent("config.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func theEnvironmentWinsOverTheFileAndEmptyMeansUnset() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try file("HUBSPOT_TOKEN: pat-from-file\nSUPABASE_URL: https://abcd.supabase.co\nFUB_SYSTEM: ''\n", mode: 0o600)
        let settings = try Settings.load(environment: ["LEADPORT_CONFIG": path, "HUBSPOT_TOKEN": "pat-from-env", "SUPABASE_URL": ""])
        #expect(settings["HUBSPOT_TOKEN"] == "pat-from-env")
        #expect(settings["SUPABASE_URL"] == "https://abcd.supabase.co")
        #expect(settings["FUB_SYSTEM"] == nil)
        #expect(settings.origin("SUPABASE_URL") == path && settings.origin("HUBSPOT_TOKEN") == "the environment")
        #expect(settings.values["HUBSPOT_TOKEN"] == "pat-from-env" && settings.values["SUPABASE_URL"] == "https://abcd.supabase.co")
        #expect(Set(settings.secrets) == ["pat-from-env"])
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        for mode in [0o644, 0o640, 0o606] {
            let path = try file("HUBSPOT_TOKEN: pat-x\n", mode: mode)
            #expect {
                try Settings.load(environment: ["LEADPORT_CONFIG": path])
            } throws: { error in
                let text = "\(error)"
                return text.contains(path) && text.contains("chmod 600") && !text.contains("pat-x")
            }
        }
    }

    @Test func theXDGFolderIsUsedAndAMissingDefaultFileIsNoError() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("leadport")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("config.yaml").path
        try "FUB_API_KEY: key-1\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try Settings.load(environment: ["XDG_CONFIG_HOME": dir.path])["FUB_API_KEY"] == "key-1")
        #expect(Settings.configPath(environment: ["HOME": "/home/ann"]) == "/home/ann/.config/leadport/config.yaml")
        #expect(try Settings.load(environment: ["XDG_CONFIG_HOME": dir.path + "/none"]).file.isEmpty)
        // A file LEADPORT_CONFIG names must be there.
        #expect(throws: SettingsError.self) { try Settings.load(environment: ["LEADPORT_CONFIG": dir.path + "/missing.yaml"]) }
    }

    @Test func aFileThatIsNotAMappingOfNamesToValuesIsRefusedWithItsPath() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        for text in ["- HUBSPOT_TOKEN\n", "HUBSPOT_TOKEN: [a, b]\n", "HUBSPOT_TOKEN: 'unclosed\n"] {
            let path = try file(text, mode: 0o600)
            #expect {
                try Settings.load(environment: ["LEADPORT_CONFIG": path])
            } throws: { error in "\(error)".contains(path) }
        }
    }
}
