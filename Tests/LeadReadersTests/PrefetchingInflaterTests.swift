import Foundation
@testable import LeadReaders
import LeadTesting
import Testing

/// Everything a plain single-thread read of `part` gives: its bytes, and the error that
/// stopped it, if any.
private func plainRead(_ archive: ZipArchive, _ part: String) throws -> ([UInt8], String?) {
    let reader = try archive.open(part)
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 50)
    do {
        while true {
            let n = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if n == 0 { return (out, nil) }
            out.append(contentsOf: buffer[0..<n])
        }
    } catch {
        return (out, "\(error)")
    }
}

private func prefetchedRead(_ archive: ZipArchive, _ part: String, slots: Int, chunk: Int) throws -> ([UInt8], String?) {
    let inflater = try PrefetchingInflater(archive: archive, part: part, slots: slots, chunk: chunk)
    defer { inflater.close() }
    var out: [UInt8] = []
    do {
        while true {
            let piece = try inflater.next()
            if piece.isEmpty { return (out, nil) }
            out.append(contentsOf: piece)
        }
    } catch {
        return (out, "\(error)")
    }
}

private func openArchive(_ relative: String) throws -> ZipArchive {
    try ZipArchive(path: Fixture.url(relative).path, file: relative, limits: RowReaderOptions())
}

/// Counts this process's threads and open descriptors, to see that nothing is left behind.
private func threadsAndDescriptors() -> (Int, Int) {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    return (tasks, fds)
}

@Suite(.serialized) struct PrefetchingInflaterTests {
    /// Tiny chunks and a two-slot ring make the producer wrap and wait thousands of times.
    @Test(arguments: [(2, 7), (2, 64), (3, 1000), (4, 128 << 10)])
    func deliversExactlyTheBytesOfAPlainRead(slots: Int, chunk: Int) throws {
        let archive = try openArchive("xlsx/rich-text-escapes-formulas-xlsxwriter.xlsx")
        for part in ["xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "xl/styles.xml"] {
            let plain = try plainRead(archive, part)
            let prefetched = try prefetchedRead(archive, part, slots: slots, chunk: chunk)
            #expect(plain.1 == nil)
            #expect(prefetched.0 == plain.0, "\(part) with \(slots) × \(chunk)")
            #expect(prefetched.1 == nil)
        }
    }

    /// A corrupt deflate stream: the same bytes come through before the error, then the same error.
    @Test(arguments: [7, 64, 128 << 10])
    func aCorruptStreamFailsAfterTheSameBytesWithTheSameError(chunk: Int) throws {
        let archive = try openArchive("bad/corrupt-sheet-data.xlsx")
        let plain = try plainRead(archive, "xl/worksheets/sheet1.xml")
        let prefetched = try prefetchedRead(archive, "xl/worksheets/sheet1.xml", slots: 2, chunk: chunk)
        #expect(plain.1 != nil)
        #expect(prefetched.1 == plain.1)
        #expect(plain.0.starts(with: prefetched.0))
    }

    /// A reader dropped after its first row stops its thread and closes its file. Other
    /// suites run alongside, so the counts may move a little; a leak moves them by hundreds.
    @Test(.timeLimit(.minutes(1)))
    func abandoningAReaderPartWayLeavesNoThreadOrFileBehind() throws {
        let before = threadsAndDescriptors()
        for _ in 0..<200 {
            let archive = try openArchive("xlsx/inline-strings-constant-memory.xlsx")
            let inflater = try PrefetchingInflater(archive: archive, part: "xl/worksheets/sheet1.xml", slots: 2, chunk: 16)
            _ = try inflater.next()
            inflater.close()
            let reader = try openRowReader(path: Fixture.url("xlsx/title-rows-above-header.xlsx").path)
            _ = try reader.next()
        }
        let after = threadsAndDescriptors()
        #expect(after.0 - before.0 < 50, "threads: \(before.0) before, \(after.0) after")
        #expect(after.1 - before.1 < 50, "descriptors: \(before.1) before, \(after.1) after")
    }
}
