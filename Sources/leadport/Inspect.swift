import ArgumentParser
import LeadEngine

/// `leadport inspect`: how LeadPort reads a file.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show how a file reads: format, encoding, delimiter, sheets, header row and columns."
    )

    @Argument(help: "A CSV file or an .xlsx workbook.")
    var file: String

    @Option(help: "The sheet to inspect, by name or 1-based position. Default: the first.")
    var sheet: String?

    @Flag(help: "Print the inspection as one JSON document.")
    var json = false

    func run() throws {
        throw ValidationError("not yet")
    }
}
