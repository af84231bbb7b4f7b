import Foundation

/// libFuzzer's entry point for every LeadPort fuzz target; `LEADPORT_FUZZ_TARGET` picks the
/// target (`leadport-fuzz --list` prints them). Built only with `LEADPORT_FUZZ=1` and
/// `-sanitize=fuzzer` (docs/fuzzing.md); `make fuzz` runs each target in turn.
///
/// A target returns normally for any input its code refuses with an error; a crash, a trap
/// (a Swift precondition or overflow), a leak, a time-out or a broken invariant is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTargets.selected.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer calls this once before the first input: an unknown target stops the run here,
/// not after the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    _ = FuzzTargets.selected
    return 0
}

struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
}

enum FuzzTargets {
    static let all: [FuzzTarget] = ReaderTargets.all + RuleTargets.all

    static let selected: FuzzTarget = {
        let wanted = ProcessInfo.processInfo.environment["LEADPORT_FUZZ_TARGET"] ?? ""
        if let target = all.first(where: { $0.name == wanted }) { return target }
        let names = all.map(\.name).joined(separator: " ")
        FileHandle.standardError.write(Data("set LEADPORT_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }()
}

/// Stops the process the way libFuzzer records a finding, with what was broken.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("invariant broken: \(message())\n".utf8))
        abort()
    }
}

/// The input written to one reusable file in memory-backed /dev/shm (else /tmp), for code
/// that reads from a path (libzip opens archives by name).
enum ScratchFile {
    static let path: String = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(folder)/leadport-fuzz-\(getpid())"
    }()

    static func write(_ bytes: UnsafeBufferPointer<UInt8>, suffix: String) -> String {
        let file = path + suffix
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot write \(file)")
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            precondition(n > 0, "cannot write \(file)")
            done += n
        }
        close(fd)
        return file
    }
}
