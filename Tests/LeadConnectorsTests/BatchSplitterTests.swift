import LeadConnectors
import Testing

@Suite struct BatchSplitterTests {
    /// A destination that refuses any batch holding a bad row, as PostgREST does, and keeps
    /// the batches it was sent.
    final class Destination {
        let bad: Set<Int>
        var sent: [[Int]] = []
        init(bad: Set<Int>) { self.bad = bad }
        func send(_ slice: ArraySlice<Int>) -> BatchAnswer {
            sent.append(Array(slice))
            if let row = slice.first(where: bad.contains) {
                return .failed(reason: "row \(row): duplicate key", rowLevel: true)
            }
            return .rows(slice.map { .created(remoteID: "r\($0)") })
        }
    }

    @Test func batchesAreNoLargerThanDeclared() {
        let d = Destination(bad: [])
        let rows = Array(0..<1_234)
        let results = BatchSplitter(largestBatch: 500).deliver(rows, send: d.send)
        #expect(d.sent.map(\.count) == [500, 500, 234])
        #expect(results == rows.map { .created(remoteID: "r\($0)") })
    }

    @Test func aBadRowIsIsolatedAndEveryOtherRowDelivered() {
        let d = Destination(bad: [137])
        let rows = Array(0..<500)
        let results = BatchSplitter(largestBatch: 500).deliver(rows, send: d.send)
        #expect(results[137] == .rejected(reason: "row 137: duplicate key"))
        #expect(results.enumerated().filter { $0.offset != 137 }.allSatisfy { $0.element == .created(remoteID: "r\($0.offset)") })
        #expect(d.sent.count <= 1 + 2 * 9, "\(d.sent.count) requests")
        #expect(d.sent.filter { $0.count == 1 }.flatMap { $0 }.contains(137))
    }

    @Test func severalBadRowsEachKeepTheirOwnReason() {
        let bad: Set<Int> = [0, 1, 250, 499]
        let results = BatchSplitter(largestBatch: 500).deliver(Array(0..<500), send: Destination(bad: bad).send)
        for k in 0..<500 {
            #expect(results[k] == (bad.contains(k) ? .rejected(reason: "row \(k): duplicate key") : .created(remoteID: "r\(k)")))
        }
    }

    @Test func aFailureNotCausedByTheRowsIsNotSplit() {
        var calls = 0
        let results = BatchSplitter(largestBatch: 100).deliver(Array(0..<250)) { _ in
            calls += 1
            return .failed(reason: "401: JWT expired", rowLevel: false)
        }
        #expect(calls == 3, "one per batch")
        #expect(results.count == 250 && results.allSatisfy { $0 == .rejected(reason: "401: JWT expired") })
    }

    @Test func anErrorFromTheTransportStopsTheDelivery() {
        struct Down: Error {}
        var calls = 0
        #expect(throws: Down.self) {
            _ = try BatchSplitter(largestBatch: 10).deliver(Array(0..<30)) { _ in
                calls += 1
                if calls == 2 { throw Down() }
                return .rows(Array(repeating: .updated(remoteID: "x"), count: 10))
            }
        }
        #expect(calls == 2)
    }
}
