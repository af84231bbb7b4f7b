/// Finds the header row among the first rows of a sheet, skipping title rows, notes and
/// blank rows above it.
///
/// Each candidate row scores by its non-empty cells, favouring text over numbers, words that
/// headers use (name, email, phone, address, zip…) and agreement with the width of the rows
/// below; a row of one cell (a title) or of mostly numbers (data) scores low. The best row
/// wins; ties go to the earlier row.
public enum HeaderDetector {
    /// Words that make a cell look like a column heading (English and common Spanish).
    static let headerWords: [String] = [
        "name", "first", "last", "full", "email", "e-mail", "mail", "phone", "mobile", "cell", "tel", "address", "street",
        "city", "state", "zip", "postal", "country", "company", "notes", "note", "source", "status", "owner", "mailing",
        "property", "unit", "apt", "date", "created", "nombre", "apellido", "correo", "teléfono", "telefono", "celular",
        "dirección", "direccion", "ciudad", "estado", "código", "codigo", "id", "type", "tags", "price",
    ]

    /// Rows a header is looked for in, from the first with text: blank rows above a list do not
    /// count (an export may leave dozens).
    public static let window = 30

    /// Blank rows read above a list, at most, looking for its first text (planning, inspecting):
    /// an export may leave hundreds; past this many a sheet is said to hold nothing.
    public static let blankRowsAbove = 10_000

    /// The header among the first `window` rows from the first that has text in it.
    /// - Parameter rows: the rows read from the top of the sheet.
    /// - Returns: the index into `rows` of the header, or nil when no row looks like one.
    public static func detect(top rows: [[String]]) -> Int? {
        let start = rows.firstIndex { $0.contains { !$0.trimmingCharacters().isEmpty } } ?? 0
        return detect(Array(rows[start...].prefix(window))).map { $0 + start }
    }

    /// - Parameter rows: the rows to choose among (cells as read).
    /// - Returns: the index into `rows` of the header, or nil when no row looks like one.
    public static func detect(_ rows: [[String]]) -> Int? {
        var best: (index: Int, score: Double)?
        for (index, row) in rows.enumerated() {
            let cells = row.filter { !$0.trimmingCharacters().isEmpty }
            guard cells.count >= 2 else { continue }
            var score = 0.0
            var distinct = Set<String>()
            for cell in cells {
                let text = cell.trimmingCharacters().lowercased()
                distinct.insert(text)
                if isNumberLike(text) {
                    score -= 1
                } else if text.contains("@") || text.count > 40 {
                    score -= 0.5
                } else {
                    score += 1
                    if headerWords.contains(where: { mayContain(text, $0) && text.contains($0) }) { score += 1.5 }
                }
            }
            score -= Double(cells.count - distinct.count)
            // Rows below with about the same width make this the top of a table.
            let below = rows[(index + 1)...].prefix(5).map { $0.filter { !$0.isEmpty }.count }
            let agreeing = below.filter { $0 > 0 && abs($0 - cells.count) <= max(1, cells.count / 4) }.count
            score += Double(agreeing) * 0.5
            if best == nil || score > best!.score { best = (index, score) }
        }
        guard let best, best.score > 1 else { return nil }
        return best.index
    }

    /// False when `text` cannot contain `word`: the bytes of the word's ASCII beginning are
    /// nowhere in it. (`String.contains` compares Characters, at some fifteen thousand
    /// instructions a call; a Character equal to an ASCII letter is that letter, so a match
    /// always has these bytes.)
    static func mayContain(_ text: String, _ word: String) -> Bool {
        let prefix = word.utf8.prefix { $0 < 0x80 }
        guard let first = prefix.first else { return true }
        let bytes = Array(text.utf8)
        let needle = Array(prefix)
        guard needle.count <= bytes.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == first {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    static func isNumberLike(_ text: String) -> Bool {
        var digits = 0
        for c in text.unicodeScalars {
            if ("0"..."9").contains(c) {
                digits += 1
            } else if !"+-.,/:() $%".unicodeScalars.contains(c) {
                return false
            }
        }
        return digits > 0
    }
}
