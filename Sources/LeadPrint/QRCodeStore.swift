import LeadConnectors
import LeadCore
import LeadStore

/// Where a campaign's addresses and their QR codes are kept: a FLYR destination (the embedded
/// file, PostgreSQL). `leadport export vdp` reads through this and writes only new codes.
public protocol QRCodeStore: AnyObject {
    /// The destination's name in messages (`sqlite:leadport.db`, a URL without its password).
    var name: String { get }
    /// The campaign `reference` names (an id, or a name; never created): its id and name.
    func findCampaign(_ reference: String) throws -> (id: String, name: String)?
    /// The campaign's addresses in its order (`seq`), each with its first contact.
    func printAddresses(campaign: String) throws -> [PrintAddress]
    /// address id → slug, for the campaign's addresses that have a code.
    func qrSlugs(campaign: String) throws -> [String: String]
    /// Inserts the codes whose slug is free; returns the slugs inserted.
    func insertQRCodes(_ codes: [NewQRCode], metadata: String) throws -> Set<String>
}

/// The embedded file (`--to sqlite:FILE`).
public final class EmbeddedQRCodes: QRCodeStore {
    public let name: String
    private let store: LeadStore

    public init(path: String) throws {
        name = "sqlite:" + path
        store = try LeadStore(path: path)
    }

    public func findCampaign(_ reference: String) throws -> (id: String, name: String)? {
        guard let found = try store.campaign(reference, owner: nil, create: false) else { return nil }
        if !found.ambiguous.isEmpty { throw VDPError.ambiguous(reference, ids: found.ambiguous) }
        return (found.id, try store.campaignName(id: found.id) ?? reference)
    }

    public func printAddresses(campaign: String) throws -> [PrintAddress] { try store.printAddresses(campaign: campaign) }
    public func qrSlugs(campaign: String) throws -> [String: String] { try store.qrSlugs(campaign: campaign) }
    public func insertQRCodes(_ codes: [NewQRCode], metadata: String) throws -> Set<String> { try store.insertQRCodes(codes, metadata: metadata) }

    public func close() throws { try store.close() }
}
