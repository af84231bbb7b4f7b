/// An owner after the second on one row (`SMITH JOHN & MARY & ROBERT`: Robert Smith), as county
/// records join three or more owners with `&`. The first two owners keep their own fields
/// (`givenName`…, `secondGivenName`…); the rest are these, in the order written.
public struct CoOwner: Sendable, Equatable {
    public var prefix: String?
    public var given: String?
    public var middle: String?
    public var family: String?

    public init(prefix: String? = nil, given: String? = nil, middle: String? = nil, family: String? = nil) {
        (self.prefix, self.given, self.middle, self.family) = (prefix, given, middle, family)
    }
}
