/// FLYR's QR slugs (technical reference §9.1): 8 characters from lower-case letters and digits,
/// unique across `qr_codes`. 36^8 ≈ 2.8 × 10^12 slugs: a table of a million codes meets a
/// random one already taken about once in 2.8 million tries, which `SlugMaker`'s caller retries.
public struct SlugMaker {
    public static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    public static let length = 8
    private var next: () -> String

    /// Slugs from the system's random source.
    public init() {
        var random = SystemRandomNumberGenerator()
        next = { String((0..<Self.length).map { _ in Self.alphabet.randomElement(using: &random)! }) }
    }

    /// Slugs from `source`, in order (tests: a collision on purpose).
    public init(_ source: @escaping () -> String) { next = source }

    public mutating func make() -> String { next() }

    /// Whether `text` has the form of a slug.
    public static func isSlug(_ text: String) -> Bool {
        text.count == length && text.allSatisfy { alphabet.contains($0) }
    }
}
