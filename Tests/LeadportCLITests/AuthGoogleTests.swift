import Foundation
import LeadTesting
import Testing

/// `leadport auth google` (issue 13 item 9) against the People API double's consent page and
/// token endpoint: the real binary prints the address, a "browser" (Python's urllib, which
/// follows the consent page's redirect to LeadPort's loopback port) opens it, and the refresh
/// token lands in the config file, mode 600, never printed.
@Suite(.serialized) struct AuthGoogleTests {
    static let clientID = "auth-test.apps.googleusercontent.com"
    static let secret = "auth-test-client-secret-77c2"

    let double: LocalServer
    let dir: URL

    init() throws {
        double = try LocalServer(script: "servers/google_people_double.py", arguments: [
            "--lifetime", "120", "--client-id", Self.clientID, "--client-secret", Self.secret])
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        ["XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "GOOGLE_CLIENT_ID": Self.clientID, "GOOGLE_CLIENT_SECRET": Self.secret,
         "GOOGLE_AUTH_URL": double.url("/o/oauth2/v2/auth").absoluteString, "GOOGLE_TOKEN_URL": double.url("/token").absoluteString,
         "GOOGLE_PEOPLE_BASE_URL": double.url("").absoluteString, "GOOGLE_REFRESH_TOKEN": ""]
    }

    var configFile: URL { dir.appendingPathComponent("config/leadport/config.yaml") }

    /// Runs `leadport auth google`, opens the address it prints as a browser would, and waits
    /// for it to end: its exit status and stderr, and what the browser was shown.
    func signIn(environment: [String: String]) throws -> (status: Int32, stderr: String, page: String) {
        let process = Process()
        process.executableURL = Leadport.binary
        process.arguments = ["auth", "google", "--timeout", "20"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = dir.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var address: String?
        for _ in 0..<100 where address == nil && process.isRunning {
            Thread.sleep(forTimeInterval: 0.1)
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            address = text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http://") && $0.contains("/o/oauth2/v2/auth?") }.map(String.init)
        }
        var page = ""
        if let address {
            let browser = try Leadport.run(program: URL(fileURLWithPath: "python3"), ["-c", """
                import sys, urllib.request, urllib.error
                try:
                    print(urllib.request.urlopen(sys.argv[1], timeout=20).read().decode())
                except urllib.error.HTTPError as e:
                    print(e.code, e.read().decode())
                """, address])
            page = browser.stdout
        }
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: errors, encoding: .utf8), page)
    }

    @Test func theRefreshTokenIsSavedInTheConfigFileAndAnImportUsesIt() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        // A config file the user already has: its lines stay.
        try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# my settings\nHUBSPOT_TOKEN: pat-na1-keep-me\n".write(to: configFile, atomically: true, encoding: .utf8)
        chmod(configFile.path, 0o600)
        let run = try signIn(environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.page.contains("you can close this tab"), "\(run.page)")
        let saved = try String(contentsOf: configFile, encoding: .utf8)
        #expect(saved.hasPrefix("# my settings\nHUBSPOT_TOKEN: pat-na1-keep-me\n"), "\(saved)")
        let line = try #require(saved.split(separator: "\n").first { $0.hasPrefix("GOOGLE_REFRESH_TOKEN: ") })
        let token = line.dropFirst("GOOGLE_REFRESH_TOKEN: ".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        #expect(token.hasPrefix("1//double-"))
        #expect(!run.stderr.contains(token) && run.stderr.contains(configFile.path), "the token is never printed")
        let attributes = try FileManager.default.attributesOfItem(atPath: configFile.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // The code was bound to this process by PKCE (the double checks the verifier) and the
        // consent page was asked for offline access to contacts.
        let stats = try double.control("/_double/stats")
        #expect((stats["by_endpoint"] as? [String: Int])?["oauth.authorize"] == 1)

        // `--to google-contacts` now signs in with the saved token alone.
        let list = dir.appendingPathComponent("leads.csv")
        try "Name,Email\nAnn Lee,ann@example.com\nBob Stone,bob@example.com\n".write(to: list, atomically: true, encoding: .utf8)
        let imported = try Leadport.run(["import", list.path, "--to", "google-contacts", "--ledger", dir.appendingPathComponent("ledger.db").path,
                                         "--progress", "jsonl"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.components(separatedBy: "\"outcome\":\"created\"").count - 1 == 2, "\(imported.stderr)")
    }

    @Test func aRefusedConsentSavesNothingAndSaysSo() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        try double.control("/_double/config", ["consent": "deny"])
        defer { _ = try? double.control("/_double/config", ["consent": "grant"]) }
        let run = try signIn(environment: environment)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("consent refused"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: configFile.path))
    }

    @Test func withoutTheClientItSaysWhichVariableToSet() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try Leadport.run(["auth", "google"], environment: environment.merging(["GOOGLE_CLIENT_ID": ""]) { $1 })
        #expect(run.status == 2 && run.stderr.contains("GOOGLE_CLIENT_ID"), "\(run.stderr)")
        // A wrong secret: Google refuses the code's exchange, the secret is not printed.
        let wrong = try signIn(environment: environment.merging(["GOOGLE_CLIENT_SECRET": "not-the-secret-91x"]) { $1 })
        #expect(wrong.status == 1 && wrong.stderr.contains("GOOGLE_CLIENT_SECRET") && !wrong.stderr.contains("not-the-secret-91x"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: configFile.path))
    }
}
