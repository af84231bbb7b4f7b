import Foundation
import LeadCore
@testable import LeadReaders
import LeadTesting
import Testing

private func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

@Suite struct CSVRowReaderTests {
    static let fixtures = Fixture.all(in: "csv", extensions: ["csv", "tsv", "txt"])

    @Test(arguments: fixtures)
    func dripFeedGivesTheSameRowsAndLocations(url: URL) throws {
        let data = try bytes(url)
        guard case .success(let whole) = DripFeed.rows(data, chunks: [Int.max]) else {
            Issue.record("\(url.lastPathComponent) did not read")
            return
        }
        for (name, chunks) in DripFeed.chunkings() {
            let dripped = DripFeed.rows(data, chunks: chunks)
            #expect(dripped == .success(whole), "\(url.lastPathComponent) read \(name)")
        }
    }

    @Test(arguments: fixtures)
    func rowsMatchTheExpectedOutput(url: URL) throws {
        let expected = try String(contentsOf: Fixture.url("golden/\(url.lastPathComponent).jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        let reader = try openRowReader(path: url.path)
        var rows: [[String]] = []
        while let row = try reader.next() { rows.append(Array(row.trimmedCells)) }
        #expect(rows == expected)
    }

    @Test func locationsAreTheFirstLineOfEachRecordAfterASepLine() throws {
        let text = "sep=;\na;b\n\"multi\nline\";x\n\nlast;y\n"
        guard case .success(let rows) = DripFeed.rows(Array(text.utf8), chunks: [3]) else {
            Issue.record("did not read")
            return
        }
        #expect(rows.map(\.location.row) == [2, 3, 5, 6])
        #expect(rows.map(\.location.recordIndex) == [0, 1, 2, 3])
        #expect(rows[1].cells == ["multi\nline", "x"])
    }

    @Test(arguments: [
        ("utf8-plain.csv", "utf-8", ","), ("utf8-bom-excel.csv", "utf-8-bom", ","),
        ("windows-1252-accents.csv", "windows-1252", ","), ("utf16le-bom-excel-unicode-text.csv", "utf-16le", "\t"),
        ("utf16be-bom.csv", "utf-16be", ","), ("semicolon-delimited-european.csv", "utf-8", ";"),
        ("pipe-delimited.csv", "utf-8", "|"), ("tab-delimited.tsv", "utf-8", "\t"),
        ("excel-sep-line-semicolon.csv", "utf-8", ";"), ("title-rows-above-header.csv", "utf-8", ","),
    ])
    func detectsEncodingAndDelimiter(file: String, encoding: String, delimiter: Character) throws {
        let reader = try openRowReader(path: Fixture.url("csv/\(file)").path)
        #expect(reader.description.encoding == encoding)
        #expect(reader.description.delimiter == delimiter)
    }

    @Test func utf16WithoutBOMIsRecognised() throws {
        let data = Array("name,city\nJosé,Zürich\n".data(using: .utf16LittleEndian)!)
        guard case .success(let rows) = DripFeed.rows(data, chunks: [5]) else {
            Issue.record("did not read")
            return
        }
        #expect(rows.map(\.cells) == [["name", "city"], ["José", "Zürich"]])
    }

    @Test func invalidUTF8AfterTheSampleFallsBackPerCellAndIsFlagged() throws {
        var data = Array("name,note\n".utf8)
        for _ in 0..<30_000 { data += Array("plain,ascii text\n".utf8) }
        data += Array("Ren".utf8) + [0xE9] + Array(",caf".utf8) + [0xE9, 10]
        guard case .success(let rows) = DripFeed.rows(data, chunks: [Int.max]) else {
            Issue.record("did not read")
            return
        }
        let last = try #require(rows.last)
        #expect(last.cells == ["René", "café"])
        #expect(last.issues.map(\.code) == [.encodingFallback, .encodingFallback])
        #expect(last.issues.first?.location?.row == 30_002)
    }

    @Test func raggedRowsAreKeptAndFlagged() throws {
        let reader = try openRowReader(path: Fixture.url("csv/ragged-rows.csv").path)
        _ = reader
        let all = try openRowReader(path: Fixture.url("csv/ragged-rows.csv").path)
        var rows: [RawRow] = []
        while let row = try all.next() { rows.append(row) }
        #expect(rows.filter { $0.issues.contains { $0.code == .raggedRow } }.map(\.location.row) == [2, 3, 5])
    }

    @Test func nulBytesAreKeptAsCharacters() throws {
        let reader = try openRowReader(path: Fixture.url("csv/nul-bytes-in-cells.csv").path)
        _ = try reader.next()
        let row = try #require(try reader.next())
        #expect(row.cells == ["An\u{0}n", "12\u{0}3"])
        #expect(row.issues.isEmpty)
    }

    @Test func aTrailingBlankRecordIsDroppedEvenWhenRagged() throws {
        let bytes = Array("a,b\n1,2\n,,,\n".utf8)
        let reader = try CSVRowReader(source: MemoryByteSource(bytes), file: "t.csv")
        var rows: [RawRow] = []
        while let row = try reader.next() { rows.append(row) }
        #expect(rows.map(\.cells) == [["a", "b"], ["1", "2"]])
        #expect(try CSVRowReader(source: MemoryByteSource(bytes), file: "t.csv").count() == CellCount(rows: 2, cells: 4))
    }

    @Test func givenDelimiterOverridesDetection() throws {
        var options = RowReaderOptions()
        options.delimiter = UInt8(ascii: ";")
        let reader = try openRowReader(path: Fixture.url("csv/utf8-plain.csv").path, options: options)
        let header = try #require(try reader.next())
        #expect(header.cells.count == 1)
        #expect(reader.description.delimiterSource == "given")
    }

    @Test(arguments: fixtures)
    func countAgreesWithTheRowsRead(url: URL) throws {
        let reader = try openRowReader(path: url.path)
        var rows = 0
        var cells = 0
        while let row = try reader.next() {
            rows += 1
            cells += row.cells.filter { !$0.isEmpty }.count
        }
        #expect(try openRowReader(path: url.path).count() == CellCount(rows: rows, cells: cells))
    }

    @Test func aHundredMegabyteCellIsRefusedWithItsLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("huge-cell.csv")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("name,notes\nAnn,\"".utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: block) }
        try handle.write(contentsOf: Data("\"\n".utf8))
        try handle.close()
        let reader = try openRowReader(path: url.path, displayName: "huge-cell.csv")
        _ = try reader.next()
        #expect(throws: ReaderError.self) { try reader.next() }
        do {
            _ = try openRowReader(path: url.path, displayName: "huge-cell.csv").count()
            Issue.record("a 100 MB cell was accepted")
        } catch let error as ReaderError {
            #expect(error.description.hasPrefix("huge-cell.csv:2: a record is larger than"))
        }
    }

    /// The cell validator against the standard library's: every one- and two-byte sequence,
    /// three- and four-byte ones with every lead from E0 and the
    /// later bytes on each boundary of table 3-7.
    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        func agree(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { b in
                TextEncoding.isValidUTF8(b) == (String(validating: b, as: UTF8.self) != nil)
            }
        }
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4]
        var disagreements: [[UInt8]] = []
        func check(_ bytes: [UInt8]) { if !agree(bytes) { disagreements.append(bytes) } }
        for a in 0...255 { check([UInt8(a)]) }
        for a in 0...255 { for b in 0...255 { check([UInt8(a), UInt8(b)]) } }
        for a in 0xE0...0xEF { for b in 0...255 { for c in edges { check([UInt8(a), UInt8(b), UInt8(c)]) } } }
        for a in 0xF0...0xF7 { for b in edges { for c in edges { for d in edges { check([UInt8(a), b, c, d]) } } } }
        // Longer cells, where the validator reads eight ASCII bytes at a time: pieces of valid
        // and broken sequences at every offset.
        let pieces: [[UInt8]] = [Array("abcdefgh".utf8), [0x41], Array("é".utf8), Array("東".utf8), Array("🏠".utf8), [0x80], [0xE0, 0x80],
                                 [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3], Array("0123456789012345".utf8)]
        var random = SeededGenerator(seed: 2026)
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 6) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            check(bytes)
        }
        check(Array("Zoë, José — 東京 🏠".utf8))
        check(Array("Zoë".utf8).dropLast())
        #expect(disagreements.isEmpty, "first: \(disagreements.prefix(5))")
    }
}
