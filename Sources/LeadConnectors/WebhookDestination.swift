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
    public let reconciliation = Reconciliation.resend(how: "the document goes again under the same Idempotency-Key, which the receiver takes once")
    private let webhook: Webhook

    public init(url: URL, secret: String?, client: HTTPClient, timeout: Double = 30) {
        name = "webhook:" + Self.shown(url)
        // A catch hook's URL is its credential: the ledger keeps a digest of it, not the URL.
        ledgerName = name + "#" + SHA256.hash(data: Data(url.absoluteString.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        webhook = Webhook(url: url, secret: secret, client: client, timeout: timeout)
    }

    /// Whether `shown` leaves out part of the URL (a path or query past its first part).
    static func hidesPart(of url: URL) -> Bool {
        var whole = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        (whole.user, whole.password) = (nil, nil)
        return shown(url) != whole.string
    }

    /// The URL as reports show it: a catch hook's path and query are its secret
    /// (`https://hooks.zapier.com/hooks/catch/123/abc/`), so only the host and the path's
    /// first part are shown (`https://hooks.zapier.com/hooks/…`).
    static func shown(_ url: URL) -> String {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        let segments = parts.path.split(separator: "/")
        let cut = segments.count > 1 || parts.query != nil
        parts.path = segments.first.map { "/" + $0 } ?? ""
        parts.query = nil
        parts.user = nil
        parts.password = nil
        // The ellipsis added as text: set in the path, it would be percent-encoded (%E2%80%A6).
        return (parts.string ?? "(webhook)") + (cut ? "/…" : "")
    }

    /// The name the run files its leads under (`--campaign`), in each document: a catch hook
    /// has nothing to file them in. Set before the rows, read after.
    private var campaign: String?

    public func enter(_ scope: RunScope) throws -> Scope {
        campaign = scope.reference
        return Scope(name: scope.reference)
    }

    public func prepare(_ leads: inout [OutboundLead]) throws {}

    public func send(_ leads: ArraySlice<OutboundLead>) throws -> BatchAnswer {
        do {
            return .rows(try leads.map { lead in
                let key = Self.idempotencyKey(lead, hook: ledgerName)
                let result = try webhook.send(Data(Self.document(lead, campaign: campaign, idempotencyKey: key).utf8), idempotencyKey: key)
                // The receiver accepts a document either way; the ledger knows it was a change.
                if lead.action == .update, case .created(let id, _, _) = result { return .updated(remoteID: id) }
                return result
            })
        } catch HTTPTransportError.unreachable(_, let reason) {
            throw DestinationError(destination: name, message: "cannot be reached (\(reason)); nothing more is sent to it, and what was not sent goes with the next run")
        } catch let down as FailFast.Unavailable {
            throw DestinationError(destination: name, message: down.description)
        } catch let refusal as Webhook.Refused {
            throw DestinationError(destination: name, message: "\(refusal.description); nothing more is sent to it, and what was not sent goes with the next run")
        }
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
        content(lead, campaign: campaign, into: &o)
        var source = JSONObject()
        source.set("file", lead.source.file)
        source.set("sheet", lead.source.sheet)
        source.set("row", lead.source.row)
        o.set("source", json: source.text)
        return o.text
    }

    /// What the document says of the lead itself (hashed for the ledger: the envelope and where
    /// the row came from are not the lead's content, so a list sorted anew sends nothing).
    static func content(_ lead: Lead, campaign: String?, into o: inout JSONObject) {
        o.set("campaign", campaign)
        o.set("full_name", lead.fullName)
        o.set("first_name", lead.givenName)
        o.set("last_name", lead.familyName)
        o.set("email", lead.email)
        o.set("phone", lead.phone)
        o.set("mobile", lead.mobile)
        o.set("company", lead.company)
        // An owner that is not a person (its name, and no first or last name), the record's
        // designations (`TR`, `ETAL`) and the line a mailing addresses the lead by.
        o.set("organization", lead.organization)
        o.set("designation", lead.designation)
        o.set("salutation", lead.salutation)
        o.set("notes", lead.notes)
        o.set("address", json: addressJSON(lead.address, parts: true))
        // Only where there is one, so that a lead without either hashes as before they were sent.
        if let extensionNumber = lead.phoneExtension { o.set("phone_extension", extensionNumber) }
        if let m = lead.mailingAddress, m.hasDeliveryLine || m.city != nil || m.postalCode != nil {
            o.set("mailing_address", json: addressJSON(m, parts: false))
        }
    }

    /// An address as the document gives it, its keys always in this order (the content hash
    /// is of these bytes): the line, with `parts` the house number, street and unit, then the
    /// city, state, ZIP and the formatted lines.
    static func addressJSON(_ a: PostalAddress, parts: Bool) -> String {
        var address = JSONObject()
        address.set("line", a.deliveryLine)
        if parts {
            address.set("house_number", a.houseNumber)
            address.set("street", a.streetLine)
            address.set("unit", a.unit)
        }
        address.set("city", a.city)
        address.set("state", a.state)
        address.set("postal_code", a.postalCode)
        address.set("formatted", a.formatted)
        return address.text
    }

    /// For a plan: the document's fields (`address.city` for a part of the address). A catch
    /// hook keeps nothing LeadPort can read, so there is no `before`, and `apply` cannot tell
    /// whether the receiver's copy changed.
    public func snapshots(_ leads: inout [OutboundLead]) throws -> [FieldSnapshot]? {
        leads.map { lead in
            var o = JSONObject()
            Self.content(lead.lead, campaign: campaign, into: &o)
            var fields: [String: String] = [:]
            func flatten(_ object: [String: Any], prefix: String) {
                for (name, value) in object {
                    if let inner = value as? [String: Any] { flatten(inner, prefix: prefix + name + ".") } else if !(value is NSNull) { fields[prefix + name] = "\(value)" }
                }
            }
            flatten((try? JSONSerialization.jsonObject(with: Data(o.text.utf8))) as? [String: Any] ?? [:], prefix: "")
            return FieldSnapshot(before: nil, after: fields)
        }
    }

    public var encoder: @Sendable (Lead) -> Encoded {
        { [campaign] lead in
            var o = JSONObject()
            Self.content(lead, campaign: campaign, into: &o)
            var h = FNV64()
            h.mix(o.text)
            return Encoded(hash: String(h.value, radix: 16))
        }
    }
}
