#if canImport(Glibc)
import Glibc
#endif

/// Inflates one zip part on a background thread, a few chunks ahead of the XML parser, so
/// on a machine with two cores zlib and libxml2 run side by side. The producer owns its own
/// libzip handle (libzip handles are not shared between threads) and a fixed ring of
/// buffers, so memory stays at `slots × chunk` whatever the part's size.
///
/// The consumer calls `next()` and gets a view of the oldest filled chunk, valid until its
/// next call. An inflate error is handed over in order, after the chunks read before it.
/// Dropping the inflater stops and joins the thread.
///
/// A part that declares at most `inlineBytes` (and at most one chunk) is inflated on the
/// caller's thread, from the archive's own handle: the parser would wait for its one chunk
/// anyway, and starting a thread with a second zip handle (and a 512 KiB ring) costs more than
/// reading it (under AddressSanitizer, the most of a small workbook's time in the `xlsx` fuzz
/// target). Larger parts, where inflating and parsing do overlap, keep the thread; so do the
/// 22 KiB sheets of the fuzz seeds.
final class PrefetchingInflater: @unchecked Sendable {
    static let inlineBytes = 16 << 10
    private let entry: ZipEntryReader
    /// Read on the caller's thread: no producer, one slot.
    private let inline: Bool
    private let chunk: Int
    private let slots: [UnsafeMutableRawBufferPointer]
    private var lengths: [Int]
    // Guarded by `mutex`.
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var filled = 0
    private var stopping = false
    private var producerDone = false
    private var failure: (any Error)?
    // Consumer side only.
    private var head = 0
    private var holding = false
    private var consumerDone = false
    // Producer side only.
    private var tail = 0
    private var thread: pthread_t?

    /// Opens `part` on a second handle of the archive's file and starts inflating.
    init(archive original: ZipArchive, part: String, slots count: Int = 4, chunk: Int = 128 << 10,
         inlineBytes: Int = PrefetchingInflater.inlineBytes) throws {
        let direct = try original.open(part)
        let inlineLimit = min(chunk, inlineBytes)
        inline = direct.declared <= Int64(inlineLimit)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        if inline {
            entry = direct
            self.chunk = inlineLimit
            slots = [.allocate(byteCount: max(inlineLimit, 1), alignment: 16)]
            lengths = [0]
            return
        }
        entry = try original.reopened().open(part)
        self.chunk = chunk
        slots = (0..<count).map { _ in .allocate(byteCount: chunk, alignment: 16) }
        lengths = Array(repeating: 0, count: count)
        var created = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        if pthread_create(&created, nil, { raw in
            let inflater = Unmanaged<PrefetchingInflater>.fromOpaque(raw!).takeRetainedValue()
            inflater.produce()
            return nil
        }, context) == 0 {
            thread = created
        } else {
            Unmanaged<PrefetchingInflater>.fromOpaque(context).release()
            throw ReaderError(file: original.file, .unreadable("could not start a reading thread"))
        }
    }

    /// Stops the producer and waits for it; call before dropping the inflater.
    func close() {
        guard let thread else { return }
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        pthread_join(thread, nil)
        self.thread = nil
    }

    deinit {
        for slot in slots { slot.deallocate() }
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// The next inflated chunk; an empty buffer at the end of the part.
    func next() throws -> UnsafeRawBufferPointer {
        if consumerDone { return UnsafeRawBufferPointer(start: nil, count: 0) }
        if inline {
            // As the producer hands them over: the bytes before an error, then the error once.
            let n: Int
            do {
                n = try entry.read(into: slots[0])
            } catch {
                consumerDone = true
                throw error
            }
            if n == 0 { consumerDone = true }
            return UnsafeRawBufferPointer(rebasing: slots[0][0..<n])
        }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if holding {
            holding = false
            head = (head + 1) % slots.count
            filled -= 1
            pthread_cond_broadcast(&changed)
        }
        while filled == 0 && !producerDone {
            pthread_cond_wait(&changed, &mutex)
        }
        if filled == 0 {
            consumerDone = true
            if let failure { throw failure }
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        holding = true
        return UnsafeRawBufferPointer(rebasing: slots[head][0..<lengths[head]])
    }

    private func produce() {
        while true {
            pthread_mutex_lock(&mutex)
            while filled == slots.count && !stopping {
                pthread_cond_wait(&changed, &mutex)
            }
            let stop = stopping
            pthread_mutex_unlock(&mutex)
            if stop { break }

            var n = 0
            var error: (any Error)?
            do {
                n = try entry.read(into: slots[tail])
            } catch let thrown {
                error = thrown
            }

            pthread_mutex_lock(&mutex)
            if n > 0 {
                lengths[tail] = n
                tail = (tail + 1) % slots.count
                filled += 1
            } else {
                failure = error
                producerDone = true
            }
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
            if n == 0 { return }
        }
        pthread_mutex_lock(&mutex)
        producerDone = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
