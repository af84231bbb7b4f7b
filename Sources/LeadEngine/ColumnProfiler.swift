import LeadCore
import LeadNormalize

/// Guesses what kind of values a column holds, for `inspect`. Which lead field a column maps
/// to is `AutoMapper`'s job.
enum ColumnProfiler {
    /// The kind most values (at least 80% of the non-empty ones) share, else `text`.
    static func kind(of values: [String]) -> String {
        guard !values.isEmpty else { return "empty" }
        let checks: [(String, (String) -> Bool)] = [
            ("email", { $0.contains("@") && $0.contains(".") && !$0.contains(" ") }),
            ("boolean", { ["true", "false", "yes", "no", "y", "n"].contains($0.lowercased()) }),
            ("coordinate", AutoMapper.isDegrees),
            ("date", isDate),
            ("zip", { $0.count == 5 && $0.allSatisfy(\.isNumber) || $0.count == 10 && $0.dropFirst(5).first == "-" }),
            ("phone", isPhone),
            ("state", { $0.count == 2 && StateTable.code(for: $0) != nil }),
            ("number", { Double($0) != nil }),
            ("url", { $0.hasPrefix("http://") || $0.hasPrefix("https://") || $0.hasPrefix("www.") }),
        ]
        for (name, test) in checks where values.filter(test).count * 5 >= values.count * 4 {
            return name
        }
        return "text"
    }

    /// Whether most values (80 %) are degrees within ±180, with or without a hemisphere letter.
    static func areDegrees(_ values: [String]) -> Bool {
        !values.isEmpty && values.filter { Coordinate.degrees($0).map { abs($0) <= 180 } ?? false }.count * 5 >= values.count * 4
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "T" || $0 == " " })
        guard parts.count >= 3, text.contains("/") || text.contains("-") else { return false }
        let lengths = parts.prefix(3).map(\.count)
        guard parts.prefix(3).allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return false }
        // 2024-03-01, 3/1/2024, 01/03/24: a year of 4 digits at either end, or three short parts.
        return lengths == [4, 2, 2] || lengths[0] == 4 && lengths[1] <= 2 && lengths[2] <= 2
            || lengths[0] <= 2 && lengths[1] <= 2 && (lengths[2] == 4 || lengths[2] == 2)
    }

    static func isPhone(_ text: String) -> Bool {
        let digits = text.filter(\.isNumber).count
        let allowed = text.allSatisfy { $0.isNumber || " +-.()x".contains($0) }
        return allowed && digits >= 7 && digits <= 15
    }
}
