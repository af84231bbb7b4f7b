import LeadConnectors
import LeadCore

/// A Supabase project through its REST API (`--to supabase`), opened as `import` opens it.
public final class SupabaseQRCodes: QRCodeStore {
    private let destination: SupabaseDestination
    public var name: String { destination.name }

    public init(_ destination: SupabaseDestination) { self.destination = destination }

    public func findCampaign(_ reference: String) throws -> (id: String, name: String)? {
        let match: CampaignMatch?
        do { match = try destination.campaign(reference, owner: nil, create: false) } catch let error as AmbiguousCampaign {
            throw VDPError.ambiguous(error.name, ids: error.ids)
        }
        guard let match else { return nil }
        return (match.id, try destination.campaignName(id: match.id) ?? reference)
    }

    public func printAddresses(campaign: String) throws -> [PrintAddress] { try destination.printAddresses(campaign: campaign) }
    public func qrSlugs(campaign: String) throws -> [String: String] { try destination.qrSlugs(campaign: campaign) }
    public func insertQRCodes(_ codes: [NewQRCode], metadata: String) throws -> Set<String> { try destination.insertQRCodes(codes, metadata: metadata) }
}
