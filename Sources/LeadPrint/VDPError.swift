import LeadConnectors
import LeadCore

/// Why `leadport export vdp` could not run, each saying what to do.
public enum VDPError: Error, CustomStringConvertible, Classified {
    case noCampaign(String, destination: String)
    case ambiguous(String, ids: [String])
    case noDatabase(path: String)
    case slugsExhausted(attempts: Int)
    case output(path: String, message: String)
    /// An output the user named that cannot be used as it is (a folder not empty, …): a usage problem.
    case unusableOutput(path: String, message: String)
    /// libqrencode or libpng, opened on the first QR code, is not installed.
    case missingLibrary(String)

    public var description: String {
        switch self {
        case .noCampaign(let reference, let destination):
            return "\(destination) has no campaign \(CampaignNaming.quoted(reference)); give a campaign's id or exact name (import a list into it first: leadport import FILE --campaign NAME)"
        case .ambiguous(let name, let ids):
            return "several campaigns are named \"\(name)\" (\(ids.joined(separator: ", "))); give the campaign's id instead"
        case .noDatabase(let path):
            return "\(path) does not exist; give the embedded file a list was imported into with --to sqlite:FILE, or a PostgreSQL URL"
        case .slugsExhausted(let attempts):
            return "could not find free QR slugs after \(attempts) tries; qr_codes is unusually full, or its slugs are not random: run again"
        case .output(let path, let message), .unusableOutput(let path, let message):
            return "\(path): \(message)"
        case .missingLibrary(let message):
            return "cannot make QR codes: \(message)"
        }
    }

    public var disposition: FailureDisposition {
        switch self {
        case .noCampaign, .ambiguous, .noDatabase, .unusableOutput: return .usage
        case .slugsExhausted, .output, .missingLibrary: return .terminal
        }
    }
}

enum CampaignNaming {
    static func quoted(_ reference: String) -> String {
        CampaignMatch.isID(reference) ? reference : "named \"\(reference)\""
    }
}
