import Foundation
import LeadCore

/// `leadport export vdp`: a campaign's addresses, in its order, each with a QR code kept in
/// FLYR's `qr_codes` (created once: a rerun reads the same slugs and writes nothing), a PNG of
/// the code, and a manifest row for variable-data printing. Every address ends in one outcome:
///
/// | outcome | meaning |
/// | --- | --- |
/// | `created` | a new slug was written to `qr_codes` for it |
/// | `unchanged` | it had a slug already, which is used again |
/// | `skipped` | it cannot be mailed (no delivery line, or no ZIP nor city and state): listed with the reason, no code |
public final class VDPExport {
    public enum Outcome: String, Sendable, CaseIterable { case created, unchanged, skipped }

    /// One manifest row.
    public struct Row: Sendable {
        /// 1-based, in the campaign's order.
        public var sequence: Int
        public var address: PrintAddress
        public var outcome: Outcome
        public var lines: MailingLines?
        public var slug: String?
        public var url: String?
        /// The PNG's path inside the output (`qr/00001-a1b2c3d4.png`).
        public var image: String?
        public var reason: String?
    }

    public struct Summary: Sendable {
        public var campaignID: String
        public var campaignName: String
        public var counts: [Outcome: Int]
        public var rows: Int { counts.values.reduce(0, +) }
    }

    /// How many rounds of new slugs a code whose slug was taken gets.
    public static let slugAttempts = 10

    private let store: any QRCodeStore
    private let baseURL: String
    private let symbol: QRSymbol
    private var slugs: SlugMaker

    public init(store: any QRCodeStore, baseURL: String, symbol: QRSymbol = QRSymbol(), slugs: SlugMaker = SlugMaker()) {
        self.store = store
        self.baseURL = baseURL
        self.symbol = symbol
        self.slugs = slugs
    }

    /// The campaign `reference` names (an id or an exact name): its id and name.
    public func campaign(_ reference: String) throws -> (id: String, name: String) {
        guard let found = try store.findCampaign(reference) else { throw VDPError.noCampaign(reference, destination: store.name) }
        return found
    }

    /// Writes the bundle's images and manifest for the campaign (`campaign(_:)`); `started` is
    /// told the number of addresses before the first row, `row` each row as it is written.
    public func run(campaign found: (id: String, name: String), into bundle: VDPBundle,
                    started: (_ id: String, _ name: String, _ total: Int) -> Void, row report: (Row) throws -> Void) throws -> Summary {
        let (campaign, name) = found
        try QRSymbol.checkLibraries()
        let addresses = try store.printAddresses(campaign: campaign)
        started(campaign, name, addresses.count)
        var known = try store.qrSlugs(campaign: campaign)
        let width = max(5, String(addresses.count).count)
        var rows: [Row] = addresses.enumerated().map { k, address in
            var row = Row(sequence: k + 1, address: address, outcome: .unchanged)
            switch MailingLines.of(address) {
            case .success(let lines): row.lines = lines
            case .failure(let problem): (row.outcome, row.reason) = (.skipped, problem.reason)
            }
            return row
        }
        let created = try createSlugs(for: rows.filter { $0.outcome != .skipped && known[$0.address.id] == nil }.map(\.address.id), campaign: campaign)
        known.merge(created) { old, _ in old }
        var counts: [Outcome: Int] = [:]
        for k in rows.indices {
            if rows[k].outcome != .skipped, let slug = known[rows[k].address.id] {
                if created[rows[k].address.id] != nil { rows[k].outcome = .created }
                let url = baseURL + slug
                let image = "qr/" + String(repeating: "0", count: max(0, width - String(rows[k].sequence).count)) + "\(rows[k].sequence)-\(slug).png"
                try bundle.add(image, bytes: try symbol.png(url).bytes)
                (rows[k].slug, rows[k].url, rows[k].image) = (slug, url, image)
            }
            try bundle.manifest(rows[k])
            counts[rows[k].outcome, default: 0] += 1
            try report(rows[k])
        }
        return Summary(campaignID: campaign, campaignName: name, counts: counts)
    }

    /// New slugs for these addresses, written to `qr_codes`: a slug another row holds (the
    /// insert leaves it out) is drawn again, up to `slugAttempts` rounds.
    private func createSlugs(for addresses: [String], campaign: String) throws -> [String: String] {
        var made: [String: String] = [:]
        var waiting = addresses
        for _ in 0..<Self.slugAttempts where !waiting.isEmpty {
            let codes = waiting.map { address in
                NewQRCode(id: UUID().uuidString.lowercased(), campaign: campaign, address: address, slug: slugs.make(), url: "")
            }
            // A slug drawn twice in one round goes to the first address only; the other draws again.
            var owner: [String: String] = [:]
            let sent = codes.filter { code in owner[code.slug] == nil ? { owner[code.slug] = code.address; return true }() : false }
                .map { code in var code = code; code.url = baseURL + code.slug; return code }
            let inserted = try store.insertQRCodes(sent, metadata: #"{"created_by": "leadport export vdp"}"#)
            waiting = []
            for code in codes {
                if inserted.contains(code.slug), owner[code.slug] == code.address { made[code.address] = code.slug } else { waiting.append(code.address) }
            }
        }
        guard waiting.isEmpty else { throw VDPError.slugsExhausted(attempts: Self.slugAttempts) }
        return made
    }
}
