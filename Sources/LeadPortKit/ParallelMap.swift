import Foundation

/// Maps a batch on every core, in order. The batch is cut into small chunks that the cores
/// take as they come free, so a core slowed by another stage's thread does not hold up the
/// rest waiting for its share. `eachChunk` runs on the worker before each chunk (the import's
/// stages lower the builders' priority there; a library caller's threads are left as they are).
///
/// Inlinable, so that the import's stages get it specialised for their rows: generic, every
/// row was copied field by field through its type's metadata before the transform saw it.
public enum ParallelMap {
    public static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))

    @inlinable
    public static func map<T: Sendable, U: Sendable>(_ input: [T], chunk: Int = 25, eachChunk: @Sendable () -> Void = {},
                                                     _ transform: @Sendable (T) -> U) -> [U] {
        let chunks = (input.count + chunk - 1) / chunk
        if workers == 1 || chunks <= 1 { return input.map(transform) }
        // Each chunk initialises its own stretch of the result in place: no lock, and no copy
        // of every element from per-chunk arrays into one.
        return Array(unsafeUninitializedCapacity: input.count) { buffer, initialized in
            let base = Shared(buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: chunks) { k in
                eachChunk()
                for i in (k * chunk)..<min(input.count, (k + 1) * chunk) {
                    (base.pointer + i).initialize(to: transform(input[i]))
                }
            }
            initialized = input.count
        }
    }

    /// The result's storage, written by every worker at indices no other worker touches.
    @usableFromInline
    struct Shared<U>: @unchecked Sendable {
        @usableFromInline let pointer: UnsafeMutablePointer<U>
        @usableFromInline init(_ pointer: UnsafeMutablePointer<U>) { self.pointer = pointer }
    }
}
