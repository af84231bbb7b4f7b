import Foundation

/// An output (`--export`) written beside its name and put in its place only when the run
/// keeps it: a run whose enrichment key was refused, all of its rows `pending`, leaves the
/// file there as it was instead of a sheet of `pending` rows over yesterday's answers.
struct StagedFile {
    /// Where the output belongs, and where it is written until then (same folder, so the
    /// rename is atomic; same extension, which picks the writer).
    let path: String
    let staging: String

    init(path: String) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent
        staging = url.deletingLastPathComponent().appendingPathComponent(".\(name).partial-\(getpid()).\(url.pathExtension)").path
    }

    /// Puts the written file in its place.
    func keep() throws {
        guard rename(staging, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(staging)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(path): cannot be written: \(reason)"])
        }
    }

    /// Leaves the file there as it was (or absent).
    func discard() { unlink(staging) }

    /// Whether `tally`'s enrichment was stopped by the endpoint refusing its key or model: then
    /// no row has an answer worth writing over what the file holds.
    static func withheld(by tally: Enrichment.Tally?) -> Bool { tally?.usage.refused == true }
}
