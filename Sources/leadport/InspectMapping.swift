import LeadCore
import LeadEngine
import LeadNormalize
import LeadPortKit

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
        /// For a `full_name` column: `first-last`, or `last-first` when the mapping's order
        /// (`auto` decided on the file's first rows) reads it surname first.
        var nameOrder: String?
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
                var column = AppliedColumn(letters: letters, header: name, field: field.rawValue, by: "mapping")
                if let s = plan.automatic[k] { (column.by, column.confidence, column.reason) = ("automatic", s.confidence, s.why) }
                if field == .fullName { column.nameOrder = (plan.surnameFirst.contains(k) ? NameOrder.lastFirst : .firstLast).rawValue }
                return column
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
            let order = c.nameOrder == NameOrder.lastFirst.rawValue ? ", names read surname first" : ""
            lines.append("  \(c.letters.padded(to: 3)) \("\"\(c.header)\"".padded(to: width)) \(what)\(order)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: String {
        let list = columns.map { c in
            InspectionJSON.object([("letter", InspectionJSON.string(c.letters)), ("name", InspectionJSON.string(c.header)),
                                   ("field", c.field.map(InspectionJSON.string) ?? "null"), ("by", InspectionJSON.string(c.by)),
                                   ("confidence", c.confidence.map { String(format2: $0) } ?? "null"),
                                   ("reason", c.reason.map(InspectionJSON.string) ?? "null"),
                                   ("name_order", c.nameOrder.map(InspectionJSON.string) ?? "null")])
        }
        return InspectionJSON.object([("source", InspectionJSON.string(source)), ("target", InspectionJSON.string(target)),
                                      ("columns", "[" + list.joined(separator: ",") + "]")])
    }
}
