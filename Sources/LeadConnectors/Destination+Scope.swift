/// What a run files its records under, as `--campaign` (or the mapping's default) and `--user`
/// give it: handed to every destination once, after `configure` and before the rows
/// (`Destination.enter`).
public struct RunScope: Sendable, Equatable {
    /// A name or an id; nil: the run names none.
    public var reference: String?
    /// Whose the records are, when the run says.
    public var owner: String?
    /// Whether a place named and not found is made (not in a dry run).
    public var create: Bool
    /// What the mapping's `target:` says the run writes (`contacts`, `campaign_addresses` or
    /// `both`), for a destination that keeps more than one kind of record: FLYR's family, whose
    /// campaign addresses are written only when asked for. Nil: no mapping was given (the
    /// auto-mapper's), and such a destination settles what the run writes itself.
    public var target: String?

    public init(reference: String?, owner: String?, create: Bool, target: String? = nil) {
        (self.reference, self.owner, self.create, self.target) = (reference, owner, create, target)
    }
}

/// What a destination made of a `RunScope`.
public struct Scope: Sendable, Equatable {
    /// What the destination files the records under, as it names it (FLYR's tables: the
    /// campaign's id; a CRM: the name given), nil for nothing. Part of what a row passed over
    /// unchanged must have been sent with (`RowHash`).
    public var name: String?
    /// What the ledger adds to each lead's key at this destination, when its records belong to
    /// the place the run named (FLYR's tables: `campaign:ID`): the same list filed under two
    /// places is then two leads. Nil: a lead is one record whatever the run names.
    public var ledgerKey: String?
    /// Whose the records are, as the destination settled it (nil: it keeps no owner).
    public var owner: String?

    public init(name: String?, ledgerKey: String? = nil, owner: String? = nil) {
        (self.name, self.ledgerKey, self.owner) = (name, ledgerKey, owner)
    }
}

extension Destination {
    /// The default: the destination keeps nothing of the scope (monday.com, HubSpot send no
    /// name), and the name given stands.
    public func enter(_ scope: RunScope) throws -> Scope { Scope(name: scope.reference) }
}
