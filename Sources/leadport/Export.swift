import ArgumentParser

/// `leadport export`: what a campaign needs next, made from what a FLYR destination holds.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export from a FLYR destination: `export vdp` makes a campaign's print files (QR codes and a manifest).",
        subcommands: [ExportVDP.self]
    )
}
