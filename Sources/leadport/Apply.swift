import ArgumentParser
import Foundation
import LeadEngine

/// `leadport apply PLAN.json`: the import a plan was made from, run again, writing only what the
/// plan says and only where nothing moved since.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Carry out a plan made by `leadport import … --plan FILE.json`, refusing each row that changed since.",
        discussion: """
            The import is run again from the directory it was planned in, with its files, \
            mapping and destinations. Each row the plan would create or update is written only \
            when the file still has it as planned and the destination still holds what the plan \
            read there; otherwise it is refused with the reason (rejected: changed at the \
            destination, or in the file; skipped: not in the plan). Rows unchanged then are left \
            alone, as a rerun leaves them. A PostgreSQL password is not kept in the plan: give it \
            in PGPASSWORD or ~/.pgpass. Credentials come from the environment, as for import.
            Exit status: as for import (3 when some rows were refused).
            """
    )

    @Argument(help: "The plan file (JSON) written by import --plan.")
    var plan: String

    @OptionGroup var output: OutputOptions

    @OptionGroup var rejected: RejectsOptions

    @OptionGroup var progress: ProgressOptions

    func run() throws {
        let file = try PlanFile(path: plan)
        // The outputs are where this command was given them; the plan's own paths (files,
        // mapping, ledger) are where it was made.
        func absolute(_ path: String?) -> String? { path.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }
        var arguments = file.arguments
        for (name, value) in [("--report", absolute(output.report)), ("--rejects", absolute(rejected.rejects)), ("--export", absolute(output.export))] {
            if let value { arguments += [name, value] }
        }
        arguments += ["--progress", progress.progress.rawValue]
        guard FileManager.default.changeCurrentDirectoryPath(file.directory) else {
            throw PlanError("the plan was made in \(file.directory), which is not there any more; make a new plan")
        }
        let command: Import
        do {
            command = try Import.parse(arguments)
        } catch {
            throw PlanError("the plan's import cannot be run again (\(Import.message(for: error))); make a new plan")
        }
        try command.run(applying: file.check)
    }
}
