/// Where workers claim (job, destination) pairs under leases: `SharedLedger` in PostgreSQL for
/// `sync --worker`, an in-memory one in tests.
///
/// A pair is free when it has not finished since the night began (`since`) and no live lease
/// holds it; a lease lasts `lease` seconds from its claim or last renewal. A pair whose worker
/// died is claimed again once its lease runs out.
public protocol ClaimBoard: AnyObject, Sendable {
    /// Makes sure every pair can be claimed.
    func seed(_ pairs: [(job: String, destination: String)]) throws
    /// A free pair, now `holder`'s for `lease` seconds; nil when none is free. `remaining`: how
    /// many are not finished since `since` (held or free).
    func claim(holder: String, since: String, lease: Int, among pairs: [(job: String, destination: String)]) throws -> (claim: (job: String, destination: String)?, remaining: Int)
    /// Extends `holder`'s lease; false when it is no longer `holder`'s (it ran out and another
    /// worker took the pair).
    func renew(job: String, destination: String, holder: String, lease: Int) throws -> Bool
    /// The pair done for tonight.
    func finish(job: String, destination: String, holder: String) throws
}

extension SharedLedger: ClaimBoard {}
