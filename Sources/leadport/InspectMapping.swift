import LeadEngine

/// `inspect --preset NAME` / `--mapping FILE`: which column fills which field once the mapping
/// is applied to this file, and by what (the mapping's own header, or automatic mapping of a
/// column a preset does not name).
struct AppliedMapping {
    struct AppliedColumn {
        var letters: String
        var header: String
        var field: String?
        /// `mapping`, `automatic`, `ignored` or `extra`.
        var by: String
        var confidence: Double?
        var reason: String?
    }

    var source: String
    var target: String
    var columns: [AppliedColumn]

    init(plan: ColumnPlan, source: String) {
        self.source = source
        target = plan.mapping.target.rawValue
        columns = plan.columnNames.enumerated().map { k, name in
            let letters = Column.letters(for: k)
            if let field = plan.fields[k] {
                if let s = plan.automatic[k] {
                    return AppliedColumn(letters: letters, header: name, field: field.rawValue, by: "automatic", confidence: s.confidence, reason: s.why)
                }
                return AppliedColumn(letters: letters, header: name, field: field.rawValue, by: "mapping")
            }
            return AppliedColumn(letters: letters, header: name, by: plan.ignored.contains(k) ? "ignored" : "extra")
        }
    }

    var text: String {
        var lines = ["mapping:    \(source) → \(target)"]
        let width = min(28, columns.map { $0.header.count + 2 }.max() ?? 4)
        for c in columns {
            let what: String
            switch (c.field, c.by) {
            case let (field?, "automatic"): what = "→ \(field) (automatic, \(String(format2: c.confidence ?? 0)), \(c.reason ?? ""))"
            case let (field?, _): what = "→ \(field) (\(source))"
            default: what = c.by == "ignored" ? "→ (ignored)" : "→ (extra)"
            }
            lines.append("  \(c.letters.padded(to: 3)) \("\"\(c.header)\"".padded(to: width)) \(what)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: String {
        let list = columns.map { c in
            InspectionJSON.object([("letter", InspectionJSON.string(c.letters)), ("name", InspectionJSON.string(c.header)),
                                   ("field", c.field.map(InspectionJSON.string) ?? "null"), ("by", InspectionJSON.string(c.by)),
                                   ("confidence", c.confidence.map { String(format2: $0) } ?? "null"),
                                   ("reason", c.reason.map(InspectionJSON.string) ?? "null")])
        }
        return InspectionJSON.object([("source", InspectionJSON.string(source)), ("target", InspectionJSON.string(target)),
                                      ("columns", "[" + list.joined(separator: ",") + "]")])
    }
}
