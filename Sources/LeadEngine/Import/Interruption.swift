import Synchronization

/// A request to end the run early (SIGINT, SIGTERM): the reader stops taking rows, and what was
/// read is built, delivered, recorded and reported as in any run, so that the report, the
/// ledger and `run_finished` agree. Set from a signal handler: an atomic store and nothing else.
public enum Interruption {
    private static let signal = Atomic<Int32>(0)

    /// The signal that asked to stop, or 0.
    public static var requested: Int32 { signal.load(ordering: .relaxed) }

    /// Async-signal-safe.
    public static func request(_ number: Int32) { signal.store(number, ordering: .relaxed) }
}
