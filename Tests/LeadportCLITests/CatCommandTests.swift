import Foundation
import LeadTesting
import Testing

private struct BadExpectation: Decodable {
    var exit: Int32
    var message: String
}

@Suite struct CatCommandTests {
    /// Every golden file: `<file>[.sheet-<S>].jsonl` → the fixture and its sheet.
    static let goldenCases: [(String, String?)] = Fixture.all(in: "golden", extensions: ["jsonl"]).map { url in
        let stem = String(url.lastPathComponent.dropLast(".jsonl".count))
        if let range = stem.range(of: ".sheet-") {
            return (String(stem[..<range.lowerBound]), String(stem[range.upperBound...]))
        }
        return (stem, nil)
    }

    private static func fixturePath(_ file: String) -> String {
        file.hasSuffix(".xlsx") ? "fixtures/xlsx/\(file)" : "fixtures/csv/\(file)"
    }

    @Test(arguments: goldenCases)
    func jsonlOutputMatchesTheGoldenFile(file: String, sheet: String?) throws {
        let suffix = sheet.map { ".sheet-\($0)" } ?? ""
        let expected = try String(contentsOf: Fixture.url("golden/\(file)\(suffix).jsonl"), encoding: .utf8)
        var arguments = ["cat", Self.fixturePath(file)]
        if let sheet { arguments += ["--sheet", sheet] }
        let result = try Leadport.run(arguments)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == expected)
    }

    @Test(arguments: goldenCases)
    func countMatchesTheGoldenFile(file: String, sheet: String?) throws {
        let suffix = sheet.map { ".sheet-\($0)" } ?? ""
        let rows = try String(contentsOf: Fixture.url("golden/\(file)\(suffix).jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        var arguments = ["cat", Self.fixturePath(file), "--format", "count"]
        if let sheet { arguments += ["--sheet", sheet] }
        let result = try Leadport.run(arguments)
        let cells = rows.reduce(0) { $0 + $1.filter { !$0.isEmpty }.count }
        #expect(result.stdout == "rows=\(rows.count) cells=\(cells)\n")
    }

    static let badCases: [(String, String, Int32)] = {
        guard let data = try? Data(contentsOf: Fixture.url("golden/bad.json")),
              let table = try? JSONDecoder().decode([String: BadExpectation].self, from: data) else { return [] }
        return table.sorted { $0.key < $1.key }.map { ($0.key, $0.value.message, $0.value.exit) }
    }()

    @Test(arguments: badCases)
    func unreadableFilesGetOneClearLineAndAFailureStatus(file: String, message: String, status: Int32) throws {
        for format in ["jsonl", "count"] {
            let result = try Leadport.run(["cat", "fixtures/bad/\(file)", "--format", format])
            #expect(result.status == status)
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "exactly one line on stderr: \(result.stderr)")
            #expect(result.stderr.hasPrefix("leadport: fixtures/bad/\(file)"))
            #expect(result.stderr.contains(message))
        }
    }

    @Test func missingFileIsAUsageError() throws {
        let result = try Leadport.run(["cat", "no-such-file.csv"])
        #expect(result.status == 2)
        #expect(result.stderr == "leadport: no-such-file.csv: no such file\n")
    }

    /// The argument parser's errors speak as LeadPort's own do (`leadport: what`), then give the
    /// usage, and exit 2.
    @Test func aBadOptionIsSaidInLeadPortsVoice() throws {
        let result = try Leadport.run(["normalize", "date", "--date-order", "mdy"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("leadport: unknown option '--date-order'\n"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: leadport normalize"), "\(result.stderr)")
        let missing = try Leadport.run(["import"])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("leadport: missing expected argument"), "\(missing.stderr)")
    }

    @Test func csvFormatQuotesWhatNeedsQuoting() throws {
        let result = try Leadport.run(["cat", "fixtures/csv/quoted-newlines-and-delimiters.csv", "--format", "csv"])
        #expect(result.stdout == "Name,Notes\nAnn,\"line one\nline two, with comma\"\nBob,\"said \"\"hi\"\"\r\nthen left\"\nCy\n")
    }

    @Test func readsCSVFromStandardInput() throws {
        let result = try Leadport.run(["cat", "-"], stdin: Data("a;b\n1;2\n".utf8))
        #expect(result.stdout == "[\"a\",\"b\"]\n[\"1\",\"2\"]\n")
    }

    /// Standard input is read as CSV text: a workbook piped in is named as what it is, with the
    /// fix, and other files by what they are, as they are by path: not printed as rows.
    @Test func aWorkbookOrAnotherFileOnStandardInputIsNamed() throws {
        let workbook = try Data(contentsOf: Fixture.url("xlsx/messy-open-house-leads.xlsx"))
        let piped = try Leadport.run(["cat", "-"], stdin: workbook)
        #expect(piped.status == 1 && piped.stdout.isEmpty && piped.stderr.contains("-: this is a zip archive (an .xlsx workbook")
                && piped.stderr.contains("give the file's path instead of -"), "\(piped.stderr)")
        let legacy = try Leadport.run(["cat", "-"], stdin: try Data(contentsOf: Fixture.url("bad/legacy-excel-97.xls")))
        #expect(legacy.status == 1 && legacy.stderr.contains("a legacy .xls workbook"), "\(legacy.stderr)")
        // A PDF whose first lines read as text, an image, a web page: refused as by path.
        let pdf = try Leadport.run(["cat", "-"], stdin: Data("%PDF-1.5\nhello,world\n".utf8))
        #expect(pdf.status == 1 && pdf.stdout.isEmpty && pdf.stderr.contains("not a spreadsheet or CSV text (a PDF document)"), "\(pdf.stderr)")
        let image = try Leadport.run(["cat", "-", "--format", "count"], stdin: try Data(contentsOf: Fixture.url("bad/png-image-named.csv")))
        #expect(image.status == 1 && image.stdout.isEmpty && image.stderr.contains("(a PNG image)"), "\(image.stderr)")
        let page = try Leadport.run(["cat", "-"], stdin: try Data(contentsOf: Fixture.url("bad/html-table-saved-as.xls")))
        #expect(page.status == 1 && page.stderr.contains("(an HTML page; open it in Excel") && !page.stderr.contains("spreadsheet name"), "\(page.stderr)")
    }

    @Test func delimiterOptionOverridesDetection() throws {
        let result = try Leadport.run(["cat", "fixtures/csv/semicolon-delimited-european.csv", "--delimiter", "comma"])
        #expect(result.stdout == "[\"Nom;Prix;Ville\"]\n[\"A;1\",\"5;Lyon\"]\n[\"B;2\",\"25;Paris\"]\n")
        let detected = try Leadport.run(["cat", "fixtures/csv/semicolon-delimited-european.csv"])
        #expect(detected.stdout.hasPrefix("[\"Nom\",\"Prix\",\"Ville\"]\n[\"A\",\"1,5\",\"Lyon\"]\n"))
    }

    @Test func versionAndHelp() throws {
        let version = try Leadport.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.first?.isNumber == true)
        // The short cut that answers `--version` before the parser says what the parser would
        // (which it still does after another option), and only for `--version` alone.
        let parsed = try Leadport.run(["--version", "--version"])
        #expect(parsed.status == 0 && parsed.stdout == version.stdout, "\(parsed.stdout) \(parsed.stderr)")
        let withCommand = try Leadport.run(["cat", "--version"])
        #expect(withCommand.status == 0 && withCommand.stdout == version.stdout, "\(withCommand.stdout) \(withCommand.stderr)")
        for command in [["--help"], ["cat", "--help"], ["inspect", "--help"]] {
            let help = try Leadport.run(command)
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE:"))
        }
    }

    @Test func closedPipeExitsCleanly() throws {
        // Far more output than a pipe buffer holds, read by something that leaves after one byte:
        // leadport must exit 0 quietly, not die of SIGPIPE or print an error.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("many.csv")
        try Data(String(repeating: "Ann,ann@example.com,617-555-0100\n", count: 50_000).utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -o pipefail; \"$0\" cat \"$1\" 2>\"$2\" | head -c 1 >/dev/null",
                             Leadport.binary.path, input.path, dir.appendingPathComponent("err").path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8) == "")
    }
}
