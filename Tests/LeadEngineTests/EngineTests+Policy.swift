import Foundation
import LeadConnectors
import LeadEngine
import LeadNormalize
import Testing

/// The mapping's modes, as the engine applies them for every destination (issue 13, item 4):
/// from the ledger, and from what `prepare` found at the destination.
extension EngineTests {
    func mapping(_ policyLines: String) throws -> Mapping {
        let path = dir.appendingPathComponent("mapping-\(UUID().uuidString).yaml").path
        try ("columns: {Name: full_name, Email: email, Phone: phone}\n" + policyLines).write(toFile: path, atomically: true, encoding: .utf8)
        return try Mapping.load(path: path)
    }

    @Test func createOnlySkipsLeadsTheLedgerKnowsOrPrepareFindsAndWritesNothingForThem() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination()
        _ = try run(try list(10), to: memory)
        let sent = memory.batches.count
        // Row 4 changed (the ledger has it), row 13 new but already at the destination, row 12 new.
        memory.present = ["p12@example.com"]
        let file = try list(12) { k, cells in if k == 3 { cells[2] = "617-555-9999" } }
        let (summary, rows) = try run(file, to: memory, mapping: try mapping("mode: create_only"))
        #expect(summary.counts[.created] == 1 && summary.counts[.skipped] == 2 && summary.counts[.unchanged] == 9, "\(summary.counts)")
        #expect(rows[4]?.outcome == .skipped && rows[4]?.reason == "create_only: already at the destination")
        #expect(rows[13]?.outcome == .skipped && rows[13]?.reason == "create_only: already at the destination")
        #expect(rows[12]?.outcome == .created)
        #expect(memory.batches.count == sent + 1 && memory.batches.last == 1, "only the new lead is sent: \(memory.batches)")
        #expect(memory.configured.map(\.mode) == [.upsert, .createOnly], "once a run")
    }

    @Test func updateOnlySkipsLeadsNeitherTheLedgerNorPrepareKnowsAndARerunSendsNothing() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination()
        memory.present = ["p2@example.com"]
        let file = try list(5)
        // A section names a --to kind (a file naming "memory" is refused); the memory
        // destination's kind is its name.
        var own = try mapping("")
        own.destinations = ["memory": Mapping.DestinationSection(mode: .updateOnly)]
        let (first, rows) = try run(file, to: memory, mapping: own)
        #expect(first.counts[.updated] == 1 && first.counts[.skipped] == 4, "\(first.counts)")
        #expect(rows[3]?.outcome == .updated && rows[3]?.remoteID == "m-found-p2@example.com")
        #expect(rows[2]?.reason == "update_only: not at the destination")
        #expect(memory.count == 1)
        let (second, _) = try run(file, to: memory, mapping: own)
        #expect(second.counts[.unchanged] == 1 && second.counts[.skipped] == 4 && memory.batches.count == 1, "\(second.counts)")
    }

    @Test func theEmbeddedDatabaseTakesTheModesFromItsLedger() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "sqlite:" + dir.appendingPathComponent("ledger.db").path
        _ = try run(try list(5), embedded: true, to: [])
        let changed = try list(6) { k, cells in if k == 1 || k == 2 { cells[2] = "617-555-999\(k)" } }
        let (updating, byName) = try run(changed, embedded: true, to: [], mapping: try mapping("mode: update_only"))
        #expect(updating.counts[.updated] == 2 && updating.counts[.skipped] == 1 && updating.counts[.unchanged] == 3, "\(updating.counts)")
        #expect(byName[name]?[7]?.reason == "update_only: not at the destination")
        let again = try list(6) { k, cells in if k == 3 { cells[2] = "617-555-9993" } }
        let (creating, rows) = try run(again, embedded: true, to: [], mapping: try mapping("destinations: {sqlite: {mode: create_only}}"))
        #expect(rows[name]?[7]?.outcome == .created && rows[name]?[4]?.reason == "create_only: already at the destination", "\(creating.counts)")
    }

    /// A policy is how an update is applied, not part of what is sent: changing it alone sends
    /// nothing (docs/destinations.md, "Modes and update policies").
    @Test func aChangeOfPolicyAloneIsNotAnUpdate() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination()
        memory.takesFieldPolicies = true
        let file = try list(10)
        _ = try run(file, to: memory, mapping: try mapping(""))
        let sent = memory.batches.count
        let (rerun, _) = try run(file, to: memory, mapping: try mapping("update: {phone: never, email: fill_blank}"))
        #expect(rerun.counts[.unchanged] == 10 && memory.batches.count == sent)
        #expect(memory.configured.last?.update == ["phone": .never, "email": .fillBlank])
    }

    @Test func aDestinationThatCannotHonourAFieldPolicyRefusesItBeforeAnyRow() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = MemoryDestination()
        do {
            _ = try run(try list(3), to: memory, mapping: try mapping("update: {phone: fill_blank}"))
            Issue.record("the run went on")
        } catch let error as DestinationError {
            #expect(error.disposition == .usage)
            #expect(error.description.hasPrefix("memory: the mapping asks for fill_blank on phone, which memory cannot do (it takes: overwrite)"), "\(error)")
        }
        #expect(memory.batches.isEmpty)
    }

    @Test func theMappingNamesEveryDestinationKindTheRegistryHas() {
        #expect(Set(Mapping.destinationKinds) == Set(DestinationRegistry.entries.map(\.kind)))
    }
}
