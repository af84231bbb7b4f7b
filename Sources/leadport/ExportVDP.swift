import ArgumentParser
import Foundation
import LeadConnectors
import LeadEngine
import LeadPrint

/// `leadport export vdp CAMPAIGN`: the printer's files for a campaign (docs/cli.md).
struct ExportVDP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vdp",
        abstract: "A campaign's variable-data print files: a QR code PNG per address, vdp-manifest.csv and README.txt, in a ZIP or a folder.",
        discussion: """
            Each campaign address, in the campaign's order, gets a slug kept in FLYR's qr_codes table \
            (made once: running again gives the same codes and writes nothing), its URL (--base-url \
            and the slug), a QR code PNG for print at 300 dpi, and a manifest row with its USPS \
            address lines and the contact's name. An address that cannot be mailed is listed as \
            skipped, with the reason, and gets no code.
            Progress: auto, bar and plain print a line every few seconds, then the summary line; \
            none the summary line alone; jsonl an event per address, and run_finished with the \
            counts instead of the summary line.
            Exit status: 0 written; 1 the destination or the output failed; 2 a usage problem \
            (no such campaign, a destination's settings missing, an --out folder not empty or an \
            output that cannot be written where it is named, checked before any work).
            """
    )

    @Argument(help: ArgumentHelp("The campaign: its id (a UUID) or its exact name.", valueName: "campaign"))
    var campaign: String

    @Option(name: .customLong("to"), help: ArgumentHelp("The FLYR destination that holds the campaign: sqlite:FILE (default sqlite:leadport.db), postgres://USER@HOST:PORT/DB, or supabase (SUPABASE_URL and a key, as for import).",
                                                        valueName: "dest"))
    var destination = "sqlite:leadport.db"

    @Option(help: ArgumentHelp("What a QR code opens: this, then the slug (a / is added to a path that does not end in one, unless the URL has a query).", valueName: "url"))
    var baseURL = "https://flyrpro.app/q/"

    /// `--base-url` as the slug is added to it: `https://ex.com/q` is taken as `https://ex.com/q/`,
    /// so that the slug is a path segment of its own; a URL with a query (`…?code=`) or a
    /// fragment is kept as it is given.
    var base: String {
        guard let url = URLComponents(string: baseURL), url.query == nil, url.fragment == nil, !url.path.hasSuffix("/") else { return baseURL }
        return baseURL + "/"
    }

    @Option(help: ArgumentHelp("The ZIP to write (default: vdp-NAME.zip in the current folder, NAME the campaign's).", valueName: "file.zip"))
    var zip: String?

    @Option(help: ArgumentHelp("Write the files into this folder (new or empty) instead of a ZIP.", valueName: "dir"))
    var out: String?

    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        if zip != nil && out != nil { throw ValidationError("give --zip FILE or --out DIR, not both") }
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw ValidationError("--base-url takes an http(s) URL to which the slug is added, as in https://flyrpro.app/q/, not \"\(baseURL)\"")
        }
    }

    func run() throws {
        // An output that cannot be written is refused before the store is opened.
        try VDPBundle.check(directory: out, zip: zip)
        let store = try openStore()
        let export = VDPExport(store: store, baseURL: base)
        // Found before anything is written: an unknown campaign leaves no folder or file behind.
        let found = try export.campaign(campaign)
        try QRSymbol.checkLibraries()
        let bundle = try VDPBundle(directory: out, zip: out == nil ? (zip ?? Self.defaultZip(found.name)) : nil)
        let reporter = VDPProgress(style: progress.progress, destination: store.name)
        let summary: VDPExport.Summary
        do {
            summary = try export.run(campaign: found, into: bundle, started: reporter.started, row: reporter.row)
        } catch {
            bundle.discard()
            throw error
        }
        let (path, bytes) = try bundle.finish(campaign: summary.campaignName, baseURL: base, symbol: QRSymbol())
        reporter.finished(summary, output: path, bytes: bytes)
        if let embedded = store as? EmbeddedQRCodes { try embedded.close() }
    }

    /// The store `--to` names, opened as `import` names destinations (`DestinationRegistry`).
    private func openStore() throws -> any QRCodeStore {
        let target: DestinationRegistry.Target
        do { target = try DestinationRegistry.parse(destination) } catch let error as RegistryError { throw ValidationError(error.message) }
        if let path = target.embeddedPath {
            guard FileManager.default.fileExists(atPath: path) else { throw VDPError.noDatabase(path: path) }
            return try EmbeddedQRCodes(path: path)
        }
        switch target.kind {
        case "postgres":
            return try PostgresQRCodes(url: target.value)
        case "supabase":
            // Its settings (SUPABASE_URL and a key) as for `import`: a missing one is named, exit status 2.
            guard let destination = try DestinationRegistry.open(target, settings: try Settings.load(), onRetry: { _ in }) as? SupabaseDestination else {
                throw ValidationError("--to supabase did not open Supabase's REST API")
            }
            return SupabaseQRCodes(destination)
        default:
            throw ValidationError("--to \(target.display) holds no FLYR campaign; export vdp reads sqlite:FILE or a postgres:// URL")
        }
    }

    /// `vdp-october-open-house.zip`: the campaign's name with anything but letters and digits as `-`.
    static func defaultZip(_ campaign: String) -> String {
        let name = campaign.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        let squeezed = name.split(separator: "-").joined(separator: "-")
        return "vdp-\(squeezed.isEmpty ? "campaign" : squeezed).zip"
    }
}
