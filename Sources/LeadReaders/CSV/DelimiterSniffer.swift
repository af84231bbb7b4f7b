/// Picks the delimiter of a CSV sample among `,` `;` tab `|`.
///
/// For each candidate it counts occurrences outside quotes on each of the first lines, and
/// prefers the candidate whose non-zero count repeats on the most lines (title rows and notes
/// disagree with the table and lose); ties go to the larger count, then to the order above.
/// With no candidate present it answers `,`.
public enum DelimiterSniffer {
    public static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 9, UInt8(ascii: "|")]

    public static func sniff(_ sample: UnsafeBufferPointer<UInt8>, maxLines: Int = 200) -> UInt8 {
        var perLine: [[Int]] = []
        var counts = [Int](repeating: 0, count: candidates.count)
        var inQuotes = false
        var lineHasText = false
        for b in sample {
            if b == UInt8(ascii: "\"") {
                inQuotes.toggle()
                lineHasText = true
            } else if !inQuotes && (b == 10 || b == 13) {
                if lineHasText { perLine.append(counts) }
                counts = [Int](repeating: 0, count: candidates.count)
                lineHasText = false
                if perLine.count >= maxLines { break }
            } else if !inQuotes, let k = candidates.firstIndex(of: b) {
                counts[k] += 1
                lineHasText = true
            } else {
                lineHasText = true
            }
        }
        if lineHasText && perLine.count < maxLines { perLine.append(counts) }

        var best: (index: Int, agreeing: Int, count: Int)? = nil
        for k in candidates.indices {
            var frequency: [Int: Int] = [:]
            for line in perLine where line[k] > 0 { frequency[line[k], default: 0] += 1 }
            guard let mode = frequency.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            if let current = best, (mode.value, mode.key) <= (current.agreeing, current.count) { continue }
            best = (k, mode.value, mode.key)
        }
        return candidates[best?.index ?? 0]
    }
}
