import Foundation
import HTTPKit
import LeadSync

/// `SharedLedger`'s claims without PostgreSQL: pairs under leases on a clock the test moves.
final class InMemoryClaimBoard: ClaimBoard, @unchecked Sendable {
    private struct Pair: Hashable { var job: String, destination: String }
    private struct Claim { var holder: String?, leaseUntil: Double?, finished = false }
    private let lock = NSLock()
    private let clock: any HTTPClock
    private var claims: [Pair: Claim] = [:]

    init(clock: any HTTPClock) { self.clock = clock }

    func seed(_ pairs: [(job: String, destination: String)]) throws {
        lock.withLock { for p in pairs where claims[Pair(job: p.job, destination: p.destination)] == nil { claims[Pair(job: p.job, destination: p.destination)] = Claim() } }
    }

    func claim(holder: String, since: String, lease: Int, among pairs: [(job: String, destination: String)]) throws -> (claim: (job: String, destination: String)?, remaining: Int) {
        lock.withLock {
            let now = clock.now
            let wanted = pairs.map { Pair(job: $0.job, destination: $0.destination) }.filter { claims[$0]?.finished == false }
            let free = wanted.sorted { ($0.job, $0.destination) < ($1.job, $1.destination) }.first { (claims[$0]?.leaseUntil ?? -.infinity) < now }
            guard let free else { return (nil, wanted.count) }
            claims[free] = Claim(holder: holder, leaseUntil: now + Double(lease))
            return ((free.job, free.destination), wanted.count)
        }
    }

    func renew(job: String, destination: String, holder: String, lease: Int) throws -> Bool {
        lock.withLock {
            let pair = Pair(job: job, destination: destination)
            guard claims[pair]?.holder == holder else { return false }
            claims[pair]?.leaseUntil = clock.now + Double(lease)
            return true
        }
    }

    func finish(job: String, destination: String, holder: String) throws {
        lock.withLock {
            let pair = Pair(job: job, destination: destination)
            guard claims[pair]?.holder == holder else { return }
            claims[pair] = Claim(holder: nil, leaseUntil: nil, finished: true)
        }
    }
}
