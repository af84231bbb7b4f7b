/// Guesses what a column holds from its values, and which lead field it maps to from its
/// header and that guess. A first cut: the mapping issue replaces it with the full
/// auto-mapper (synonyms, data shape, confidence thresholds).
enum ColumnProfiler {
    static let states: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
        "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI",
        "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "PR",
    ]

    /// The kind most values (at least 80% of the non-empty ones) share, else `text`.
    static func kind(of values: [String]) -> String {
        guard !values.isEmpty else { return "empty" }
        let checks: [(String, (String) -> Bool)] = [
            ("email", { $0.contains("@") && $0.contains(".") && !$0.contains(" ") }),
            ("boolean", { ["true", "false", "yes", "no", "y", "n"].contains($0.lowercased()) }),
            ("date", isDate),
            ("zip", { $0.count == 5 && $0.allSatisfy(\.isNumber) || $0.count == 10 && $0.dropFirst(5).first == "-" }),
            ("phone", isPhone),
            ("state", { states.contains($0.uppercased()) }),
            ("number", { Double($0) != nil }),
            ("url", { $0.hasPrefix("http://") || $0.hasPrefix("https://") || $0.hasPrefix("www.") }),
        ]
        for (name, test) in checks where values.filter(test).count * 5 >= values.count * 4 {
            return name
        }
        return "text"
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "T" || $0 == " " })
        guard parts.count >= 3, text.contains("/") || text.contains("-") else { return false }
        let lengths = parts.prefix(3).map(\.count)
        guard parts.prefix(3).allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return false }
        // 2024-03-01, 3/1/2024, 01/03/24: a year of 4 digits at either end, or three short parts.
        return lengths == [4, 2, 2] || lengths[0] == 4 && lengths[1] <= 2 && lengths[2] <= 2
            || lengths[0] <= 2 && lengths[1] <= 2 && (lengths[2] == 4 || lengths[2] == 2)
    }

    static func isPhone(_ text: String) -> Bool {
        let digits = text.filter(\.isNumber).count
        let allowed = text.allSatisfy { $0.isNumber || " +-.()x".contains($0) }
        return allowed && digits >= 7 && digits <= 15
    }

    /// Header words → field, strongest first.
    static let synonyms: [(field: String, words: [String])] = [
        ("email", ["email", "e-mail", "email address", "correo", "correo electrónico"]),
        ("first_name", ["first name", "first", "given name", "firstname", "nombre"]),
        ("last_name", ["last name", "last", "surname", "family name", "lastname", "apellido", "apellidos"]),
        ("full_name", ["name", "full name", "contact", "owner name", "owner", "nombre completo"]),
        ("mobile", ["mobile", "cell", "cell phone", "mobile phone", "celular", "móvil"]),
        ("phone", ["phone", "phone number", "telephone", "tel", "teléfono", "telefono", "home phone", "work phone"]),
        ("unit", ["unit", "apt", "apartment", "suite", "address 2", "address line 2"]),
        ("address", ["address", "street", "street address", "property address", "address 1", "address line 1", "dirección", "direccion"]),
        ("city", ["city", "town", "ciudad"]),
        ("state", ["state", "province", "region", "st", "estado"]),
        ("zip", ["zip", "zip code", "zipcode", "postal code", "postcode", "código postal", "codigo postal"]),
        ("company", ["company", "organization", "business", "empresa"]),
        ("notes", ["notes", "note", "comments", "comment", "notas"]),
        ("source", ["source", "lead source"]),
        ("status", ["status", "stage"]),
    ]

    static let kindFields: [String: String] = ["email": "email", "phone": "phone", "zip": "zip", "state": "state"]

    static func suggest(header: String, kind: String) -> (field: String, confidence: Double)? {
        let h = header.lowercased().trimmingCharacters()
        if !h.isEmpty {
            for (field, words) in synonyms where words.contains(h) {
                return (field, kindFields[kind] == field || kindFields[kind] == nil ? 0.95 : 0.7)
            }
            for (field, words) in synonyms where words.contains(where: { $0.count > 3 && h.contains($0) }) {
                return (field, 0.7)
            }
        }
        if let field = kindFields[kind] { return (field, 0.6) }
        return nil
    }
}
