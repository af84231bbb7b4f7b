import Foundation
import LeadTesting
import Testing

/// What a command loads before it does anything: the phone library is linked in statically, and
/// libzip and libxml2 are opened only by a command that reads or writes a workbook. Judged by the
/// dynamic loader itself (`LD_DEBUG=files` lists every object it loads, and what asked for it).
@Suite struct StartupLibrariesTests {
    /// The shared objects the loader opened while `leadport arguments…` ran.
    private func loaded(_ arguments: [String], stdin: Data? = nil) throws -> (result: Leadport.Result, objects: [String]) {
        let result = try Leadport.run(arguments, stdin: stdin, environment: ["LD_DEBUG": "files"])
        // Lines read `   1234:     file=libzip.so.4 [0];  needed by …` or `… dynamically loaded by …`.
        let objects = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            let rest = line[start.upperBound...]
            return rest.split(separator: " ", maxSplits: 1).first.map(String.init)
        }
        return (result, objects)
    }

    private func named(_ prefix: String, in objects: [String]) -> Bool {
        objects.contains { ($0.split(separator: "/").last ?? "").hasPrefix(prefix) }
    }

    @Test func theBinaryNeedsNoPhoneWorkbookOrNetworkLibraryToStart() throws {
        let (result, objects) = try loaded(["--version"])
        #expect(result.status == 0)
        #expect(!objects.isEmpty, "LD_DEBUG listed nothing: \(result.stderr)")
        for library in ["libphonenumber", "libprotobuf", "libicu", "libabsl", "libzip", "libxml2", "libqrencode", "libpng", "libcurl", "libpq"] {
            #expect(!named(library, in: objects), "\(library) loaded by --version: \(objects)")
        }
        // The allocator (CLeadAlloc) is linked: jemalloc serves every allocation from the start.
        #expect(named("libjemalloc", in: objects), "\(objects)")
    }

    @Test func aCSVIsReadWithoutTheWorkbookLibraries() throws {
        let (result, objects) = try loaded(["cat", "fixtures/csv/utf8-plain.csv", "--format", "count"])
        #expect(result.status == 0)
        #expect(!named("libzip", in: objects) && !named("libxml2", in: objects), "\(objects)")
    }

    @Test func aWorkbookOpensThemOnFirstUseAndReads() throws {
        let (result, objects) = try loaded(["cat", "fixtures/xlsx/messy-open-house-leads.xlsx", "--format", "count"])
        #expect(result.status == 0)
        #expect(named("libzip", in: objects) && named("libxml2", in: objects), "\(objects)")
        #expect(result.stdout == "rows=13 cells=65\n")
    }

    @Test func phonesParseWithTheLinkedInLibrary() throws {
        let (result, objects) = try loaded(["normalize", "phone"], stdin: Data("(617) 555-0100\n".utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""e164":"+16175550100""#), "\(result.stdout)")
        #expect(!named("libphonenumber", in: objects), "\(objects)")
    }
}
