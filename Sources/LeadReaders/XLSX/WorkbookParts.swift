/// Handlers for the small parts of a workbook: relationships, workbook.xml, styles.xml.

/// One `<Relationship>` of a `.rels` part.
struct Relationship {
    var id: String
    var type: String
    var target: String
    var external: Bool

    /// The last path component of the type URI: `worksheet`, `sharedStrings`, `officeDocument`…
    var kind: String { String(type.split(separator: "/").last ?? "") }
}

final class RelationshipsHandler: XMLHandler {
    var relationships: [Relationship] = []

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        guard name.is("Relationship") else { return }
        relationships.append(Relationship(
            id: attributes.string("Id") ?? "",
            type: attributes.string("Type") ?? "",
            target: attributes.string("Target") ?? "",
            external: attributes.string("TargetMode") == "External"))
    }

}

final class WorkbookHandler: XMLHandler {
    struct Sheet {
        var name: String
        var state: String
        var relationshipID: String
    }
    var sheets: [Sheet] = []
    var date1904 = false

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        if name.is("sheet") {
            sheets.append(Sheet(
                name: attributes.string("name") ?? "Sheet\(sheets.count + 1)",
                state: attributes.string("state") ?? "visible",
                relationshipID: attributes.string("id") ?? ""))
        } else if name.is("workbookPr") {
            if let flag = attributes.string("date1904") { date1904 = flag == "1" || flag.lowercased() == "true" }
        }
    }

}

/// Reads number formats and the cell formats (`cellXfs`) that point at them.
final class StylesHandler: XMLHandler {
    var customFormats: [Int: String] = [:]
    var cellFormatIDs: [Int] = []
    private var inCellXfs = false

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        if name.is("numFmt") {
            if let id = attributes.string("numFmtId").flatMap(Int.init) {
                customFormats[id] = attributes.string("formatCode") ?? ""
            }
        } else if name.is("cellXfs") {
            inCellXfs = true
        } else if inCellXfs && name.is("xf") {
            cellFormatIDs.append(attributes.string("numFmtId").flatMap(Int.init) ?? 0)
        }
    }

    override func endElement(_ name: XMLName) {
        if name.is("cellXfs") { inCellXfs = false }
    }


    /// The kind of value each cell format shows, indexed by a cell's `s` attribute
    /// (`.byValue` where the format's sections differ, `.zeroPadded` for a format of zeros),
    /// and those formats by the same index.
    func kinds() -> (kinds: [NumberKind], byValue: [Int: NumberFormat], zeroPadded: [Int: ZeroPadding]) {
        var byValue: [Int: NumberFormat] = [:]
        var zeroPadded: [Int: ZeroPadding] = [:]
        let kinds = cellFormatIDs.enumerated().map { k, id in
            guard let code = customFormats[id] else { return NumberKind.builtIn(id) }
            // First: a padding's sections (`[<=99999]00000;00000-0000`) are all numbers.
            if let padding = ZeroPadding(formatCode: code) {
                zeroPadded[k] = padding
                return .zeroPadded
            }
            if let format = NumberFormat(formatCode: code) {
                byValue[k] = format
                return .byValue
            }
            return NumberKind.classify(formatCode: code)
        }
        return (kinds, byValue, zeroPadded)
    }
}

/// Resolves a relationship target against the folder of the part that owns the `.rels`.
func resolvePartPath(_ target: String, relativeTo owner: String) -> String {
    let cleaned = target.replacingBackslashes()
    var components: [Substring]
    if cleaned.hasPrefix("/") {
        components = []
    } else {
        components = owner.split(separator: "/").dropLast()
    }
    for piece in cleaned.split(separator: "/") {
        if piece == "." { continue }
        if piece == ".." {
            if !components.isEmpty { components.removeLast() }
            continue
        }
        components.append(piece)
    }
    return components.joined(separator: "/")
}

/// The `.rels` part that belongs to `part`: `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`.
func relationshipsPart(of part: String) -> String {
    var folders = part.split(separator: "/", omittingEmptySubsequences: false)
    let name = folders.removeLast()
    return (folders + ["_rels", name + ".rels"]).joined(separator: "/")
}
