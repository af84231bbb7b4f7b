import LeadCore
import LeadEngine
import Testing

/// `ExitStatus` alone ranks a run's problems: these are the rows of docs/cli.md's table.
@Suite struct ExitStatusTests {
    @Test func eachDispositionHasItsStatus() {
        #expect(ExitStatus.status(for: .usage) == 2)
        #expect(ExitStatus.status(for: .terminal) == 1)
        #expect(ExitStatus.status(for: .transient) == 1)
        #expect(ExitStatus.status(for: .rowRejected) == 3)
    }

    @Test func theGravestProblemGivesTheStatus() {
        #expect(ExitStatus.gravest([Int32]()) == 0)
        #expect(ExitStatus.gravest([0, 0]) == 0)
        // A destination that stopped outranks another's rejected rows, although 3 > 1.
        #expect(ExitStatus.gravest([3, 1]) == 1)
        #expect(ExitStatus.gravest([FailureDisposition.rowRejected, .terminal]) == 1)
        #expect(ExitStatus.gravest([3, 4]) == 4)
        #expect(ExitStatus.gravest([4, 1]) == 1)
        #expect(ExitStatus.gravest([1, 2, 3]) == 2)
        #expect(ExitStatus.gravest([FailureDisposition.rowRejected, .rowRejected]) == 3)
        // An interruption's status is kept when nothing ranks above it.
        #expect(ExitStatus.gravest([0, 130]) == 130)
    }
}
