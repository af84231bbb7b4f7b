import Crypto
import Foundation
import HTTPKit
import LeadCore

/// `--to webhook:URL`: each lead as one JSON document (`Webhook`). The idempotency key is fixed
/// by the hook, the lead's key and what is sent, so a lead sent again after a crash carries the
/// same key (the receiver can drop it), while a changed lead carries a new one.
public final class WebhookDestination: Destination {
    public let name: String
    public let ledgerName: String
    public var capabilities: DestinationCapabilities { Webhook.capabilities }
    private let webhook: Webhook

    public init(url: URL, secret: String?, client: HTTPClient, timeout: Double = 30) {
        let shown = Redactor(secrets: []).redact(url)
        name = "webhook:" + shown
        ledgerName = "webhook:" + shown
        webhook = Webhook(url: url, secret: secret, client: client, timeout: timeout)
    }

    /// A catch hook has no campaigns: the name travels in each document.
    public func campaign(_ reference: String, owner: String, create: Bool) throws -> String? { reference }

    public func prepare(_ leads: inout [OutboundLead], campaign: String?) throws {}

    public func send(_ leads: ArraySlice<OutboundLead>, campaign: String?, user: String) throws -> BatchAnswer {
        .rows(try leads.map { lead in
            let key = Self.idempotencyKey(lead, hook: ledgerName)
            return try webhook.send(Data(Self.document(lead, campaign: campaign, idempotencyKey: key).utf8), idempotencyKey: key)
        })
    }

    static func idempotencyKey(_ lead: OutboundLead, hook: String) -> String {
        let digest = SHA256.hash(data: Data((hook + "\n" + lead.key + "\n" + lead.hash).utf8))
        return "lp-" + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The lead as the receiver gets it: its fields, its address in parts, where it came from.
    static func document(_ outbound: OutboundLead, campaign: String?, idempotencyKey: String) -> String {
        let lead = outbound.lead
        var o = JSONObject()
        o.set("event", outbound.action == .update ? "lead.updated" : "lead.created")
        o.set("idempotency_key", idempotencyKey)
        o.set("key", outbound.key)
        o.set("campaign", campaign)
        o.set("full_name", lead.fullName)
        o.set("first_name", lead.givenName)
        o.set("last_name", lead.familyName)
        o.set("email", lead.email)
        o.set("phone", lead.phone)
        o.set("mobile", lead.mobile)
        o.set("company", lead.company)
        o.set("notes", lead.notes)
        var address = JSONObject()
        let a = lead.address
        address.set("line", a.deliveryLine)
        address.set("house_number", a.houseNumber)
        address.set("street", a.streetLine)
        address.set("unit", a.unit)
        address.set("city", a.city)
        address.set("state", a.state)
        address.set("postal_code", a.postalCode)
        address.set("formatted", a.formatted)
        o.set("address", json: address.text)
        var source = JSONObject()
        source.set("file", lead.source.file)
        source.set("sheet", lead.source.sheet)
        source.set("row", lead.source.row)
        o.set("source", json: source.text)
        return o.text
    }
}
