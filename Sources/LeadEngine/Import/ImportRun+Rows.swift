import Foundation
import LeadConnectors
import LeadCore
import LeadNormalize
import LeadPortKit
import LeadReaders

/// One row on its way to a lead: built, keyed, hashed, and checked, on any thread.
extension ImportRun {
    /// Everything about one row that does not depend on the rows before it: the lead, its key
    /// and hash, and whether it is blank or rejected. Runs on any thread.
    /// The lead is encoded for each destination as that destination encodes what it is sent
    /// (`Destination.encoder`): here, on the build threads, rather than on the delivery thread.
    static func prepare(_ row: RawRow, builder: LeadBuilder, plan: ColumnPlan, lanes: [Lane], exclusions: [ExclusionList] = []) -> Pending {
        let lead = builder.build(row)
        let key = DedupeKey.make(lead, kinds: plan.mapping.dedupe)
        let encoded = lanes[0].encoder(lead)
        let otherEncoded = lanes.count == 1 ? [] : lanes.dropFirst().map { $0.encoder(lead) }
        var outcome: Outcome?, reason: String?, stage: RejectStage?
        // Cells of spaces alone (`   ,  ,`) are as blank as empty ones.
        if row.isBlank || row.cells.allSatisfy({ $0.trimmed.isEmpty }) {
            (outcome, reason) = (.skipped, "blank row")
        } else if let (rejectedAt, why) = rejection(lead, plan: plan) {
            (outcome, reason, stage) = (.rejected, why, rejectedAt)
        } else if let list = exclusions.first(where: { $0.excludes(lead) }) {
            // On a do-not-contact list: sent nowhere.
            (outcome, reason) = (.skipped, list.reason)
        }
        let gaps = Gaps.of(lead)
        // Built last, so the lead moves into it instead of being copied.
        return Pending(box: LeadBox(lead), cells: row.cells, numericCells: row.numericCells, key: key, encoded: encoded, otherEncoded: otherEncoded,
                       outcome: outcome, reason: reason, stage: stage, gaps: gaps)
    }

    /// The processed sheet for one input is named after its file.
    func sheetName(file: String) -> String {
        ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// The cells padded or cut to the list's width, so every row lines up under the header.
    /// (A row wider than the list carries its extra cells in its issues.)
    func fitted(_ cells: [String], _ width: Int) -> [String] {
        if cells.count > width { return Array(cells.prefix(width)) }
        return cells.count == width ? cells : cells + Array(repeating: "", count: width - cells.count)
    }

    /// Why a lead cannot be imported, and at which stage, or nil.
    static func rejection(_ lead: Lead, plan: ColumnPlan) -> (RejectStage, String)? {
        let hasAddress = lead.address.hasDeliveryLine
        if lead.fullName == nil && lead.email == nil && lead.phone == nil && lead.mobile == nil && !hasAddress {
            let readProblems = lead.issues.filter { $0.code.isReadProblem }.map(\.message)
            if !readProblems.isEmpty { return (.read, readProblems.joined(separator: "; ")) }
            let problems = lead.issues.filter { $0.code != .repairedValue && $0.code != .emailSuggestion }.map(\.message)
            return (.normalize, problems.isEmpty ? "no name, email, phone or address" : problems.joined(separator: "; "))
        }
        for field in plan.mapping.required where !RequiredField.isPresent(field, in: lead) {
            let columns = plan.fields.filter { RequiredField.feeds($0.value, field) }.map(\.key).sorted()
            // A value that was there but did not pass its rule says why; otherwise it is empty.
            if let problem = lead.issues.first(where: { issue in
                issue.code != .repairedValue && issue.code != .emailSuggestion && columns.contains { $0 == issue.location?.column?.index }
            }) {
                return (.normalize, "required \(field.rawValue): \(problem.message)")
            }
            let named = columns.map { k in k < plan.headers.count && !plan.headers[k].isEmpty ? "\"\(plan.headers[k])\"" : Column.letters(for: k) }
            if named.isEmpty { return (.normalize, "required \(field.rawValue) is not mapped to any column") }
            return (.normalize, "required \(field.rawValue) is empty (column \(named.joined(separator: ", ")))")
        }
        return nil
    }
}
