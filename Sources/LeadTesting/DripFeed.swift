import Foundation
import LeadCore
import LeadReaders

/// Reads a CSV through `CSVRowReader` with the bytes handed over in different chunk sizes
/// (NIO's ByteToMessageDecoderVerifier idea): whatever the chunking, rows and locations must
/// be the same.
public enum DripFeed {
    /// Chunkings every test uses: byte by byte, a few awkward sizes, seeded random, whole.
    public static func chunkings(seed: UInt64 = 42) -> [(String, [Int])] {
        var generator = SeededGenerator(seed: seed)
        let random = (0..<64).map { _ in Int.random(in: 1...97, using: &generator) }
        return [("byte by byte", [1]), ("2,3,5,7", [2, 3, 5, 7]), ("random", random), ("whole", [Int.max])]
    }

    /// Every row of `bytes` read with `chunks`, or the error's description.
    public static func rows(_ bytes: [UInt8], chunks: [Int], file: String = "drip.csv",
                            options: RowReaderOptions = RowReaderOptions()) -> Swift.Result<[RawRow], ReaderError> {
        do {
            let reader = try CSVRowReader(source: MemoryByteSource(bytes, chunkSizes: chunks), file: file, options: options)
            var rows: [RawRow] = []
            while let row = try reader.next() { rows.append(row) }
            return .success(rows)
        } catch let error as ReaderError {
            return .failure(error)
        } catch {
            return .failure(ReaderError(file: file, .unreadable("\(error)")))
        }
    }
}

/// A small deterministic random source (SplitMix64) so failures reproduce.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
