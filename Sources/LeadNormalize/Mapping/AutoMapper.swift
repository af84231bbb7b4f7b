import Foundation
import LeadCore

/// Suggests a mapping from headers and the shape of the data: header synonyms (English, and
/// common Spanish and French ones) and what the values look like (a column of email addresses
/// is email whatever its header), each suggestion with a confidence from 0 to 1.
public enum AutoMapper {
    public struct Suggestion: Sendable, Equatable {
        public var column: Int
        public var header: String
        public var field: LeadField?
        public var confidence: Double
        public var why: String
    }

    /// Below this a column is left unmapped; an identifying field below it stops an import.
    public static let threshold = 0.7

    static let synonyms: [(LeadField, [String])] = [
        (.email, ["email", "e-mail", "email address", "e-mail address", "emails", "primary email", "correo", "correo electronico", "email 1", "courriel", "adresse courriel", "adresse email", "adresse e-mail", "adresse electronique"]),
        (.firstName, ["first name", "first", "given name", "firstname", "fname", "owner first name", "owner 1 first name", "nombre", "primer nombre", "prenom"]),
        (.lastName, ["last name", "last", "surname", "family name", "lastname", "lname", "owner last name", "owner 1 last name", "apellido", "apellidos", "nom", "nom de famille"]),
        (.fullName, ["name", "full name", "contact", "contact name", "owner name", "owner", "owner 1", "client", "lead name", "nm", "first last", "last first", "first and last name", "nombre completo", "cliente", "nom complet"]),
        (.mobile, ["mobile", "cell", "cell phone", "mobile phone", "cellphone", "cell number", "cell no", "mobile number", "mobile no", "celular", "movil", "telefono movil", "portable", "telephone portable"]),
        (.phone, ["phone", "phone number", "telephone", "tel", "home phone", "work phone", "phone 1", "primary phone", "ph", "phone no", "tel no", "telephone number", "telefono", "numero de telefono"]),
        (.unit, ["unit", "apt", "apartment", "suite", "address 2", "address line 2", "addr 2", "addr line 2", "street 2", "unit number"]),
        (.address, ["address", "street", "street address", "property address", "site address", "address 1", "address line 1", "addr", "street addr", "property addr", "site addr", "addr 1", "addr line 1", "street 1", "direccion", "domicilio", "calle", "adresse", "rue"]),
        (.city, ["city", "town", "property city", "site city", "locality", "ciudad", "municipio", "ville", "commune"]),
        (.state, ["state", "province", "st", "property state", "site state", "state/province", "estado", "provincia"]),
        (.zip, ["zip", "zip code", "zipcode", "postal code", "postcode", "property zip", "site zip", "zip/postal code", "zip5", "zip 5", "situs zip", "postal", "post code", "property postal code", "codigo postal", "cp", "code postal"]),
        (.country, ["country", "pais", "pays"]),
        (.mailingAddress, ["mailing address", "mail address", "mailing street", "mailing street address", "mail street", "owner mailing address", "mailing address 1", "mailing addr", "mail addr", "owner mailing addr"]),
        (.mailingCity, ["mailing city", "mail city"]),
        (.mailingState, ["mailing state", "mail state"]),
        (.mailingZip, ["mailing zip", "mail zip", "mailing zip code", "mailing postal code", "mailing zip5", "mail zip5", "mailing postal", "mail postal", "mail postal code", "mailing post code", "mail post code", "mailing postcode", "mail postcode"]),
        (.company, ["company", "organization", "organisation", "business", "company name", "empresa", "compania", "entreprise", "societe"]),
        (.notes, ["notes", "note", "comments", "comment", "description", "notas", "comentarios", "remarques", "commentaires"]),
        (.source, ["source", "lead source", "fuente", "origen"]),
        (.status, ["status", "stage", "lead status", "estado del lead"]),
        (.latitude, ["latitude", "lat", "property latitude", "site latitude", "gps latitude", "latitud"]),
        (.longitude, ["longitude", "long", "lng", "lon", "property longitude", "site longitude", "gps longitude", "longitud"]),
        (.date, ["date", "created", "created at", "create date", "date added", "signed up", "sale date", "last sale date", "fecha"]),
    ]

    /// The synonyms folded as headers are, so `e-mail` matches the header `E-Mail:`.
    static let foldedSynonyms: [(LeadField, [String])] = synonyms.map { ($0.0, $0.1.map(fold)) }

    /// Each folded synonym's words, in `foldedSynonyms`' order.
    static let synonymWords: [[[Substring]]] = foldedSynonyms.map { $0.1.map { $0.split(separator: " ") } }

    /// Lower case, accents and punctuation folded, so `E-Mail:` and `Teléfono` match.
    static func fold(_ header: String) -> String {
        let folded = header.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        let spaced = String(folded.map { $0.isLetter || $0.isNumber || $0 == "/" ? $0 : " " })
        return spaced.split(separator: " ").joined(separator: " ")
    }

    /// The field whose synonym appears in the header as whole words: the longest synonym wins,
    /// and of two as long the later one, since an English header ends in its noun
    /// (`Last Sale Date` is a date, `Owner 1 First Name` a first name).
    static func partialMatch(_ folded: String) -> LeadField? {
        let padded = " " + folded + " "
        // A synonym can only match when each of its words is a word of the header: checking
        // that first spares Foundation's search (which copies the header each time) for
        // nearly all of the 150 synonyms, and for nearly every header.
        let words = Set(folded.split(separator: " "))
        var best: (field: LeadField, length: Int, end: Int)?
        for ((field, names), nameWords) in zip(foldedSynonyms, synonymWords) {
            // Short synonyms (`st`, `tel`, `cp`) are words inside too many headers; `zip` is not.
            // `long` as a word is mostly not a longitude (`Long Description`), nor `postal` a ZIP
            // (`Postal Carrier Route`): whole headers only.
            for (name, needed) in zip(names, nameWords) where (name.count > 3 || name == "zip") && name != "long" && name != "postal" {
                guard needed.allSatisfy(words.contains),
                      let range = padded.range(of: " " + name + " ", options: .backwards) else { continue }
                let end = padded.distance(from: padded.startIndex, to: range.upperBound)
                if best == nil || name.count > best!.length || (name.count == best!.length && end > best!.end) {
                    best = (field, name.count, end)
                }
            }
        }
        return best?.field
    }

    /// What the values look like, when at least 80% of the non-empty ones agree.
    static func shape(of values: [String]) -> LeadField? {
        let sample = values.prefix(200)
        guard !sample.isEmpty else { return nil }
        func share(_ test: (String) -> Bool) -> Bool { sample.filter(test).count * 5 >= sample.count * 4 }
        // Decimal degrees (`38.581572`, `-121.434879`) are neither phones nor dates; which of
        // latitude and longitude they are, only the header says.
        if share(isDegrees) { return nil }
        // An address that needs a repair (a space inside, a trailing dot) is invalid, but still an email.
        if share({ let r = EmailRule.normalize($0); return r.valid || r.suggestion != nil }) { return .email }
        if share({ v in v.filter(\.isNumber).count >= 7 && PhoneRule.normalize(v, wantType: false).possible && !v.contains("/") && !(v.count == 10 && v.dropFirst(4).first == "-") }) { return .phone }
        if share({ v in (v.count == 5 || v.count == 10) && v.prefix(5).allSatisfy(\.isNumber) }) { return .zip }
        if share({ v in v.count == 2 && StateTable.code(for: v) != nil }) { return .state }
        if share({ v in v.first?.isNumber == true && AddressRule.parseStreetLine(v).address.streetSuffix != nil }) { return .address }
        if share({ v in v.contains(where: { !$0.isNumber }) && DateRule.normalize(v, order: .mdy).valid }) { return .date }
        return nil
    }

    /// A decimal with at least three places within ±180: how lists give latitudes and longitudes.
    public static func isDegrees(_ text: String) -> Bool {
        guard let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 3,
              let value = Coordinate.degrees(text) else { return false }
        return abs(value) <= 180
    }

    /// The owner's mailing address's part for each of the property address's.
    static let mailingPart: [LeadField: LeadField] = [.address: .mailingAddress, .city: .mailingCity, .state: .mailingState, .zip: .mailingZip]

    /// Whether a header names the owner's mailing address (`Mailing Zipcode`, `Mail Zip Code`,
    /// `MAIL_ZIP_CODE`): a word `mailing`, or `mail` not after `e` (`E-Mail`).
    static func isMailing(_ folded: String) -> Bool {
        let words = folded.split(separator: " ")
        return words.indices.contains { k in words[k] == "mailing" || (words[k] == "mail" && (k == 0 || words[k - 1] != "e")) }
    }

    public static func suggest(header: String, values: [String], column: Int) -> Suggestion {
        let h = fold(header)
        let shaped = shape(of: values)
        var byHeader: (LeadField, Double)?
        if !h.isEmpty {
            if let exact = foldedSynonyms.first(where: { $0.1.contains(h) }) {
                byHeader = (exact.0, 0.9)
            } else if let partial = partialMatch(h) {
                byHeader = (partial, 0.75)
            }
        }
        // A mailing header whose words name a part of an address is the mailing address's part,
        // whatever synonym it matched (`Mailing Zipcode` holds `zipcode`): never the property's.
        if let (field, confidence) = byHeader, let mailing = mailingPart[field], isMailing(h) {
            let agrees = shaped == field
            return Suggestion(column: column, header: header, field: mailing, confidence: agrees ? 0.99 : confidence,
                              why: agrees ? "header and values agree" : "header")
        }
        switch (byHeader, shaped) {
        case let ((field, _)?, shape?) where shape == field || (shape == .phone && field == .mobile):
            return Suggestion(column: column, header: header, field: field, confidence: 0.99, why: "header and values agree")
        case let ((field, confidence)?, shape?) where [.email, .phone].contains(shape) && ![.email, .phone, .mobile].contains(field):
            // The values are unmistakable; the header is not.
            return Suggestion(column: column, header: header, field: shape, confidence: 0.85, why: "values look like \(shape.rawValue), header suggests \(field.rawValue) (\(confidence))")
        case let ((field, confidence)?, _):
            return Suggestion(column: column, header: header, field: field, confidence: confidence, why: "header")
        case let (nil, shape?):
            let confidence = [.email, .phone].contains(shape) ? 0.85 : 0.5
            return Suggestion(column: column, header: header, field: shape, confidence: confidence, why: "values look like \(shape.rawValue)")
        case (nil, nil):
            return Suggestion(column: column, header: header, field: nil, confidence: 0, why: "no match")
        }
    }

    /// A mapping from the suggestions at or above the threshold; each field goes to the most
    /// confident column (the others stay extras), a full name's column with `order: auto`.
    public static func mapping(headers: [String], suggestions: [Suggestion]) -> Mapping {
        var mapping = Mapping()
        var taken: [LeadField: Double] = [:]
        for s in suggestions.sorted(by: { $0.confidence > $1.confidence }) {
            guard let field = s.field, s.confidence >= threshold, taken[field] == nil else { continue }
            let header = s.header.isEmpty ? Column.letters(for: s.column) : s.header
            // A name column found without a mapping is read in the order its values show: an
            // assessor's SMITH JOHN & MARY surname first, an ordinary John Smith as written.
            mapping.columns[header] = ColumnRule(field, order: field == .fullName ? .auto : nil)
            taken[field] = s.confidence
        }
        return mapping
    }
}
