import Foundation
import LeadConnectors
import LeadCore
import LeadNormalize

/// What an import is asked to do: the `import` command's options as one value, which
/// `leadport import` builds from its arguments and a sync job from its configuration. The engine
/// runs from this value alone (`perform`), never from an argument list.
public struct ImportRequest: Sendable, Equatable {
    /// CSV files or .xlsx workbooks, as given (their names are the rows' locations).
    public var files: [String]
    public var mapping: String?
    public var preset: String?
    /// The sheet to read, by name or 1-based position.
    public var sheet: String?
    /// The destinations as `--to` takes them, in order (none: the embedded database).
    public var destinations: [String] = []
    /// The SQLite file that keeps the runs and the ledger of remote destinations.
    public var ledger = "leadport.db"
    public var user: String?
    public var campaign: String?
    public var region: String?
    public var dateOrder: DateOrder?
    /// Do-not-contact lists.
    public var exclude: [String] = []
    /// An enrichment spec, with its model, cache and concurrency choices.
    public var enrich: String?
    public var model: String?
    public var noCache = false
    public var concurrency: Int?
    public var strictFields = false
    public var dryRun = false
    /// A dry run's plan file (`leadport apply` carries it out).
    public var plan: String?
    public var export: String?
    public var report: String?
    public var rejects: String?
    /// Whether a list with nothing in it is passed over (said in a warning) even when it is the
    /// only one: a sync job's file that its export left empty tonight. Otherwise an empty list
    /// is passed over only beside others that have rows, and alone is refused.
    public var emptyListsAllowed = false
    /// Whether a list that cannot be planned (its columns not told apart, a mapping that does
    /// not fit it, a file that cannot be read) is held back, said in a warning and in the
    /// summary's `heldBack`, while the others are delivered: a sync job's folder, where one bad
    /// file must not stop every other file every night. Otherwise it refuses the run.
    public var unplannedListsHeldBack = false

    public init(files: [String]) { self.files = files }

    /// The destinations, in the order given (the embedded database when none is).
    public var targets: [String] { destinations.isEmpty ? ["sqlite:leadport.db"] : destinations }

    /// Checks the options against each other and the files against the outputs, before anything
    /// is read or written.
    /// - Throws: `ImportRequestError` (a usage error) naming the option.
    public func validate() throws {
        if mapping != nil && preset != nil { throw ImportRequestError("give --mapping or --preset, not both") }
        if enrich == nil, model != nil || noCache || concurrency != nil { throw ImportRequestError("--model, --no-cache and --concurrency are for --enrich SPEC.yaml") }
        if let concurrency, !(1...32).contains(concurrency) { throw ImportRequestError("--concurrency is from 1 to 32, not \(concurrency)") }
        if enrich != nil, plan != nil {
            throw ImportRequestError("--plan cannot hold an enrichment's answers: enrich first (leadport enrich FILE --spec SPEC --export processed.xlsx), then plan the import of processed.xlsx")
        }
        // A list is read twice (its head to plan the columns, then every row): standard input
        // cannot be. Said here too, before any destination is opened.
        if files.contains("-") {
            throw ImportRequestError("import reads its lists from files, not from standard input (-): save CSV text to a file first (leadport cat - --format csv > list.csv), or give a workbook's own path")
        }
        if let region, !PhoneRule.knowsRegion(region) { throw ImportRequestError("--region: " + PhoneRule.unknownRegion(region)) }
        let parsed = try parsedTargets()
        if let user, UUID(uuidString: user) == nil { throw ImportRequestError("--user takes a user's id (a UUID), not \"\(user)\"") }
        if let export, !export.lowercased().hasSuffix(".csv"), !export.lowercased().hasSuffix(".xlsx") {
            throw ImportRequestError("--export writes a workbook or CSV: give a .xlsx or .csv file name, not \"\(export)\"")
        }
        // An output written over an input (or over another output) would destroy the list while
        // it is being read.
        var inputs: Set<String> = []
        for file in files where !inputs.insert(Self.canonical(file)).inserted {
            throw ImportRequestError("\(file) is given twice; name each file to import once")
        }
        // A do-not-contact list and the spec are read too: no output may be written over them either.
        for list in exclude + [enrich].compactMap({ $0 }) { inputs.insert(Self.canonical(list)) }
        var outputs: [String: String] = [:]
        let database: (String, String) = parsed.compactMap(\.embeddedPath).first.map { ("--to", $0) } ?? ("--ledger", ledger)
        for (option, path) in [("--export", export), ("--report", report), ("--rejects", rejects), ("--plan", plan), ("--plan's CSV", plan.map(Self.planCSVPath)), database] {
            guard let path else { continue }
            let canonical = Self.canonical(path)
            if inputs.contains(canonical) { throw ImportRequestError("\(option) \(path) is one of the files read (to import, or to exclude); write it somewhere else") }
            if let other = outputs[canonical] { throw ImportRequestError("\(option) and \(other) name the same file, \(path)") }
            outputs[canonical] = option
        }
    }

    /// The `--to` values checked: each names a destination once, and at most one is the embedded database.
    public func parsedTargets() throws -> [DestinationRegistry.Target] {
        var parsed: [DestinationRegistry.Target] = []
        for value in targets {
            do { parsed.append(try DestinationRegistry.parse(value)) } catch let error as RegistryError { throw ImportRequestError(error.message) }
        }
        if parsed.filter({ $0.embeddedPath != nil }).count > 1 {
            throw ImportRequestError("--to sqlite: is given more than once; one embedded database a run (it also keeps the other destinations' ledger)")
        }
        var seen: Set<String> = []
        for target in parsed where !seen.insert(target.value).inserted {
            throw ImportRequestError("--to \(target.display) is given twice; name each destination once")
        }
        return parsed
    }

    /// The import's own arguments, to run it again by (`leadport apply`): what decides which
    /// rows go where, without the outputs and the progress style, and without a password in a
    /// PostgreSQL URL (libpq takes it from PGPASSWORD or ~/.pgpass then).
    public var replayArguments: [String] {
        var arguments = files
        func add(_ name: String, _ value: String?) { if let value { arguments += [name, value] } }
        add("--mapping", mapping)
        add("--preset", preset)
        add("--sheet", sheet)
        for value in destinations { arguments += ["--to", Self.withoutPassword(value)] }
        add("--ledger", ledger)
        add("--user", user)
        add("--campaign", campaign)
        add("--region", region)
        add("--date-order", dateOrder?.rawValue)
        for list in exclude { arguments += ["--exclude", list] }
        return arguments
    }

    /// A PostgreSQL URL without its password (libpq takes it from PGPASSWORD or ~/.pgpass then);
    /// any other destination as it is.
    public static func withoutPassword(_ value: String) -> String {
        guard value.hasPrefix("postgres"), var parts = URLComponents(string: value), parts.password != nil else { return value }
        parts.password = nil
        return parts.string ?? value
    }

    /// The CSV beside a plan (`plan.json` → `plan.csv`), one line per field.
    public static func planCSVPath(_ path: String) -> String {
        path.lowercased().hasSuffix(".json") ? String(path.dropLast(5)) + ".csv" : path + ".csv"
    }

    /// An absolute path with symbolic links resolved, to tell whether two names are one file.
    public static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// An import that cannot run as asked (options that contradict each other, a list with nothing
/// in it): a usage error, exit status 2.
public struct ImportRequestError: Error, CustomStringConvertible, Classified, Equatable {
    public var message: String
    public var disposition: FailureDisposition { .usage }
    public var description: String { message }

    public init(_ message: String) { self.message = message }
}
