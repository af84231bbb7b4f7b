import Foundation
import LeadCore
import LeadEnrich
import Testing

/// The enrichment spec (issue 14 item 1): read from YAML with errors naming the line, and the
/// strict JSON schema every request carries.
@Suite struct EnrichSpecTests {
    static let example = """
        model: gpt-4o-mini
        instructions: |
          Say how likely each lead is to list their home this year.
        fields:
          status:
            enum: [hot, warm, cold, new]
            description: how warm the lead is
            maps_to: status
          score: {type: integer, description: 0 to 100}
          first_name: {type: string, maps_to: first_name}
          owner_occupied: boolean
        rows_per_request: 25
        max_cost: 2.5
        exclude: [Internal notes]
        """

    @Test func aFullSpecIsRead() throws {
        let spec = try EnrichSpec.parse(Self.example, path: "enrich.yaml")
        #expect(spec.model == "gpt-4o-mini")
        #expect(spec.instructions.hasPrefix("Say how likely"))
        #expect(spec.fields.map(\.name) == ["status", "score", "first_name", "owner_occupied"])
        #expect(spec.fields[0].type == .choice(["hot", "warm", "cold", "new"]) && spec.fields[0].mapsTo == .status)
        #expect(spec.fields[1].type == .integer && spec.fields[1].description == "0 to 100")
        #expect(spec.fields[3].type == .boolean)
        #expect(spec.rowsPerRequest == 25 && spec.maxCost == 2.5 && spec.exclude == ["Internal notes"] && spec.send == nil)
        // No prices given: the model's published ones.
        #expect(spec.prices(for: "gpt-4o-mini") == EnrichSpec.Prices(input: 0.15, output: 0.60))
        #expect(EnrichSpec.Prices(input: 0.15, output: 0.60).cost(input: 1_000_000, output: 500_000) == 0.45)
    }

    /// Each mistake is named with its line (1-based, as an editor shows it).
    @Test(arguments: [
        ("instructions: x\nfields:\n  a: {type: text}\ncolour: red\n", 4, "unknown key \"colour\""),
        ("instructions: x\nfields:\n  a: {type: date}\n", 3, "the type of a is one of string, integer, number, boolean"),
        ("instructions: x\nfields:\n  a: {enum: [hot, hot]}\n", 3, "names a choice twice"),
        ("instructions: x\nfields:\n  a: {enum: [hot, lukewarm], maps_to: status}\n", 3, "\"lukewarm\" is none of them"),
        ("instructions: x\nfields:\n  a: {type: string, maps_to: shoe_size}\n", 3, "maps_to of a names a lead field"),
        ("instructions: x\nfields:\n  id: string\n", 3, "LeadPort's own"),
        ("instructions: x\nfields:\n  a: string\nrows_per_request: 500\n", 4, "rows_per_request is a whole number from 1 to 200"),
        ("model: my-local-llama\ninstructions: x\nfields:\n  a: string\nmax_cost: 3\n", 5, "max_cost needs the prices of my-local-llama"),
        ("fields:\n  a: string\n", 1, "instructions are missing"),
        ("instructions: x\nfields: [a, b\n", 3, "not valid YAML"),
    ])
    func mistakesNameTheirLine(_ yaml: String, _ line: Int, _ message: String) throws {
        do {
            _ = try EnrichSpec.parse(yaml, path: "enrich.yaml")
            Issue.record("accepted: \(yaml)")
        } catch let error as EnrichSpecError {
            #expect(error.line == line, "\(error)")
            #expect(error.description.hasPrefix("enrich.yaml:\(line): "), "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    /// The response format is strict: every property required, no other allowed, the row id
    /// first, a field the model cannot answer null, an enum's choices (and null) only.
    @Test func theResponseFormatIsAStrictSchemaOfTheRows() throws {
        let spec = try EnrichSpec.parse(Self.example, path: "enrich.yaml")
        let format = try #require(try JSONSerialization.jsonObject(with: Data(spec.responseFormat.utf8)) as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let wrapper = try #require(format["json_schema"] as? [String: Any])
        #expect(wrapper["strict"] as? Bool == true && wrapper["name"] as? String == "leadport_rows")
        let schema = try #require(wrapper["schema"] as? [String: Any])
        #expect(schema["additionalProperties"] as? Bool == false && schema["required"] as? [String] == ["rows"])
        let item = try #require(((schema["properties"] as? [String: Any])?["rows"] as? [String: Any])?["items"] as? [String: Any])
        #expect(item["required"] as? [String] == ["id", "check", "status", "score", "first_name", "owner_occupied"])
        #expect(item["additionalProperties"] as? Bool == false)
        let properties = try #require(item["properties"] as? [String: Any])
        let status = try #require(properties["status"] as? [String: Any])
        #expect(status["type"] as? [String] == ["string", "null"])
        #expect((status["enum"] as? [Any])?.count == 5)
        #expect((properties["score"] as? [String: Any])?["type"] as? [String] == ["integer", "null"])
    }
}
