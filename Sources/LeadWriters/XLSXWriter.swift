import CLeadZip
import Foundation
import LeadCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes an .xlsx workbook a row at a time in constant memory. Each sheet's XML is streamed to
/// a temporary file beside the output; `close()` has libzip deflate the sheets and the small
/// fixed parts into the workbook and removes the temporary files.
///
/// Text is written as inline strings with the Text (`@`) number format, so ZIP codes and
/// phone numbers stay text when a user edits them in Excel; dates are serial numbers with a
/// `yyyy-mm-dd` format. The header row is bold, frozen and has a filter.
public final class XLSXWriter: TableWriter {
    public let path: String
    /// Cells cut to Excel's limit of 32,767 characters.
    public private(set) var truncatedCells = 0

    /// Excel's limits: characters in a cell, rows in a sheet, characters in a sheet name.
    static let maxCellLength = 32_767
    public static let maxRows = 1_048_576
    static let maxSheetName = 31

    private struct Sheet {
        var name: String
        var temp: String
        var rows = 0
        var columns = 0
    }

    private var sheets: [Sheet] = []
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private var header: [String] = []
    private var baseName = ""
    private var continuation = 1
    private var closed = false
    private let directory: String
    private let rowLimit: Int

    /// `rowLimit` below Excel's own is for tests of the continuation sheets.
    public init(path: String, rowLimit: Int = XLSXWriter.maxRows) throws {
        self.path = path
        self.rowLimit = max(2, min(rowLimit, Self.maxRows))
        let dir = (path as NSString).deletingLastPathComponent
        directory = dir.isEmpty ? "." : dir
        // Fail now, not after the whole import, when the workbook cannot be created.
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw WriterError(path: path, message: "cannot create the file")
        }
        buffer.reserveCapacity(1 << 17)
    }

    deinit {
        if let file { fclose(file) }
        for sheet in sheets { unlink(sheet.temp) }
        if !closed { unlink(path) }  // the empty placeholder made by init
    }

    public func startSheet(_ name: String, header: [String]) throws {
        try finishSheet()
        self.header = header
        baseName = name
        continuation = 1
        try beginSheet(named: name)
    }

    public func write(_ row: [SheetCell]) throws {
        if sheets.isEmpty { try startSheet("Sheet1", header: []) }
        if sheets[sheets.count - 1].rows >= rowLimit {
            // Past Excel's last row: carry on in a new sheet that repeats the header.
            try finishSheet()
            continuation += 1
            try beginSheet(named: baseName + " (\(continuation))")
        }
        try appendRow(row, style: nil)
    }

    public func close() throws {
        guard !closed else { return }
        closed = true
        if sheets.isEmpty { try beginSheet(named: "Sheet1") }
        try finishSheet()
        defer {
            for sheet in sheets { unlink(sheet.temp) }
            sheets.removeAll()
        }
        var message = [CChar](repeating: 0, count: 256)
        guard let archive = lp_zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &message, message.count) else {
            throw WriterError(path: path, message: String(cString: message))
        }
        func fail() -> WriterError {
            let message = String(cString: lp_zip_strerror(archive))
            lp_zip_discard(archive)
            return WriterError(path: path, message: message)
        }
        func add(_ name: String, _ text: String) throws {
            let bytes = Array(text.utf8)
            guard let copy = malloc(max(1, bytes.count)) else { throw fail() }
            bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            guard let source = lp_zip_source_buffer(archive, copy, zip_uint64_t(bytes.count), 1) else {
                free(copy)
                throw fail()
            }
            guard lp_zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)) >= 0 else {
                lp_zip_source_free(source)
                throw fail()
            }
        }
        try add("[Content_Types].xml", XLSXParts.contentTypes(sheets: sheets.count))
        try add("_rels/.rels", XLSXParts.rootRelationships)
        try add("docProps/app.xml", XLSXParts.app)
        try add("xl/workbook.xml", XLSXParts.workbook(sheets: sheets.map { ($0.name, $0.rows, $0.columns) }))
        try add("xl/_rels/workbook.xml.rels", XLSXParts.workbookRelationships(sheets: sheets.count))
        try add("xl/styles.xml", XLSXParts.styles)
        for (k, sheet) in sheets.enumerated() {
            guard let source = lp_zip_source_file(archive, sheet.temp, 0, -1) else { throw fail() }
            guard lp_zip_file_add(archive, "xl/worksheets/sheet\(k + 1).xml", source, zip_flags_t(ZIP_FL_ENC_UTF_8)) >= 0 else {
                lp_zip_source_free(source)
                throw fail()
            }
        }
        guard lp_zip_close(archive) == 0 else { throw fail() }
    }

    // MARK: Sheets

    private func beginSheet(named wanted: String) throws {
        let name = uniqueSheetName(wanted)
        var template = Array((directory + "/.leadport-sheet-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0, let handle = fdopen(fd, "w") else {
            if fd >= 0 { Glibc.close(fd) }
            throw WriterError(path: path, message: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        file = handle
        sheets.append(Sheet(name: name, temp: String(cString: template.map { $0 })))
        append(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n")
        append(#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#)
        if !header.isEmpty {
            append(#"<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>"#)
            append("<cols>")
            for (k, title) in header.enumerated() {
                let width = min(40, max(10, title.count + 4))
                append("<col min=\"\(k + 1)\" max=\"\(k + 1)\" width=\"\(width)\" customWidth=\"1\"/>")
            }
            append("</cols>")
        }
        append("<sheetData>")
        if !header.isEmpty { try appendRow(header.map(SheetCell.text), style: Style.header) }
    }

    private func finishSheet() throws {
        guard let handle = file else { return }
        append("</sheetData>")
        let sheet = sheets[sheets.count - 1]
        if !header.isEmpty && sheet.columns > 0 {
            append("<autoFilter ref=\"A1:\(Column.letters(for: sheet.columns - 1))\(sheet.rows)\"/>")
        }
        append("</worksheet>")
        try flush()
        file = nil
        guard fclose(handle) == 0 else { throw WriterError(path: path, message: "cannot write a temporary file: \(String(cString: strerror(errno)))") }
    }

    private func uniqueSheetName(_ wanted: String) -> String {
        // Excel refuses : \ / ? * [ ] in a sheet name, a name over 31 characters, a blank name,
        // a leading or trailing apostrophe, and two sheets whose names differ only in case.
        var base = String(wanted.map { ":\\/?*[]".contains($0) ? "_" : $0 })
        base = base.trimmingCharacters(in: CharacterSet(charactersIn: "' "))
        if base.isEmpty { base = "Sheet" }
        var name = String(base.prefix(Self.maxSheetName))
        var n = 2
        while sheets.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            let suffix = " (\(n))"
            name = String(base.prefix(Self.maxSheetName - suffix.count)) + suffix
            n += 1
        }
        return name
    }

    // MARK: Rows and cells

    private enum Style {
        static let header = 1, date = 2, text = 3
    }

    private func appendRow(_ row: [SheetCell], style: Int?) throws {
        sheets[sheets.count - 1].rows += 1
        let r = sheets[sheets.count - 1].rows
        sheets[sheets.count - 1].columns = max(sheets[sheets.count - 1].columns, row.count)
        append("<row r=\"\(r)\">")
        for (k, cell) in row.enumerated() {
            let ref = Column.letters(for: k) + String(r)
            switch cell {
            case .text(let text):
                if text.isEmpty { continue }
                append("<c r=\"\(ref)\" s=\"\(style ?? Style.text)\" t=\"inlineStr\"><is>")
                appendText(text)
                append("</is></c>")
            case .number(let value) where value.isFinite:
                append("<c r=\"\(ref)\"\(style.map { " s=\"\($0)\"" } ?? "")><v>\(cell.plainText)</v></c>")
            case .number(let value):
                append("<c r=\"\(ref)\" s=\"\(Style.text)\" t=\"inlineStr\"><is>")
                appendText(String(value))
                append("</is></c>")
            case .date(let iso):
                if let serial = CivilDate.excelSerial(iso: iso) {
                    append("<c r=\"\(ref)\" s=\"\(Style.date)\"><v>\(serial)</v></c>")
                } else if !iso.isEmpty {
                    append("<c r=\"\(ref)\" s=\"\(Style.text)\" t=\"inlineStr\"><is>")
                    appendText(iso)
                    append("</is></c>")
                }
            }
        }
        append("</row>")
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// `<t>` with the text escaped for XML, plus OOXML's `_xHHHH_` for characters XML 1.0
    /// cannot carry; a literal `_xHHHH_` in the text is kept by escaping its underscore.
    private func appendText(_ original: String) {
        var text = original
        if text.utf16.count > Self.maxCellLength {
            truncatedCells += 1
            var end = text.utf16.index(text.utf16.startIndex, offsetBy: Self.maxCellLength)
            end = text.rangeOfComposedCharacterSequence(at: end).lowerBound
            text = String(text[..<end])
        }
        let edges: Set<Character> = [" ", "\t", "\n", "\r"]
        let preserve = text.first.map(edges.contains) == true || text.last.map(edges.contains) == true
        append(preserve ? "<t xml:space=\"preserve\">" : "<t>")
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case 13: append("&#13;")  // an XML parser turns a raw CR into LF
            case 9, 10: buffer.append(b)
            case 0..<32: append(Self.escape(UInt32(b)))
            case UInt8(ascii: "_") where Self.looksLikeEscape(bytes, at: i): append("_x005F_")
            case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                append(Self.escape(bytes[i + 2] == 0xBE ? 0xFFFE : 0xFFFF))  // noncharacters XML forbids
                i += 2
            default: buffer.append(b)
            }
            i += 1
        }
        append("</t>")
    }

    private static func escape(_ unit: UInt32) -> String {
        let hex = String(unit, radix: 16, uppercase: true)
        return "_x" + String(repeating: "0", count: 4 - hex.count) + hex + "_"
    }

    private static func looksLikeEscape(_ b: [UInt8], at i: Int) -> Bool {
        guard i + 6 < b.count, b[i + 1] == UInt8(ascii: "x"), b[i + 6] == UInt8(ascii: "_") else { return false }
        return b[(i + 2)...(i + 5)].allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
    }

    @inline(__always)
    private func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    private func flush() throws {
        guard let file, !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == buffer.count else {
            throw WriterError(path: path, message: "cannot write a temporary file: \(String(cString: strerror(errno)))")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
