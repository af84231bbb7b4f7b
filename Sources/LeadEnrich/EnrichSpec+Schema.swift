import LeadCore

extension EnrichSpec {
    /// The `response_format` every request carries (OpenAI's structured outputs, `strict`): an
    /// object whose `rows` hold one object per row sent, each with the `id` LeadPort gave the
    /// row, its `check` copied back (a short token sent with the row: an answer whose ids were
    /// given to the wrong rows carries the wrong checks, and is not believed), and every field
    /// of the spec. Strict schemas require every property and forbid any other, so a field the
    /// model cannot answer is `null`, not left out.
    public var responseFormat: String {
        var item = JSONObject()
        item.set("type", "object")
        var properties = JSONObject()
        properties.set("id", json: #"{"type":"string","description":"the id of the row, exactly as given"}"#)
        properties.set("check", json: #"{"type":"string","description":"the row's check, copied exactly as given"}"#)
        for field in fields {
            var property = JSONObject()
            property.set("type", json: "[" + JSONText.quote(field.type.schema) + ",\"null\"]")
            if case .choice(let items) = field.type { property.set("enum", json: "[" + items.map(JSONText.quote).joined(separator: ",") + ",null]") }
            if let description = field.description { property.set("description", description) }
            properties.set(field.name, json: property.text)
        }
        item.set("properties", json: properties.text)
        item.set("required", json: JSONText.array(["id", "check"] + fields.map(\.name)))
        item.set("additionalProperties", false)
        var rows = JSONObject()
        rows.set("type", "array")
        rows.set("items", json: item.text)
        var schema = JSONObject()
        schema.set("type", "object")
        schema.set("properties", json: "{\"rows\":" + rows.text + "}")
        schema.set("required", json: #"["rows"]"#)
        schema.set("additionalProperties", false)
        var wrapper = JSONObject()
        wrapper.set("name", "leadport_rows")
        wrapper.set("strict", true)
        wrapper.set("schema", json: schema.text)
        var format = JSONObject()
        format.set("type", "json_schema")
        format.set("json_schema", json: wrapper.text)
        return format.text
    }
}
