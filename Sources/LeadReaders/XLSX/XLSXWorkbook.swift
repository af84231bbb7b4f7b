/// An opened .xlsx (or .xlsm) workbook: its sheets, styles and shared strings, ready to
/// stream any sheet. Built from `_rels/.rels` → workbook part → its relationships, so
/// unusual part names and Strict OOXML work.
final class XLSXWorkbook {
    let archive: ZipArchive
    let file: String
    let sheets: [SheetInfo]
    let date1904: Bool
    private let workbookPart: String
    private let stylesPart: String?
    private let sharedStringsPart: String?
    private(set) var numberKinds: [NumberKind] = []
    /// The formats of the styles whose kind is `.byValue`, by style index.
    private(set) var formatsByValue: [Int: NumberFormat] = [:]
    private(set) var zeroPadded: [Int: ZeroPadding] = [:]
    private var loaded = false
    /// Why loading failed: every later sheet reader fails the same way, rather than reading
    /// with a half-filled string table.
    private var loadFailure: (any Error)?
    private(set) var sharedStrings: SharedStrings

    init(archive: ZipArchive) throws {
        self.archive = archive
        file = archive.file
        var workbookPart = "xl/workbook.xml"
        if archive.contains("_rels/.rels") {
            let root = RelationshipsHandler()
            try parsePart(archive, "_rels/.rels", handler: root)
            if let office = root.relationships.first(where: { $0.kind == "officeDocument" && !$0.external }) {
                workbookPart = resolvePartPath(office.target, relativeTo: "")
            }
        }
        if !archive.contains(workbookPart) {
            if archive.contains("xl/workbook.bin") || workbookPart.hasSuffix(".bin") {
                throw ReaderError(file: archive.file, .xlsb)
            }
            throw ReaderError(file: archive.file, .missingPart(workbookPart))
        }
        if workbookPart.hasSuffix(".bin") { throw ReaderError(file: archive.file, .xlsb) }
        self.workbookPart = workbookPart

        let workbook = WorkbookHandler()
        try parsePart(archive, workbookPart, handler: workbook)
        date1904 = workbook.date1904

        let relsPart = relationshipsPart(of: workbookPart)
        var relationships: [Relationship] = []
        if archive.contains(relsPart) {
            let handler = RelationshipsHandler()
            try parsePart(archive, relsPart, handler: handler)
            relationships = handler.relationships
        }
        func target(_ rel: Relationship) -> String { resolvePartPath(rel.target, relativeTo: workbookPart) }
        let byID = Dictionary(relationships.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        sheets = workbook.sheets.enumerated().map { k, sheet in
            let rel = byID[sheet.relationshipID]
            let kind: SheetInfo.Kind
            switch rel?.kind {
            case "worksheet": kind = .worksheet
            case "chartsheet": kind = .chartsheet
            case "dialogsheet": kind = .dialogsheet
            case "xlMacrosheet", "xlIntlMacrosheet": kind = .macrosheet
            default: kind = .unknown
            }
            return SheetInfo(position: k + 1, name: sheet.name, state: sheet.state, kind: kind,
                             part: rel.map(target))
        }
        // Some writers leave these out of the relationships; Excel then finds them by name.
        let folder = resolvePartPath("", relativeTo: workbookPart)
        stylesPart = relationships.first { $0.kind == "styles" }.map(target) ?? folder + "/styles.xml"
        sharedStringsPart = relationships.first { $0.kind == "sharedStrings" }.map(target) ?? folder + "/sharedStrings.xml"
        sharedStrings = SharedStrings(limit: archive.limits.maxSharedStringBytes, file: archive.file)
    }

    /// Reads styles and the shared-string table (once).
    func loadSharedParts() throws {
        if let loadFailure { throw loadFailure }
        guard !loaded else { return }
        loaded = true
        do {
            if let stylesPart, archive.contains(stylesPart) {
                let styles = StylesHandler()
                try parsePart(archive, stylesPart, handler: styles)
                (numberKinds, formatsByValue, zeroPadded) = styles.kinds()
            }
            if let sharedStringsPart, archive.contains(sharedStringsPart) {
                try parsePart(archive, sharedStringsPart, handler: sharedStrings, inBackground: true)
            }
        } catch {
            loadFailure = error
            throw error
        }
    }

    /// The sheet named `selector`, or at its 1-based position; the first sheet when nil.
    func sheet(_ selector: String?) throws -> SheetInfo {
        let names = sheets.map(\.name)
        guard let selector else {
            guard let first = sheets.first else { throw ReaderError(file: file, .sheetNotFound(requested: "1", available: names)) }
            return first
        }
        if let exact = sheets.first(where: { $0.name == selector }) { return exact }
        if let position = Int(selector), position >= 1, position <= sheets.count { return sheets[position - 1] }
        if let folded = sheets.first(where: { $0.name.lowercased() == selector.lowercased() }) { return folded }
        throw ReaderError(file: file, .sheetNotFound(requested: Int(selector) != nil ? selector : "\"\(selector)\"", available: names))
    }
}
