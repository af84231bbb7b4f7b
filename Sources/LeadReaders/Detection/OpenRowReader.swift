import LeadCore

#if canImport(Glibc)
import Glibc
#endif

/// Opens the right reader for a file: by its content first (a zip is a workbook, an OLE2
/// file is a legacy or encrypted Office file, known binary formats are refused), so a CSV
/// saved as `.xls` or a workbook renamed `.csv` still reads. Everything else is CSV text; a
/// file named as a workbook that is CSV text says so in its description's `note`. A file
/// named as a workbook that is empty or smaller than any zip is refused.
///
/// - Parameters:
///   - path: the path to open; `-` reads CSV from standard input.
///   - displayName: the name to use in messages and locations (as the user typed it).
/// - Throws: `ReaderError` naming the file and the reason.
public func openRowReader(path: String, displayName: String? = nil, options: RowReaderOptions = RowReaderOptions()) throws -> any RowReader {
    let name = displayName ?? path
    if path != "-" {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ReaderError(file: name, errno == ENOENT ? .notFound : .unreadable(String(cString: strerror(errno))))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw ReaderError(file: name, .unreadable("it is a directory")) }
        let head = try readHead(path: path, name: name)
        let kind = FileKind.sniff(head)
        if let refusal = FileKind.tooSmall(kind: kind, size: Int64(info.st_size), workbookName: FileKind.hasWorkbookName(name)) {
            throw ReaderError(file: name, refusal)
        }
        switch kind {
        case .zip:
            let archive = try ZipArchive(path: path, file: name, limits: options)
            try FileKind.checkWorkbookArchive(archive)
            return try XLSXRowReader(workbook: XLSXWorkbook(archive: archive), options: options)
        case .ole2:
            throw ReaderError(file: name, FileKind.ole2Reason(path: path))
        case .refused(let what):
            throw ReaderError(file: name, .otherBinary(what))
        case .text:
            break
        }
    }
    if let sheet = options.sheet, sheet != "1" { throw ReaderError(file: name, .sheetsNotSupported) }
    let reader = try CSVRowReader(source: FileByteSource(path: path, displayName: name), file: name, options: options,
                                  chunkSize: CSVRowReader.chunkSize, standardInput: path == "-")
    if path != "-" { reader.description.note = FileKind.csvNote(name) }
    return reader
}

/// The note `openRowReader` gives a file (see `SourceDescription.note`), from its name and
/// first bytes alone, for a command that reads the file elsewhere (`import`).
public func readerNote(path: String, displayName: String? = nil) -> String? {
    let name = displayName ?? path
    guard path != "-", FileKind.hasWorkbookName(name), let head = try? readHead(path: path, name: name),
          FileKind.sniff(head) == .text else { return nil }
    // A file too small to be a workbook is refused as it opens: no note that it reads as CSV.
    var info = stat()
    guard stat(path, &info) == 0, FileKind.tooSmall(kind: .text, size: Int64(info.st_size), workbookName: true) == nil else { return nil }
    return FileKind.csvNote(name)
}

private func readHead(path: String, name: String) throws -> [UInt8] {
    let source = try FileByteSource(path: path, displayName: name)
    var head = [UInt8](repeating: 0, count: 512)
    let n = try head.withUnsafeMutableBytes { try source.read(into: $0) }
    return Array(head[0..<n])
}

/// What the first bytes of a file say it is.
enum FileKind: Equatable {
    case zip
    case ole2
    case refused(String)
    case text

    /// - Parameter named: whether the bytes come from a file with a name (not standard input).
    static func sniff(_ head: [UInt8], named: Bool = true) -> FileKind {
        func starts(_ magic: [UInt8]) -> Bool { head.count >= magic.count && Array(head[0..<magic.count]) == magic }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) || starts([0x50, 0x4B, 0x07, 0x08]) { return .zip }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return .ole2 }
        let known: [([UInt8], String)] = [
            (Array("%PDF".utf8), "a PDF document"),
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
            ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"),
            ([0x1F, 0x8B], "a gzip archive"),
            (Array("BZh".utf8), "a bzip2 archive"),
            ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7-Zip archive"),
            (Array("Rar!".utf8), "a RAR archive"),
            ([0x7F, 0x45, 0x4C, 0x46], "an executable (ELF)"),
            (Array("SQLite format 3".utf8), "an SQLite database"),
            ([0x09, 0x08, 0x10, 0x00], "a BIFF Excel 5 workbook"),
        ]
        for (magic, what) in known where starts(magic) { return .refused(what) }
        // Web "Excel" exports that are really HTML or Excel 2003 XML.
        let text = String(decoding: head.prefix(512), as: UTF8.self).lowercased()
        let trimmed = text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || trimmed.hasPrefix("<table") {
            return .refused("an HTML page\(named ? " saved with a spreadsheet name" : ""); open it in Excel and save it as .xlsx or .csv")
        }
        if trimmed.hasPrefix("<?xml"), text.contains("urn:schemas-microsoft-com:office:spreadsheet") || text.contains("<workbook") {
            return .refused("an Excel 2003 XML spreadsheet; save it as .xlsx or .csv")
        }
        return .text
    }

    /// Whether the name ends like an Excel workbook's (`.xlsx`, `.xlsm`, `.xltx`, `.xltm`,
    /// `.xls`, `.xlsb`), whatever the case.
    static func hasWorkbookName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return ["xlsx", "xlsm", "xltx", "xltm", "xls", "xlsb"].contains(name[name.index(after: dot)...].lowercased())
    }

    /// The note for CSV text read from `name`, when the name says workbook.
    static func csvNote(_ name: String) -> String? {
        hasWorkbookName(name) ? "\(name) is not a workbook but CSV text; reading it as CSV" : nil
    }

    /// The smallest zip archive (an end-of-central-directory record alone) and the smallest
    /// OLE2 compound file (header, one FAT sector, one directory sector).
    static let smallestZip: Int64 = 22
    static let smallestOLE2: Int64 = 1536

    /// Why a file is refused before any reader sees it: a file named as a workbook that is
    /// empty or smaller than any zip, or a zip or OLE2 header with less after it than either
    /// format needs (a download cut short). Nil when its size is no reason to refuse it.
    static func tooSmall(kind: FileKind, size: Int64, workbookName: Bool) -> ReaderError.Reason? {
        switch kind {
        case .zip where size < smallestZip: return .tooSmall(bytes: size, smallest: smallestZip)
        case .ole2 where size < smallestOLE2: return .tooSmall(bytes: size, smallest: smallestOLE2)
        default: break
        }
        guard workbookName else { return nil }
        if size == 0 { return .emptyFile }
        return size < smallestZip ? .tooSmall(bytes: size, smallest: smallestZip) : nil
    }

    /// A zip that is not an Office Open XML workbook gets a precise reason.
    static func checkWorkbookArchive(_ archive: ZipArchive) throws {
        if archive.contains("xl/workbook.xml") || archive.contains("_rels/.rels") && !archive.contains("xl/workbook.bin") {
            if archive.contains("word/document.xml") { throw ReaderError(file: archive.file, .otherZip("a Word document")) }
            if archive.contains("ppt/presentation.xml") { throw ReaderError(file: archive.file, .otherZip("a PowerPoint presentation")) }
            return
        }
        if archive.contains("xl/workbook.bin") { throw ReaderError(file: archive.file, .xlsb) }
        if archive.contains("mimetype") {
            let mime = String(decoding: (try? archive.readAll("mimetype", limit: 1024)) ?? [], as: UTF8.self)
            if mime.contains("opendocument.spreadsheet") { throw ReaderError(file: archive.file, .ods) }
            if !mime.isEmpty { throw ReaderError(file: archive.file, .otherZip(mime)) }
        }
        let names = archive.entryNames
        let sample = names.prefix(3).joined(separator: ", ")
        let held = names.count == 1 ? "it holds one file, \(sample)" : "it holds \(names.count) files such as \(sample)"
        throw ReaderError(file: archive.file, .otherZip(names.isEmpty ? "it is empty" : held))
    }

    /// An OLE2 compound file is either an encrypted OOXML workbook or a legacy Office file.
    static func ole2Reason(path: String) -> ReaderError.Reason {
        guard let source = try? FileByteSource(path: path, displayName: path) else { return .legacyXLS }
        let marker = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var carry: [UInt8] = []
        var scanned = 0
        while scanned < 256 << 20 {
            let n = (try? buffer.withUnsafeMutableBytes { try source.read(into: $0) }) ?? 0
            if n == 0 { break }
            scanned += n
            let window = carry + buffer[0..<n]
            if window.firstRange(of: marker) != nil { return .encryptedWorkbook }
            carry = Array(window.suffix(marker.count))
        }
        return .legacyXLS
    }
}
