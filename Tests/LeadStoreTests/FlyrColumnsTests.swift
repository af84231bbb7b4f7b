import Foundation
import GRDB
import LeadCore
@testable import LeadStore
import Testing

/// FLYR's tables as `FlyrColumns` describes them, as `sql/flyr-schema.sql` creates them on a
/// server, and as the embedded file's migrations make them: every column LeadPort writes is in
/// each definition, in the description's order.
@Suite struct FlyrColumnsTests {
    static let tables = ["contacts", "campaign_addresses"]

    static func written(_ table: String) -> [String] {
        table == "contacts" ? FlyrColumns.newContact.map(\.name) : FlyrColumns.newAddress.map(\.name)
    }

    /// The table's columns in `sql/flyr-schema.sql`, in order.
    static func schema(_ table: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sql = try String(contentsOf: root.appendingPathComponent("sql/flyr-schema.sql"), encoding: .utf8)
        let start = try #require(sql.range(of: "CREATE TABLE IF NOT EXISTS \(table) ("))
        let end = try #require(sql.range(of: "\n);", range: start.upperBound..<sql.endIndex))
        return sql[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let word = line.split(separator: " ").first.map(String.init)
            return word == nil || word == "CONSTRAINT" ? nil : word
        }
    }

    /// The table's columns in the embedded file, in order.
    static func embedded(_ table: String) throws -> [String] {
        let store = try LeadStore(path: ":memory:")
        return try store.db.read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] } }
    }

    /// Whether `columns` holds every one of `written`, in the same order.
    static func holds(_ columns: [String], inOrder written: [String]) -> Bool {
        let positions = written.map { columns.firstIndex(of: $0) }
        return !positions.contains(nil) && positions == positions.sorted { ($0 ?? 0) < ($1 ?? 0) }
    }

    @Test(arguments: tables)
    func theServersSchemaHoldsTheColumnsInOrder(table: String) throws {
        let columns = try Self.schema(table)
        #expect(Self.holds(columns, inOrder: Self.written(table)), "sql/flyr-schema.sql's \(table): \(columns)")
    }

    @Test(arguments: tables)
    func theEmbeddedFileHoldsTheColumnsInOrder(table: String) throws {
        let columns = try Self.embedded(table)
        #expect(Self.holds(columns, inOrder: Self.written(table)), "the embedded file's \(table): \(columns)")
    }

    /// What a record fills is what a new row writes: the contact's columns and the address's
    /// (its position after its text columns), each once, in the row's order.
    @Test func theRecordsColumnsAreTheRowsColumns() {
        #expect(Self.holds(Self.written("contacts"), inOrder: FlyrColumns.contact.map(\.name).filter { $0 != "status" }))
        #expect(Self.written("contacts").contains("status"))
        #expect(Self.holds(Self.written("campaign_addresses"), inOrder: FlyrColumns.address.map(\.name) + [FlyrColumns.coordinate.name]))
        #expect(Set(FlyrColumns.contact.map(\.name)).count == FlyrColumns.contact.count)
    }

    /// A row read back by name is the record that was written.
    @Test func anAddressReadBackIsTheRecord() {
        var address = PostalAddress()
        (address.houseNumber, address.streetName, address.streetSuffix, address.unitType, address.unitID) = ("12", "Oak", "St", "Apt", "4")
        (address.city, address.state, address.postalCode, address.zip4) = ("Springfield", "IL", "62704", "1234")
        let record = AddressRecord(address)
        let row = Dictionary(uniqueKeysWithValues: record.columns.map { ($0.column, $0.value) })
        #expect(AddressRecord(reading: { row[$0] ?? nil }) == record)
    }
}
