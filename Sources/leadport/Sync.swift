import ArgumentParser
import Foundation
import HTTPKit
import LeadEngine
import LeadSync

#if canImport(Glibc)
import Glibc
import LeadConnectors
import LeadCore
import LeadStore
#endif

/// `leadport sync`: the configured jobs, each sending what changed since its last run.
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the jobs of a sync configuration (docs/sync.md): send what changed since each job's last run, as import does.",
        discussion: """
            Files are read again only when their content changed (and then only changed rows are \
            sent, as the ledger knows the rest); a PostgreSQL table is read from where the job's \
            watermark stands (updated_at, then id), which moves only past rows every destination \
            took or finally rejected. A run killed at any moment resumes on the next: nothing is \
            lost, nothing sent twice.
            Every progress event also goes to the job's log (LOGS/JOB/events.log), whatever \
            --progress says.
            Exit status: 0 every row delivered or deliberately skipped; 3 some rows rejected; \
            1 a job failed; 2 a usage or configuration problem; 4 a job was already running \
            (another sync holds its lock): nothing was done for it.
            """
    )

    @Option(help: ArgumentHelp("The sync configuration (YAML).", valueName: "sync.yaml"))
    var config: String

    @Option(help: ArgumentHelp("Run this job alone.", valueName: "name"))
    var job: String?

    @Option(help: ArgumentHelp("Write a JSON summary of the run here (for monitoring): each job's status, run id and counts by destination.", valueName: "file.json"))
    var summaryJson: String?

    @OptionGroup var progress: ProgressOptions

    @Option(help: ArgumentHelp("Print a crontab line that runs this configuration on SCHEDULE (as in \"0 2 * * *\"), and do nothing else.", valueName: "schedule"))
    var printCron: String?

    @Flag(help: "Print a systemd service and timer that run this configuration nightly (edit OnCalendar= to change when), and do nothing else.")
    var printSystemd = false

    @Flag(help: "Share the jobs with other workers, on any machines, through a PostgreSQL ledger (ledger: postgres://… in the configuration): claim (job, destination) pairs until every one is done.")
    var worker = false

    func validate() throws {
        if let printCron {
            let fields = printCron.split(separator: " ", omittingEmptySubsequences: true)
            let ranges = [0...59, 0...23, 1...31, 1...12, 0...7]
            let named = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly", "@reboot"]
            guard fields.count == 5 && zip(fields, ranges).allSatisfy({ Self.cronField($0, $1) }) || (fields.count == 1 && named.contains(printCron)) else {
                throw ValidationError("--print-cron takes a cron schedule of five fields (minute 0-59, hour 0-23, day 1-31, month 1-12, weekday 0-7), as in \"0 2 * * *\" (2 a.m. every day), or @daily")
            }
        }
    }

    func run() throws {
        // Printing a crontab line or units connects to nothing: $VAR references stay as written.
        if printCron != nil || printSystemd {
            let configuration = try SyncConfig.load(path: config, expanding: false)
            if let printCron { return try print(cron: printCron, configuration) }
            return try printUnits(configuration)
        }
        let started = Date()
        // A mistyped setting changes nothing: said first, as the run's progress says things.
        let style = progress.style
        let warnings = ProgressReporter(style: style)
        for line in Import.settingWarnings() { warnings.handle(.warning(RunWarning(code: "unknown_setting", message: line))) }
        let configuration: SyncConfig
        do {
            // $VAR references come from the environment, else the config file (as credentials do).
            // (A config file that cannot be read leaves the environment alone to expand with:
            // the destinations that need it say so themselves.)
            configuration = try SyncConfig.load(path: config, environment: (try? Settings.load().values) ?? ProcessInfo.processInfo.environment)
        } catch {
            // Monitoring reads the summary: a run that could not start says so there too.
            try? writeSummary(started: started, status: (error as? any Classified).map { ExitStatus.status(for: $0.disposition) } ?? ExitStatus.failed,
                              jobs: [], message: "\(error)")
            throw error
        }
        var jobs = configuration.jobs
        if let job {
            jobs = jobs.filter { $0.name == job }
            guard !jobs.isEmpty else { throw SyncError(message: "\(config) has no job \(job); its jobs: \(configuration.jobs.map(\.name).joined(separator: ", "))") }
        }
        var results: [SyncJob.Result] = []
        // The runs' reporters, in the style resolved above, and whether rows are counted.
        let context = SyncJob.Context(build: LeadPortVersion.build, countsRows: style != .none, reporter: { log, job in
            let reporter = ProgressReporter(style: style)
            reporter.log = log
            reporter.job = job
            return { reporter.handle($0) }
        }, warn: ExitStatus.printError)
        Interruptions.catchSignals()
        if let url = configuration.shared {
            guard worker else {
                throw SyncError(message: "\(config) keeps its ledger in PostgreSQL (ledger: postgres://…): run leadport sync --worker, on as many machines as you like")
            }
            do {
                let outcome = try SyncWorker(configuration: configuration, jobs: jobs, context: context).run(shared: try SharedLedger(url: url))
                if let lost = outcome.lostLease {
                    ExitStatus.printError("leadport: the lease of \(lost.job) → \(lost.destination) was lost to another worker; stopping")
                    throw FinishedWithStatus(ExitStatus.failed)
                }
                results = outcome.results
            } catch let error as PostgresError {
                // The shared ledger cannot be reached: monitoring hears of it too.
                let failure = SyncError(message: "the shared ledger: " + SyncJob.oneLine("\(error)"), disposition: .terminal)
                try? writeSummary(started: started, status: ExitStatus.failed, jobs: results, message: failure.message)
                throw failure
            }
        } else {
            guard !worker else {
                throw SyncError(message: "--worker shares jobs through a PostgreSQL ledger: set ledger: postgres://… in \(config) (a SQLite ledger is one machine's)")
            }
            for job in jobs {
                let result = SyncJob(job: job, configuration: configuration, context: context).run()
                if let message = result.message { ExitStatus.printError("leadport: \(job.name): \(message)") }
                results.append(result)
            }
        }
        let status = ExitStatus.gravest(results.map(\.status))
        do { try writeSummary(started: started, status: status, jobs: results, message: nil) } catch {
            ExitStatus.printError("leadport: cannot write --summary-json \(summaryJson ?? ""): \(error.localizedDescription)")
            throw FinishedWithStatus(ExitStatus.failed)
        }
        if status != 0 { throw FinishedWithStatus(status) }
    }

    /// `--summary-json`: when the run started, how long it took, its exit status, and each job's.
    private func writeSummary(started: Date, status: Int32, jobs: [SyncJob.Result], message: String?) throws {
        guard let summaryJson else { return }
        var o = JSONObject()
        o.set("started", SyncJob.iso(started))
        o.set("seconds", Date().timeIntervalSince(started))
        o.set("status", Int(status))
        if let message { o.set("message", KnownSecrets.redact(message)) }
        o.set("jobs", json: "[" + jobs.map(\.json).joined(separator: ",") + "]")
        try (o.text + "\n").write(toFile: summaryJson, atomically: true, encoding: .utf8)
    }

    /// What a crontab line or unit file runs: the binary, the configuration and its folder,
    /// the logs, and the environment the run needs, since cron and systemd pass almost none.
    struct Launch {
        var binary: String
        /// Said in a comment when `binary` is the build's own (`make clean` deletes it).
        var binaryNote: String?
        var config: String
        var folder: String
        var logs: String
        /// NAME=value pairs the command is run with: `LEADPORT_CONFIG` (the config file in
        /// use, found again whatever HOME is), `HOME` (libpq's ~/.pgpass) and the settings set
        /// in this environment that hold no secret (`HUBSPOT_BASE_URL`).
        var environment: [(name: String, value: String)]
        /// What the comments say of the config file and of secrets set only here.
        var settingsNote: [String]
    }

    private func launch(_ configuration: SyncConfig) throws -> Launch {
        let config = ImportRequest.canonical(self.config)
        let environment = ProcessInfo.processInfo.environment
        let (binary, note) = Self.installedBinary(environment: environment)
        var carried: [(name: String, value: String)] = []
        var notes: [String] = []
        let settings = try Settings.load()
        if let path = settings.path {
            carried.append(("LEADPORT_CONFIG", ImportRequest.canonical(path)))
            notes.append("Credentials (HUBSPOT_TOKEN, …) and the configuration's $VARs come from \(ImportRequest.canonical(path)) (chmod 600), named by LEADPORT_CONFIG below.")
        } else {
            notes.append("No LeadPort config file was found (\(Settings.configPath(environment: environment) ?? "~/.config/leadport/config.yaml")): put the credentials (HUBSPOT_TOKEN, …) in one, chmod 600, and print this again.")
        }
        if let home = environment["HOME"], !home.isEmpty { carried.append(("HOME", home)) }
        let here = KnownSettings.names.filter { $0 != "LEADPORT_CONFIG" && settings.environment[$0].map { !$0.isEmpty } == true }.sorted()
        for name in here where !Settings.isSecret(name) { carried.append((name, settings.environment[name] ?? "")) }
        let secrets = here.filter { Settings.isSecret($0) && settings.file[$0] == nil }
        if !secrets.isEmpty {
            notes.append("Set only in this shell, which cron does not have: \(secrets.joined(separator: ", ")); add \(secrets.count == 1 ? "it" : "them") to \(settings.path ?? "the config file").")
        }
        return Launch(binary: binary, binaryNote: note, config: config, folder: (config as NSString).deletingLastPathComponent,
                      logs: ImportRequest.canonical(configuration.logs), environment: carried, settingsNote: notes)
    }

    /// The installed `leadport`: this binary when it is not a build's (under a `.build`
    /// folder), else the first on PATH that is not; else the build's, with a note saying so.
    static func installedBinary(environment: [String: String]) -> (path: String, note: String?) {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        func built(_ path: String) -> Bool { path.contains("/.build/") || path.contains("/.build-") }
        guard built(own) else { return (own, nil) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = String(folder) + "/leadport"
            let real = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
            if FileManager.default.isExecutableFile(atPath: candidate), !built(real) { return (candidate, nil) }
        }
        return (own, "This is the build's own binary, which `make clean` deletes: install it (docs/sync.md, section 1) and print this again.")
    }

    private func print(cron schedule: String, _ configuration: SyncConfig) throws {
        let p = try launch(configuration)
        let assignments = p.environment.map { "\($0.name)=\(Self.shellQuoted($0.value)) " }.joined()
        let comments = (["LeadPort sync of \(p.config): add with `crontab -e`."] + p.settingsNote + (p.binaryNote.map { [$0] } ?? [])
                        + ["Exit status 4 means the previous run was still going: nothing was done."]).map { "# " + $0 }.joined(separator: "\n")
        try StandardOutput.shared.write("""
            \(comments)
            \(schedule) \(Self.cronEscaped("mkdir -p \(Self.shellQuoted(p.logs)) && cd \(Self.shellQuoted(p.folder)) && \(assignments)\(Self.shellQuoted(p.binary)) sync --config \(Self.shellQuoted(p.config))\(configuration.shared != nil ? " --worker" : "") --progress none --summary-json \(Self.shellQuoted(p.logs + "/last-sync.json")) >> \(Self.shellQuoted(p.logs + "/cron.log")) 2>&1"))

            """)
    }

    private func printUnits(_ configuration: SyncConfig) throws {
        let p = try launch(configuration)
        let environment = p.environment.map { "Environment=\(Self.unitQuoted("\($0.name)=\($0.value)"))\n" }.joined()
        let notes = (p.settingsNote + (p.binaryNote.map { [$0] } ?? [])).map { "# " + $0 + "\n" }.joined()
        try StandardOutput.shared.write("""
            # ~/.config/systemd/user/leadport-sync.service (or /etc/systemd/system/ for a system unit)
            [Unit]
            Description=LeadPort sync of \(Self.unitEscaped(p.config))

            [Service]
            Type=oneshot
            WorkingDirectory=\(Self.unitEscaped(p.folder))
            \(environment)ExecStart=\(Self.unitQuoted(p.binary)) sync --config \(Self.unitQuoted(p.config))\(configuration.shared != nil ? " --worker" : "") --progress none --summary-json \(Self.unitQuoted(p.logs + "/last-sync.json"))
            \(notes)# A user unit runs while you are logged out only after: loginctl enable-linger
            # 4: the previous run was still going, and nothing was done: not a failure.
            SuccessExitStatus=4

            # ~/.config/systemd/user/leadport-sync.timer — then: systemctl --user enable --now leadport-sync.timer
            [Unit]
            Description=Run LeadPort sync nightly

            [Timer]
            OnCalendar=*-*-* 02:00:00
            Persistent=true

            [Install]
            WantedBy=timers.target

            """)
    }

    /// A path as systemd's command lines take it: in double quotes when it has a space, and
    /// `%` doubled (systemd reads `%x` as a specifier).
    static func unitQuoted(_ text: String) -> String {
        let escaped = unitEscaped(text)
        return escaped.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) ? "\"" + escaped.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" : escaped
    }

    static func unitEscaped(_ text: String) -> String { text.replacingOccurrences(of: "%", with: "%%") }

    /// A crontab command: `%` is cron's newline unless escaped.
    static func cronEscaped(_ text: String) -> String { text.replacingOccurrences(of: "%", with: "\\%") }

    /// Whether a field of a cron schedule is one cron takes: `*`, numbers within `range`,
    /// lists, ranges and steps of them (names of months and days too).
    static func cronField(_ field: Substring, _ range: ClosedRange<Int>) -> Bool {
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        return field.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { item in
            let parts = item.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, !parts[0].isEmpty else { return false }
            if parts.count == 2, Int(parts[1]).map({ $0 > 0 }) != true { return false }
            if parts[0] == "*" { return true }
            return parts[0].split(separator: "-", omittingEmptySubsequences: false).allSatisfy { bound in
                if let n = Int(bound) { return range.contains(n) }
                return names.contains(bound.lowercased())
            }
        }
    }

    static func shellQuoted(_ text: String) -> String {
        text.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+:@".contains($0) }) ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension SyncJob.Result {
    /// As `--summary-json` lists it.
    var json: String {
        var o = JSONObject()
        o.set("name", name)
        o.set("status", Int(status))
        o.set("run_id", runID)
        o.set("message", message)
        o.set("destinations", json: "[" + destinations.map(Self.json).joined(separator: ",") + "]")
        return o.text
    }

    static func json(_ run: LeadStore.SyncRun) -> String {
        var o = JSONObject()
        o.set("to", run.destination)
        o.set("pending", run.pending)
        for outcome in [Outcome.created, .updated, .unchanged, .skipped, .rejected, .failed] { o.set(outcome.rawValue, run.counts[outcome] ?? 0) }
        o.set("failures", json: JSONText.array(run.failures))
        o.set("stopped", run.stopped)
        return o.text
    }
}
