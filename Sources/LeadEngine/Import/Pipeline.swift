import Foundation

/// A first-in first-out hand-off between two threads that holds at most `capacity` items:
/// `put` waits while it is full, `take` waits while it is empty. Bounded, so a fast reader
/// cannot pile up the whole file in memory ahead of a slow destination.
final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Takes the item over: were the caller to keep a reference until after the hand-off, the
    /// taker could find a batch shared and copy the whole of it on its first change.
    func put(_ item: consuming Element) {
        condition.lock()
        while items.count >= capacity { condition.wait() }
        items.append(consume item)
        condition.broadcast()
        condition.unlock()
    }

    func take() -> Element {
        condition.lock()
        while items.isEmpty { condition.wait() }
        let item = items.removeFirst()
        condition.broadcast()
        condition.unlock()
        return item
    }
}

/// Runs `body` on a thread of its own and lets the caller wait for it to end.
final class WorkerThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let finished = self.finished
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    func join() { finished.wait() }
}

/// A value worked out on a thread of its own; `value()` waits for it (as often as asked).
final class Background<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    private var waited = false

    init(name: String, _ body: @escaping @Sendable () throws -> T) {
        _ = WorkerThread(name: name) { [self] in
            let outcome = Result { try body() }
            lock.withLock { result = outcome }
            done.signal()
        }
    }

    func value() throws -> T {
        lock.lock()
        if !waited {
            lock.unlock()
            done.wait()
            lock.lock()
            waited = true
        }
        defer { lock.unlock() }
        return try result!.get()
    }

    /// The value if it is worked out already, nil if not yet (without waiting).
    func valueIfReady() throws -> T? {
        try lock.withLock { try result?.get() }
    }

    /// Waits for the value and lets it go, on the calling thread: `value()` must not be asked
    /// for again.
    func discard() {
        _ = try? value()
        let dropped = lock.withLock { result.take() }
        _ = dropped
    }
}

/// Gives a thread that builds leads a little less of the processor than the delivery thread
/// when both want it (nice +5; on Linux the nice value is the thread's own, and `who` 0 names
/// the caller: setpriority(2)). Scheduled as equals, the one delivery thread fell behind the
/// builders by turns, and they then waited on the full queue with a core idle: 0.35 s of a
/// 2.4 s import of 100k rows, against 0.05–0.1 s with the builders niced. Given to
/// `ParallelMap.map` as `eachChunk` by the import's stages.
@Sendable func yieldToDelivery() {
    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
}

/// The first error any thread met; later ones are dropped.
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?

    func record(_ error: any Error) {
        lock.withLock { if first == nil { first = error } }
    }

    var error: (any Error)? { lock.withLock { first } }
}
