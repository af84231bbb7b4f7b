import CLeadZip

/// A read-only zip archive (libzip), with the limits that keep a hostile archive from
/// exhausting memory or time: every part is inflated in chunks and counted.
final class ZipArchive {
    private let handle: OpaquePointer
    let path: String
    let file: String
    let limits: RowReaderOptions
    /// Entry name → index, and the same with `\` as `/` and lower case; the last entry of a
    /// name wins (see `locate`).
    private let exactNames: [String: Int64]
    private let foldedNames: [String: Int64]

    init(path: String, file: String, limits: RowReaderOptions) throws {
        if let missing = lp_zip_load_error() {
            throw ReaderError(file: file, .libraryMissing(String(cString: missing)))
        }
        var message = [CChar](repeating: 0, count: 256)
        guard let opened = lp_zip_open(path, ZIP_RDONLY, &message, message.count) else {
            throw ReaderError(file: file, .corruptZip(String(cString: message)))
        }
        handle = opened
        self.path = path
        self.file = file
        self.limits = limits
        (exactNames, foldedNames) = ZipArchive.index(opened)
    }

    deinit { lp_zip_discard(handle) }

    /// A second, independent handle on the same file, for another thread.
    func reopened() throws -> ZipArchive {
        try ZipArchive(path: path, file: file, limits: limits)
    }

    /// Every entry name, in central-directory order.
    var entryNames: [String] {
        let n = lp_zip_get_num_entries(handle, 0)
        guard n > 0 else { return [] }
        return (0..<n).compactMap { index in lp_zip_get_name(handle, zip_uint64_t(index), 0).map { String(cString: $0) } }
    }

    /// The index of `name`, or nil. Part names compare case-insensitively, `\` as `/` (OPC,
    /// ECMA-376 Part 2 §6.2.2.3); an exact spelling is preferred. When the zip holds two
    /// entries of one name (forbidden by OPC, and left by tools that "replace" an entry by
    /// appending a new one), the last in the central directory is read, as Python's zipfile
    /// (openpyxl, pandas) and Rust's zip crate (calamine) do.
    func locate(_ name: String) -> Int64? {
        exactNames[name] ?? foldedNames[ZipArchive.fold(name)]
    }

    private static func fold(_ name: String) -> String { name.replacingBackslashes().lowercased() }

    private static func index(_ handle: OpaquePointer) -> (exact: [String: Int64], folded: [String: Int64]) {
        var exact: [String: Int64] = [:]
        var folded: [String: Int64] = [:]
        let n = lp_zip_get_num_entries(handle, 0)
        guard n > 0 else { return (exact, folded) }
        for index in 0..<n {
            guard let raw = lp_zip_get_name(handle, zip_uint64_t(index), 0) else { continue }
            let name = String(cString: raw)
            exact[name] = index
            folded[fold(name)] = index
        }
        return (exact, folded)
    }

    func contains(_ name: String) -> Bool { locate(name) != nil }

    /// Opens `name` for streaming.
    func open(_ name: String) throws -> ZipEntryReader {
        guard let index = locate(name) else { throw ReaderError(file: file, .missingPart(name)) }
        var stat = zip_stat_t()
        lp_zip_stat_init(&stat)
        guard lp_zip_stat_index(handle, zip_uint64_t(index), 0, &stat) == 0 else {
            throw ReaderError(file: file, .corruptZip(lastError))
        }
        let declared = Int64(stat.size)
        let compressed = max(Int64(stat.comp_size), 1)
        if declared > limits.maxPartBytes {
            throw ReaderError(file: file, .zipBomb(part: name, detail: "it would inflate to \(declared >> 20) MiB, over the \(limits.maxPartBytes >> 20) MiB limit"))
        }
        if declared > 64 << 20 && declared / compressed > limits.maxCompressionRatio {
            throw ReaderError(file: file, .zipBomb(part: name, detail: "compression ratio \(declared / compressed):1 is over the \(limits.maxCompressionRatio):1 limit"))
        }
        guard let entry = lp_zip_fopen_index(handle, zip_uint64_t(index), 0) else {
            throw ReaderError(file: file, .corruptZip("\(name): \(lastError)"))
        }
        return ZipEntryReader(entry: entry, archive: self, name: name, compressed: compressed, declared: declared)
    }

    /// Reads a whole (small) part.
    func readAll(_ name: String, limit: Int = 64 << 20) throws -> [UInt8] {
        let reader = try open(name)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if n == 0 { return out }
            out.append(contentsOf: buffer[0..<n])
            if out.count > limit {
                throw ReaderError(file: file, .zipBomb(part: name, detail: "larger than \(limit >> 20) MiB"))
            }
        }
    }

    private var lastError: String {
        String(cString: lp_zip_strerror(handle))
    }
}

/// One zip entry being inflated; counts bytes against the archive's limits.
final class ZipEntryReader {
    private let entry: OpaquePointer
    /// Kept so the archive outlives its open entry.
    private let archive: ZipArchive
    let name: String
    private let compressed: Int64
    /// The size the central directory gives (a hostile archive may lie: reads count for themselves).
    let declared: Int64
    private(set) var inflated: Int64 = 0
    private var file: String { archive.file }
    private var limits: RowReaderOptions { archive.limits }

    init(entry: OpaquePointer, archive: ZipArchive, name: String, compressed: Int64, declared: Int64) {
        self.entry = entry
        self.archive = archive
        self.name = name
        self.compressed = compressed
        self.declared = declared
    }

    deinit { lp_zip_fclose(entry) }

    /// Inflates up to `buffer.count` bytes; 0 at the end of the entry.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = lp_zip_fread(entry, buffer.baseAddress, zip_uint64_t(buffer.count))
        if n < 0 {
            let text = String(cString: lp_zip_file_strerror(entry))
            throw ReaderError(file: file, .corruptZip("\(name): \(text)"))
        }
        inflated += Int64(n)
        if inflated > limits.maxPartBytes {
            throw ReaderError(file: file, .zipBomb(part: name, detail: "inflated past the \(limits.maxPartBytes >> 20) MiB limit"))
        }
        if inflated > 64 << 20 && inflated / compressed > limits.maxCompressionRatio {
            throw ReaderError(file: file, .zipBomb(part: name, detail: "compression ratio passed \(limits.maxCompressionRatio):1"))
        }
        return Int(n)
    }
}

extension String {
    func replacingBackslashes() -> String {
        String(unicodeScalars.map { $0 == "\\" ? "/" : Character($0) })
    }
}
