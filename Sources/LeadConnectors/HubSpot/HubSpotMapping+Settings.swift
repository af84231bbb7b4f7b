import Foundation

/// What `--to hubspot` sends beyond the standard properties, read from the settings (the
/// environment, or LeadPort's config file) because a destination is opened before the mapping
/// file is read and is never handed it (the `Destination` contract has no place for it):
///
/// | variable | meaning |
/// | --- | --- |
/// | `HUBSPOT_PROPERTIES` | `property=Column header` pairs, separated by commas or line breaks: the unmapped column's cell goes to that property (`lead_import_key=Row ID, property_type=Type`) |
/// | `HUBSPOT_ID_PROPERTY` | one of those properties, with unique values in HubSpot: contacts without an email are upserted by it instead of searched for |
/// | `HUBSPOT_NOTES_PROPERTY` | the property the lead's notes go to (a contact has no standard one) |
/// | `HUBSPOT_LIFECYCLE_STAGE` | a `lifecyclestage` for every contact sent (the account's internal value, `lead`) |
extension HubSpotMapping {
    public static let propertiesVariable = "HUBSPOT_PROPERTIES"
    public static let idPropertyVariable = "HUBSPOT_ID_PROPERTY"
    public static let notesPropertyVariable = "HUBSPOT_NOTES_PROPERTY"
    public static let lifecycleStageVariable = "HUBSPOT_LIFECYCLE_STAGE"

    /// Reads the variables above; unset ones leave the standard properties alone.
    /// - Throws: `HubSpotError` of kind `.configuration(variable:)` naming the variable.
    public init(settings: [String: String]) throws(HubSpotError) {
        func value(_ name: String) -> String? {
            settings[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var custom: [String: String] = [:]
        for pair in (value(Self.propertiesVariable) ?? "").split(whereSeparator: { $0 == "," || $0.isNewline }) {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty, Self.isPropertyName(parts[0]) else {
                throw HubSpotError(.configuration(variable: Self.propertiesVariable),
                                   "\(Self.propertiesVariable) holds \"\(pair.trimmingCharacters(in: .whitespaces))\": write property=Column header pairs separated by commas, as in lead_import_key=Row ID, property_type=Type")
            }
            custom[parts[0]] = parts[1]
        }
        let idProperty = value(Self.idPropertyVariable)
        if let idProperty, custom[idProperty] == nil {
            throw HubSpotError(.configuration(variable: Self.idPropertyVariable),
                               "\(Self.idPropertyVariable) names \"\(idProperty)\", which \(Self.propertiesVariable) does not fill: add \(idProperty)=<the column holding it> to \(Self.propertiesVariable)")
        }
        let notes = value(Self.notesPropertyVariable)
        if let notes, !Self.isPropertyName(notes) {
            throw HubSpotError(.configuration(variable: Self.notesPropertyVariable),
                               "\(Self.notesPropertyVariable) is not a property's internal name (letters, digits and underscores, as in lead_notes)")
        }
        self.init(customProperties: custom, notesProperty: notes, lifecycleStage: value(Self.lifecycleStageVariable), idProperty: idProperty)
    }

    /// A HubSpot internal property name: a letter, then letters, digits and underscores.
    static func isPropertyName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
