// FLYR's `contacts` and `campaign_addresses` columns, written out once.

/// FLYR's `contacts` and `campaign_addresses` as LeadPort writes them: which columns, in which
/// order, and where each value comes from. Every writer iterates these lists (the embedded
/// file's statements, PostgreSQL's COPY and INSERT, Supabase's JSON), and so do the reads that
/// make records again (plans, undo, `export vdp`) and the hashes over the records
/// (`FlyrVersion`, `FlyrPayload`). In `LeadCore` beside the records, since the store, which the
/// destinations sit above, writes the same rows. `sql/flyr-schema.sql` and the embedded file's
/// migrations are the tables' definitions; a test keeps each in agreement with these lists.
public enum FlyrColumns {
    /// A column a record fills: its name, its value read from the record, and the record
    /// given that value (for a row read back).
    public struct Field<Record>: Sendable {
        public let name: String
        /// Added after ledgers held hashes of the record: a hash mixes it, after its name, only
        /// when it has a value, so that a record without one hashes as it did before.
        public let optionalInHash: Bool
        public let value: @Sendable (Record) -> String?
        let assign: @Sendable (inout Record, String?) -> Void

        init(_ name: String, optionalInHash: Bool = false, _ value: @escaping @Sendable (Record) -> String?,
             _ assign: @escaping @Sendable (inout Record, String?) -> Void) {
            (self.name, self.optionalInHash, self.value, self.assign) = (name, optionalInHash, value, assign)
        }
    }

    /// A column of a new row: its name, how its value is written, and the value.
    public struct Column<Row>: Sendable {
        public enum Kind: Sendable, Equatable {
            case text, uuid
            /// JSON text, written as a JSON value (PostgreSQL's `jsonb`).
            case json
            case integer
            /// The same text for every row, written into the statement itself.
            case constant(String)
        }

        public let name: String
        public let kind: Kind
        public let value: @Sendable (Row) -> String?

        init(_ name: String, _ kind: Kind, _ value: @escaping @Sendable (Row) -> String?) {
            (self.name, self.kind, self.value) = (name, kind, value)
        }

        /// PostgreSQL's cast of the column's parameter (`uuid`; "" for text), or its constant quoted.
        public var postgresType: String {
            switch kind {
            case .text: ""
            case .uuid: "uuid"
            case .json: "jsonb"
            case .integer: "int"
            case .constant(let text): "'" + text + "'"
            }
        }
    }

    /// `contacts`' columns a lead's contact fills, in the order an update writes them, a plan
    /// and undo read them, and `FlyrVersion`'s mask numbers them.
    public static let contact: [Field<ContactRecord>] = [
        Field("full_name", { $0.fullName }, { $0.fullName = $1 ?? "" }),
        Field("phone", { $0.phone }, { $0.phone = $1 }),
        Field("email", { $0.email }, { $0.email = $1 }),
        Field("address", { $0.address }, { $0.address = $1 }),
        Field("notes", { $0.notes }, { $0.notes = $1 }),
        Field("status", optionalInHash: true, { $0.status }, { $0.status = $1 }),
    ]

    /// `campaign_addresses`' text columns a lead's address fills, in the same uses' order.
    public static let address: [Field<AddressRecord>] = [
        Field("address", { $0.address }, { $0.address = $1 }),
        Field("formatted", { $0.formatted }, { $0.formatted = $1 }),
        Field("house_number", { $0.houseNumber }, { $0.houseNumber = $1 }),
        Field("street_name", { $0.streetName }, { $0.streetName = $1 }),
        Field("locality", { $0.locality }, { $0.locality = $1 }),
        Field("region", { $0.region }, { $0.region = $1 }),
        Field("postal_code", { $0.postalCode }, { $0.postalCode = $1 }),
    ]

    /// The address's position (`jsonb`), apart from `address`: plans and undo compare the text
    /// columns only.
    public static let coordinate = Field<AddressRecord>("coordinate", optionalInHash: true, { $0.coordinate }, { $0.coordinate = $1 })

    /// A new contact's row, in the table's order.
    public static let newContact: [Column<NewContact>] = [
        Column("id", .uuid) { $0.id },
        Column("user_id", .uuid) { $0.user },
        Column(contactField("full_name")),
        Column(contactField("phone")),
        Column(contactField("email")),
        Column(contactField("address")),
        Column("campaign_id", .uuid) { $0.campaign },
        Column("address_id", .uuid) { $0.addressID },
        // FLYR's default for a contact whose lead has no status of FLYR's.
        Column("status", .text) { $0.contact.status ?? "new" },
        Column(contactField("notes")),
    ]

    /// A new campaign address's row, in the table's order.
    public static let newAddress: [Column<NewAddress>] = [
        Column("id", .uuid) { $0.id },
        Column("campaign_id", .uuid) { $0.campaign },
    ] + address.map { Column($0) } + [
        Column(coordinate.name, .json) { $0.address.coordinate },
        Column("seq", .integer) { String($0.seq) },
        Column("source", .constant("import_list")) { _ in "import_list" },
    ]

    /// The names of `columns`, joined by `separator` (a statement's or a request's column list).
    public static func names<Row>(_ columns: [Column<Row>], separator: String = ", ") -> String {
        columns.map(\.name).joined(separator: separator)
    }

    static func contactField(_ name: String) -> Field<ContactRecord> {
        guard let field = contact.first(where: { $0.name == name }) else { preconditionFailure("no contacts column \(name)") }
        return field
    }
}

extension FlyrColumns.Column where Row == NewContact {
    /// The contact's column: its value read from the row's contact.
    init(_ field: FlyrColumns.Field<ContactRecord>) { self.init(field.name, .text) { field.value($0.contact) } }
}

extension FlyrColumns.Column where Row == NewAddress {
    /// The address's column: its value read from the row's address.
    init(_ field: FlyrColumns.Field<AddressRecord>) { self.init(field.name, .text) { field.value($0.address) } }
}

/// A contact to insert: its record and the ids that place it.
public struct NewContact: Sendable {
    public var id: String
    public var user: String
    public var contact: ContactRecord
    public var campaign: String?
    public var addressID: String?

    public init(id: String, user: String, contact: ContactRecord, campaign: String?, addressID: String?) {
        (self.id, self.user, self.contact, self.campaign, self.addressID) = (id, user, contact, campaign, addressID)
    }
}

/// A campaign address to insert: its record, its campaign and its place in the campaign's order.
public struct NewAddress: Sendable {
    public var id: String
    public var campaign: String
    public var address: AddressRecord
    public var seq: Int

    public init(id: String, campaign: String, address: AddressRecord, seq: Int) {
        (self.id, self.campaign, self.address, self.seq) = (id, campaign, address, seq)
    }
}

extension ContactRecord {
    /// `FlyrColumns.contact` with their values, by name (a plan's, an update's).
    public var columns: [String: String?] {
        Dictionary(uniqueKeysWithValues: FlyrColumns.contact.map { ($0.name, $0.value(self)) })
    }
}

extension AddressRecord {
    /// The names of `FlyrColumns.address`, in order.
    public static let columnNames = FlyrColumns.address.map(\.name)

    /// `FlyrColumns.address` with their values, in order.
    public var columns: [(column: String, value: String?)] {
        FlyrColumns.address.map { ($0.name, $0.value(self)) }
    }

    /// An address read back from a FLYR table: each of `FlyrColumns.address` as `read` gives it
    /// by name.
    public init(reading read: (String) -> String?) {
        self.init(address: nil, formatted: nil, houseNumber: nil, streetName: nil, locality: nil, region: nil, postalCode: nil)
        for field in FlyrColumns.address { field.assign(&self, read(field.name)) }
    }
}
