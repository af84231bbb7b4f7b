import Foundation
import LeadCore
@testable import LeadReaders
import LeadTesting
import Testing

/// Tokenizes `text` handing it over in `chunks`, returning fields and the line of each record.
private func tokenize(_ text: [UInt8], chunks: [Int], delimiter: UInt8 = 44, maxRecordBytes: Int = 1 << 20) throws -> [([String], Int)] {
    let tokenizer = CSVTokenizer(delimiter: delimiter, maxRecordBytes: maxRecordBytes)
    var records: [([String], Int)] = []
    func take() {
        let r = tokenizer.record
        records.append(((0..<r.count).map { String(decoding: r.field($0), as: UTF8.self) }, tokenizer.recordLine))
    }
    var offset = 0
    var k = 0
    while offset < text.count {
        let size = min(chunks[k % chunks.count], text.count - offset)
        k += 1
        let piece = Array(text[offset..<offset + size])
        offset += size
        try piece.withUnsafeBytes { buffer in
            var position = 0
            while true {
                let (step, next) = try tokenizer.consume(buffer, from: position)
                position = next
                if step == .recordEnd { take() } else { break }
            }
        }
    }
    if try tokenizer.finish() { take() }
    return records
}

@Suite struct CSVTokenizerTests {
    static let tricky = Array("a,\"b,\"\"c\"\"\r\nd\",e\r\n\r\nf,g\rh,\"i\ni\"\nj\"k,\"\"\n\"end\"x".utf8)

    @Test func splitsQuotedFieldsAndCountsEveryLineEnd() throws {
        let records = try tokenize(Self.tricky, chunks: [Int.max])
        #expect(records.map(\.0) == [
            ["a", "b,\"c\"\r\nd", "e"], [""], ["f", "g"], ["h", "i\ni"], ["j\"k", ""], ["endx"],
        ])
        #expect(records.map(\.1) == [1, 3, 4, 5, 7, 8])
    }

    @Test(arguments: DripFeed.chunkings().map(\.1))
    func sameRecordsAndLinesWhateverTheChunking(chunks: [Int]) throws {
        let whole = try tokenize(Self.tricky, chunks: [Int.max])
        let dripped = try tokenize(Self.tricky, chunks: chunks)
        #expect(dripped.map(\.0) == whole.map(\.0))
        #expect(dripped.map(\.1) == whole.map(\.1))
    }

    @Test func crlfSplitAcrossChunksIsOneLineEnd() throws {
        let text = Array("a\r\nb\r\n\"c\r\nc\"\r\nd".utf8)
        for size in 1...4 {
            let records = try tokenize(text, chunks: [size])
            #expect(records.map(\.0) == [["a"], ["b"], ["c\r\nc"], ["d"]])
            #expect(records.map(\.1) == [1, 2, 3, 5])
        }
    }

    @Test func unterminatedQuoteNamesTheLineWhereItOpened() {
        #expect(throws: CSVTokenizerError.unterminatedQuote(line: 3, recordLine: 3)) {
            try tokenize(Array("a,b\n1,2\n3,\"open\nmore\n".utf8), chunks: [3])
        }
    }

    @Test func recordLargerThanTheLimitIsRefusedWithoutGrowingForever() {
        let text = Array("a,\"".utf8) + [UInt8](repeating: 65, count: 300_000)
        #expect(throws: CSVTokenizerError.recordTooLarge(line: 1, limit: 100_000, inQuotes: 1)) {
            try tokenize(text, chunks: [4096], maxRecordBytes: 100_000)
        }
    }

    @Test func otherDelimiterLeavesCommasInFields() throws {
        let records = try tokenize(Array("a;b,c\n1;2".utf8), chunks: [1], delimiter: 59)
        #expect(records.map(\.0) == [["a", "b,c"], ["1", "2"]])
    }
}
