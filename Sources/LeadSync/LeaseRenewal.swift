import Foundation

/// Renews a claim's lease every third of it while the claim is worked on. A lease lost (the
/// worker stalled past it and another took the claim) is only noted: the worker's run stops
/// at its next commit and the worker returns, so that the program exits from its own thread.
public final class LeaseRenewal: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let lostFlag = Flag()

    /// Whether the lease was found taken by another holder (renewals stop then).
    public var lost: Bool { lostFlag.isSet }

    /// Starts renewing at once, on a thread of its own.
    /// - Parameter lease: seconds; renewed every `lease / 3`.
    public init(board: any ClaimBoard, claim: (job: String, destination: String), holder: String, lease: Int) {
        let thread = Thread { [done, finished, lostFlag] in
            while done.wait(timeout: .now() + .milliseconds(lease * 1000 / 3)) == .timedOut {
                let kept = (try? board.renew(job: claim.job, destination: claim.destination, holder: holder, lease: lease)) ?? false
                if !kept {
                    lostFlag.set()
                    break
                }
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops the renewals (and waits for the thread to end).
    public func stop() {
        done.signal()
        finished.wait()
    }

    /// Set once, from the renewal thread; read from the worker's.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false

        var isSet: Bool { lock.withLock { value } }

        func set() { lock.withLock { value = true } }
    }
}
