import Foundation
import LeadCore

/// The mapping's field policies for Google Contacts. Prepare reads every contact to update with
/// the fields LeadPort writes (`people:batchGet`, 200 a request, which also brings the etag),
/// and an update then sends, field by field:
///
/// | policy | names, addresses, organization, biography | emailAddresses, phoneNumbers |
/// | --- | --- | --- |
/// | `overwrite` | the lead's | the lead's |
/// | `fill_blank` | the lead's where the contact has none | the lead's where the contact has none |
/// | `append` | as `fill_blank` | the contact's, then the lead's it lacks |
/// | `never` | nothing | nothing |
///
/// Google takes no option in the mapping.
extension GoogleContactsDestination {
    public func configure(_ policy: DestinationPolicy) throws {
        try Self.refuseUnsupported(policy, destination: name, fieldPolicies: Set(FieldPolicy.allCases), options: [])
        self.policy = policy
    }

    /// What an update sends of `person` over `current` (the contact as prepare read it; nil: not
    /// read, and then no field the policies protect is sent).
    func updating(_ person: GooglePerson, over current: GooglePerson?) -> GooglePerson {
        guard !policy.overwritesAll else { return person }
        var sent = person
        func keeps(_ fieldPolicy: FieldPolicy, held: Bool) -> Bool {
            switch fieldPolicy {
            case .overwrite: return true
            case .never: return false
            case .fillBlank, .append: return current != nil && !held
            }
        }
        let namePolicy = policy.update["first_name"] ?? policy.update["last_name"] ?? policy["full_name"]
        if !keeps(namePolicy, held: !(current?.names ?? []).isEmpty) { sent.names = nil }
        if !keeps(policy[.address], held: !(current?.addresses ?? []).isEmpty) { sent.addresses = nil }
        if !keeps(policy[.company], held: !(current?.organizations ?? []).isEmpty) { sent.organizations = nil }
        if !keeps(policy[.notes], held: !(current?.biographies ?? []).isEmpty) { sent.biographies = nil }
        sent.emailAddresses = Self.list(person.emailAddresses, held: current.map { $0.emailAddresses ?? [] }, policy: policy[.email]) { $0.value.lowercased() }
        // A number as E.164 without its extension: `(617) 555-0600` and `+16175550600 ext. 7`
        // are one number, added once.
        sent.phoneNumbers = Self.list(person.phoneNumbers, held: current.map { $0.phoneNumbers ?? [] }, policy: policy.update["phone"] ?? policy[.mobile]) {
            GoogleContactsIndex.phone($0.canonicalForm ?? $0.value) ?? $0.value.filter { $0.isNumber || $0 == "+" }
        }
        return sent
    }

    /// A list field of an update under `policy` (nil: not in the update's mask, so the contact's
    /// list stays as it is).
    static func list<T>(_ new: [T]?, held: [T]?, policy: FieldPolicy, key: (T) -> String) -> [T]? {
        switch policy {
        case .overwrite: return new
        case .never: return nil
        case .fillBlank: return held?.isEmpty == true ? new : nil
        case .append:
            guard let held, let new else { return nil }
            let have = Set(held.map(key))
            let added = new.filter { !have.contains(key($0)) }
            return added.isEmpty ? nil : held + added
        }
    }
}
