import Foundation
import HTTPKit
import LeadSync
import LeadTesting
import Testing

/// Claims under leases, on a manual clock: a worker that stops renewing loses its pair once
/// the lease runs out; one that renews keeps it.
@Suite struct LeaseTests {
    let pairs = [(job: "nightly", destination: "hubspot")]

    @Test func anExpiredLeaseIsReclaimedByAnotherWorker() throws {
        let clock = ManualClock()
        let board = InMemoryClaimBoard(clock: clock)
        try board.seed(pairs)
        let first = try board.claim(holder: "a", since: "", lease: 60, among: pairs)
        #expect(first.claim?.job == "nightly" && first.remaining == 1)
        clock.advance(59)
        #expect(try board.claim(holder: "b", since: "", lease: 60, among: pairs).claim == nil, "taken while a's lease is live")
        clock.advance(2)
        let second = try board.claim(holder: "b", since: "", lease: 60, among: pairs)
        #expect(second.claim?.destination == "hubspot")
        #expect(try board.renew(job: "nightly", destination: "hubspot", holder: "a", lease: 60) == false, "a kept a lease b took over")
    }

    @Test func aRenewedLeaseIsNotReclaimed() throws {
        let clock = ManualClock()
        let board = InMemoryClaimBoard(clock: clock)
        try board.seed(pairs)
        _ = try board.claim(holder: "a", since: "", lease: 60, among: pairs)
        for _ in 0..<5 {
            clock.advance(40)
            #expect(try board.renew(job: "nightly", destination: "hubspot", holder: "a", lease: 60))
            #expect(try board.claim(holder: "b", since: "", lease: 60, among: pairs).claim == nil)
        }
        try board.finish(job: "nightly", destination: "hubspot", holder: "a")
        let after = try board.claim(holder: "b", since: "", lease: 60, among: pairs)
        #expect(after.claim == nil && after.remaining == 0, "a finished pair is done for the night")
    }

    /// The renewal thread only notes a lost lease; the worker stops on its own thread.
    @Test func aLostLeaseIsNotedNotExited() throws {
        let clock = ManualClock()
        let board = InMemoryClaimBoard(clock: clock)
        try board.seed(pairs)
        _ = try board.claim(holder: "a", since: "", lease: 1, among: pairs)
        clock.advance(2)
        _ = try board.claim(holder: "b", since: "", lease: 60, among: pairs)
        let renewal = LeaseRenewal(board: board, claim: pairs[0], holder: "a", lease: 1)
        let deadline = Date().addingTimeInterval(5)
        while !renewal.lost && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        renewal.stop()
        #expect(renewal.lost)
    }

    @Test func aKeptLeaseIsNotLost() throws {
        let board = InMemoryClaimBoard(clock: ManualClock())
        try board.seed(pairs)
        _ = try board.claim(holder: "a", since: "", lease: 1, among: pairs)
        let renewal = LeaseRenewal(board: board, claim: pairs[0], holder: "a", lease: 1)
        Thread.sleep(forTimeInterval: 0.8)
        renewal.stop()
        #expect(!renewal.lost)
    }
}
