import Foundation
import LeadConnectors
import LeadCore
import LeadWriters

/// A job's PostgreSQL source read incrementally: the rows whose
/// (`updated`, `id`) come after the watermark, in that order, a page at a time, written to a CSV
/// file the import then reads like any list, with each row's (`updated`, `id`) in a file beside
/// it. Rows sharing a timestamp are told apart by the id, so none is missed and none read twice
/// however many share one.
public struct TableExport {
    /// A position in the table: the `updated` column's text and the id's, as PostgreSQL writes them.
    public struct Watermark: Sendable, Equatable {
        public var updated: String
        public var id: String

        public init(updated: String, id: String) { (self.updated, self.id) = (updated, id) }

        /// As the job's state keeps it.
        public var text: String { updated + "\t" + id }

        public init?(text: String) {
            let parts = text.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            (updated, id) = (String(parts[0]), String(parts[1]))
        }
    }

    public let source: SyncConfig.TableSource
    /// Rows a query reads at most (LEADPORT_SYNC_PAGE_ROWS, for tests that need pages to end
    /// inside a run of equal timestamps).
    public var pageRows = ProcessInfo.processInfo.environment["LEADPORT_SYNC_PAGE_ROWS"].flatMap { Int($0) }.map { max(1, $0) } ?? 5_000

    public init(source: SyncConfig.TableSource) { self.source = source }

    /// Columns not sent: the position's own two, when the row was made, and references to other
    /// rows (`…_id`), which mean nothing at a destination.
    static func kept(_ column: String, _ source: SyncConfig.TableSource) -> Bool {
        column != source.updated && column != source.id && column != "created_at" && !column.hasSuffix("_id")
    }

    /// Writes the rows after `after` (all, when nil) to `csv` and their positions to `keys`, one
    /// line per row; returns how many.
    public func write(after: Watermark?, csv: String, keys: String) throws -> Int {
        let connection = try PostgresConnection(url: source.url)
        let (schema, name) = source.table.contains(".") ? (String(source.table.split(separator: ".")[0]), String(source.table.split(separator: ".")[1])) : ("", source.table)
        let columns = try connection.execute("""
            SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND (table_schema = $2 OR ($2 = '' AND table_schema = ANY (current_schemas(false))))
            ORDER BY ordinal_position
            """, [name, schema]).compactMap { $0[0] }
        guard !columns.isEmpty else {
            throw SyncSourceError(message: "\(Postgres.displayName(source.url)) has no table \(source.table) (or this user may not see it)")
        }
        for needed in [source.updated, source.id] where !columns.contains(needed) {
            throw SyncSourceError(message: "the table \(source.table) has no column \(needed): name the columns of the watermark with updated_column: and id_column:")
        }
        let sent = columns.filter { Self.kept($0, source) }
        let writer = try CSVWriter(path: csv, protectFormulas: false)
        try writer.write(sent)
        guard let keyFile = FileHandle(forWritingAtPath: keys) ?? (FileManager.default.createFile(atPath: keys, contents: nil) ? FileHandle(forWritingAtPath: keys) : nil) else {
            throw SyncSourceError(message: "cannot write \(keys)")
        }
        defer { try? keyFile.close() }
        try keyFile.truncate(atOffset: 0)
        func quoted(_ column: String) -> String { "\"" + column + "\"" }
        let list = sent.map { quoted($0) + "::text" }.joined(separator: ", ")
        let position = "(\(quoted(source.updated)), \(quoted(source.id)))"
        // The position's text cast back to the columns' own types, so that the comparison is
        // theirs (a timestamp's, a uuid's, an integer's), as ORDER BY sorts them.
        let types = (try type(of: source.updated, connection, schema: schema, table: name), try type(of: source.id, connection, schema: schema, table: name))
        // Rows stamped before this are settled: no transaction open now can still commit one.
        let horizon = try connection.execute("SELECT (now() - make_interval(secs => $1::int))::text", [String(source.lag)]).first?.first ?? nil
        var mark = after
        var count = 0
        while true {
            var conditions = ["\(quoted(source.updated)) IS NOT NULL"]
            if let filter = source.filter { conditions.append("(\(filter))") }
            var parameters: [String?] = []
            if let mark {
                conditions.append("\(position) > (CAST($1 AS \(types.0)), CAST($2 AS \(types.1)))")
                parameters = [mark.updated, mark.id]
            }
            // The position's two columns are named apart from the table's: an ORDER BY name that
            // is also an output column's sorts by the output (their text: 10 before 9, and past
            // any index on them) instead of by the columns the WHERE above compares.
            parameters.append(horizon)
            let settled = "(\(quoted(source.updated)) < CAST($\(parameters.count) AS \(types.0)))::text AS leadport_settled"
            let rows = try connection.execute("""
                SELECT \(quoted(source.updated))::text AS leadport_position_updated, \(quoted(source.id))::text AS leadport_position_id, \(settled)\(list.isEmpty ? "" : ", " + list)
                FROM \(source.table.split(separator: ".").map { quoted(String($0)) }.joined(separator: "."))
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(quoted(source.updated)), \(quoted(source.id)) LIMIT \(pageRows)
                """, parameters)
            var lines = ""
            for row in rows {
                try writer.write(row.dropFirst(3).map { $0 ?? "" })
                // Position, then whether it is settled (older than the lag): "t" or "f".
                lines += (row[0] ?? "") + "\t" + (row[1] ?? "") + "\t" + (row[2] ?? "f") + "\n"
            }
            try keyFile.write(contentsOf: Data(lines.utf8))
            count += rows.count
            guard rows.count == pageRows, let last = rows.last else { break }
            mark = Watermark(updated: last[0] ?? "", id: last[1] ?? "")
        }
        try writer.close()
        return count
    }

    private func type(of column: String, _ connection: PostgresConnection, schema: String, table: String) throws -> String {
        let found = try connection.execute("""
            SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relname = $1 AND a.attname = $2 AND ($3 = '' AND pg_table_is_visible(c.oid) OR n.nspname = $3)
            """, [table, column, schema])
        guard let type = found.first?[0] ?? nil else { return "text" }
        return type
    }

    /// Where the watermark moves once rows 1 through `through` (1-based) of a keys file written
    /// by `write` are finished: to the last of them that is settled (rows come in order, so the
    /// settled ones come first). Nil: none is.
    public static func watermark(keys: String, through: Int) throws -> Watermark? {
        guard through >= 1, let text = try? String(contentsOfFile: keys, encoding: .utf8) else { return nil }
        var n = 0
        var last: Watermark?
        for entry in text.split(separator: "\n", omittingEmptySubsequences: true) {
            n += 1
            guard n <= through else { break }
            let parts = entry.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2] == "t" || parts[2] == "true" else { break }
            last = Watermark(updated: String(parts[0]), id: String(parts[1]))
        }
        return last
    }
}

/// A job's table cannot be read as configured.
public struct SyncSourceError: Error, CustomStringConvertible, Classified {
    public var message: String
    public var disposition: FailureDisposition { .usage }
    public var description: String { message }
}
