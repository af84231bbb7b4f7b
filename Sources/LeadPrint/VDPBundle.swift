import CLeadZip
import Foundation
import LeadWriters

/// What `leadport export vdp` writes: `qr/*.png`, `vdp-manifest.csv` and `README.txt`, in a
/// folder (`--out DIR`), or a ZIP of them (written beside its final name, then renamed, so that
/// a ZIP found under its name is whole).
public final class VDPBundle {
    public static let manifestName = "vdp-manifest.csv"
    public static let header = ["sequence", "salutation", "delivery_line", "last_line", "slug", "qr_url", "image", "outcome", "reason", "address_id"]

    /// The folder written into: `--out DIR`, or a temporary one that becomes the ZIP.
    private let folder: URL
    private let zipPath: String?
    private let manifest: CSVWriter
    /// The files written, relative to the folder, in order.
    private var files: [String] = []

    /// A folder `directory` (created; refused when it holds anything), or the ZIP `zip`.
    public init(directory: String? = nil, zip: String? = nil) throws {
        let manager = FileManager.default
        try Self.check(directory: directory, zip: zip)
        if let directory {
            folder = URL(fileURLWithPath: directory)
            zipPath = nil
        } else {
            folder = manager.temporaryDirectory.appendingPathComponent("leadport-vdp-" + UUID().uuidString)
            zipPath = zip
        }
        do {
            try manager.createDirectory(at: folder.appendingPathComponent("qr"), withIntermediateDirectories: true)
        } catch {
            throw VDPError.output(path: directory ?? folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        manifest = try CSVWriter(path: folder.appendingPathComponent(Self.manifestName).path)
        try manifest.write(Self.header)
    }

    deinit { discard() }

    /// Refuses, before any work, an output that cannot be written as it is named: `--out` a
    /// file, a folder not empty or one that cannot be made; `--zip` a folder, or in a folder
    /// that does not exist or cannot be written (`VDPError.unusableOutput`, a usage problem).
    public static func check(directory: String? = nil, zip: String? = nil) throws {
        let manager = FileManager.default
        if let directory {
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: directory, isDirectory: &isFolder) {
                guard isFolder.boolValue else {
                    throw VDPError.unusableOutput(path: directory, message: "is a file, not a folder; give --out a new or empty folder (or --zip FILE.zip for a ZIP)")
                }
                guard ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).isEmpty else {
                    throw VDPError.unusableOutput(path: directory, message: "the folder is not empty; give a new or empty folder with --out, so that no image of an earlier run is mixed in")
                }
                try writable(directory, for: directory, option: "--out")
            } else {
                // Made with its missing parents: the nearest that exists must be a folder we may write in.
                var parent = URL(fileURLWithPath: directory).deletingLastPathComponent()
                while !manager.fileExists(atPath: parent.path, isDirectory: &isFolder), parent.path != "/" { parent.deleteLastPathComponent() }
                guard isFolder.boolValue else {
                    throw VDPError.unusableOutput(path: directory, message: "cannot be made: \(parent.path) is a file, not a folder; give --out a folder elsewhere")
                }
                try writable(parent.path, for: directory, option: "--out")
            }
        }
        if let zip {
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: zip, isDirectory: &isFolder), isFolder.boolValue {
                throw VDPError.unusableOutput(path: zip, message: "is a folder; give --zip the ZIP file to write, as in \(zip)/print.zip (or --out DIR for a folder of files)")
            }
            let parent = URL(fileURLWithPath: zip).deletingLastPathComponent().path
            guard manager.fileExists(atPath: parent, isDirectory: &isFolder) else {
                throw VDPError.unusableOutput(path: zip, message: "the folder \(parent) does not exist; create it first, or give --zip a file in an existing folder")
            }
            guard isFolder.boolValue else {
                throw VDPError.unusableOutput(path: zip, message: "\(parent) is a file, not a folder; give --zip a file in an existing folder")
            }
            try writable(parent, for: zip, option: "--zip")
        }
    }

    private static func writable(_ folder: String, for path: String, option: String) throws {
        guard access(folder, W_OK) == 0 else {
            throw VDPError.unusableOutput(path: path, message: "the folder \(folder) cannot be written in (permission denied); give \(option) a place you can write")
        }
    }

    /// Removes the temporary folder of a ZIP not written (a run that failed; the process may
    /// exit before this value goes). A folder given with `--out` is left as it is.
    public func discard() {
        if zipPath != nil { try? FileManager.default.removeItem(at: folder) }
    }

    /// Writes one image (`name` relative to the bundle, as `qr/00001-a1b2c3d4.png`).
    func add(_ name: String, bytes: [UInt8]) throws {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes)) else {
            throw VDPError.output(path: url.path, message: "cannot write the image")
        }
        files.append(name)
    }

    func manifest(_ row: VDPExport.Row) throws {
        try manifest.write([String(row.sequence), row.address.salutation ?? "", row.lines?.delivery ?? "", row.lines?.last ?? "",
                            row.slug ?? "", row.url ?? "", row.image ?? "", row.outcome.rawValue, row.reason ?? "", row.address.id])
    }

    /// Closes the manifest, writes README.txt, and the ZIP if one was asked for. Returns the
    /// output's path and size in bytes.
    public func finish(campaign: String, baseURL: String, symbol: QRSymbol) throws -> (path: String, bytes: Int64) {
        try manifest.close()
        let readme = VDPReadme.text(campaign: campaign, baseURL: baseURL, symbol: symbol)
        guard FileManager.default.createFile(atPath: folder.appendingPathComponent("README.txt").path, contents: Data(readme.utf8)) else {
            throw VDPError.output(path: folder.path, message: "cannot write README.txt")
        }
        let names = ["README.txt", Self.manifestName] + files
        guard let zipPath else { return (folder.path, names.reduce(0) { $0 + Self.size(folder.appendingPathComponent($1).path) }) }
        let partial = zipPath + ".partial"
        defer { discard() }
        try writeZip(partial, names: names)
        do {
            if FileManager.default.fileExists(atPath: zipPath) { try FileManager.default.removeItem(atPath: zipPath) }
            try FileManager.default.moveItem(atPath: partial, toPath: zipPath)
        } catch {
            throw VDPError.output(path: zipPath, message: "cannot write the ZIP: \(error.localizedDescription)")
        }
        return (zipPath, Self.size(zipPath))
    }

    /// The ZIP with libzip: text deflated, PNGs stored as they are (already compressed).
    private func writeZip(_ path: String, names: [String]) throws {
        var message = [CChar](repeating: 0, count: 256)
        guard let archive = lp_zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &message, message.count) else {
            throw VDPError.output(path: path, message: String(cString: message))
        }
        func fail() -> VDPError {
            let message = String(cString: lp_zip_strerror(archive))
            lp_zip_discard(archive)
            return VDPError.output(path: path, message: message)
        }
        for name in names {
            guard let source = lp_zip_source_file(archive, folder.appendingPathComponent(name).path, 0, -1) else { throw fail() }
            let index = lp_zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
            guard index >= 0 else {
                lp_zip_source_free(source)
                throw fail()
            }
            if name.hasSuffix(".png") { lp_zip_set_file_compression(archive, zip_uint64_t(index), ZIP_CM_STORE, 0) }
        }
        guard lp_zip_close(archive) == 0 else { throw fail() }
    }

    private static func size(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
