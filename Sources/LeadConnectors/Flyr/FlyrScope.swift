import Foundation
import LeadCore

/// The campaign a run fills at a FLYR destination, and whose its rows are: settled once before
/// the rows (`Destination.enter`), the same way at each of FLYR's destinations, and kept by the
/// destination for every `prepare`, `send` and `snapshots` after.
public struct FlyrScope: Sendable {
    /// The campaign's id; nil: the run names none (contacts alone), or, in a dry run, a
    /// campaign still to be made at a destination that cannot count its rows yet.
    public private(set) var campaign: String?
    /// Whose the rows are: the run's user, else the campaign's owner, else `FlyrUser.local`.
    public private(set) var user = FlyrUser.local
    /// What the run writes: the mapping's `target:` (`RunScope.target`); without a mapping,
    /// both a campaign's addresses and its contacts when a campaign is named (an auto-mapped
    /// list imported into a campaign fills its recipient addresses too), else contacts.
    public private(set) var target = "contacts"
    /// Which rows the run writes: contacts unless only campaign addresses, campaign addresses
    /// when asked for and a campaign is named.
    public private(set) var writesContacts = true
    public private(set) var writesAddresses = false

    public init() {}

    /// `find(reference, owner, create)` is the destination's look-up of a campaign. An id
    /// names a campaign that exists, whoever owns it: it is never created (a campaign named
    /// after an id would be a new, empty one). A name is created when missing.
    /// - Throws: `CampaignNeeded` when only campaign addresses are written and no campaign is
    ///   named, before anything is looked up.
    public init(_ scope: RunScope, destination: String, find: (_ reference: String, _ owner: String?, _ create: Bool) throws -> CampaignMatch?) throws {
        target = scope.target ?? (scope.reference != nil ? "both" : "contacts")
        if scope.reference == nil, target == "campaign_addresses" { throw CampaignNeeded() }
        writesContacts = target != "campaign_addresses"
        guard let reference = scope.reference else {
            user = scope.owner ?? FlyrUser.local
            return
        }
        let match = try find(reference, scope.owner, scope.create)
        campaign = match?.id
        if campaign == nil, CampaignMatch.isID(reference) { throw UnknownCampaign(id: reference, destination: destination) }
        user = scope.owner ?? match?.owner ?? FlyrUser.local
        writesAddresses = target != "contacts" && campaign != nil
    }

    /// What the engine is told: the ledger knows a lead per campaign, so the same list imported
    /// into a second campaign fills that campaign too.
    public var answer: Scope { Scope(name: campaign, ledgerKey: campaign.map { "campaign:" + $0 }, owner: user) }
}

/// A campaign found or made: its id, and its owner (the contacts' `user_id` when no user is
/// given), when the destination knows one.
public struct CampaignMatch: Sendable, Equatable {
    public var id: String
    public var owner: String?

    public init(id: String, owner: String?) {
        self.id = id
        self.owner = owner
    }

    /// Whether `reference` is a campaign id (a UUID) rather than a name.
    public static func isID(_ reference: String) -> Bool { UUID(uuidString: reference) != nil }
}

/// Several campaigns answer to one name and nothing says whose is meant.
public struct AmbiguousCampaign: Error, CustomStringConvertible, Classified {
    public var name: String
    public var ids: [String]
    public var disposition: FailureDisposition { .usage }

    public init(name: String, ids: [String]) {
        self.name = name
        self.ids = ids
    }

    public var description: String {
        "several campaigns are named \"\(name)\" (\(ids.joined(separator: ", "))); give the campaign's id with --campaign, or its owner with --user"
    }
}


/// A mapping that writes campaign addresses alone, and no campaign named to hold them: a usage
/// error (exit 2), said as an invalid mapping, before any campaign is looked up.
public struct CampaignNeeded: Error, CustomStringConvertible, Classified {
    public var disposition: FailureDisposition { .usage }

    public var description: String {
        "--campaign: not a valid mapping: the mapping targets campaign_addresses; name the campaign with --campaign ID|NAME"
    }
}

/// `--campaign ID` where the destination has no campaign with that id: a usage error (exit 2),
/// never a new campaign named after the id.
public struct UnknownCampaign: Error, CustomStringConvertible, Classified {
    public var id: String
    public var destination: String
    public var disposition: FailureDisposition { .usage }

    public var description: String {
        "\(destination) has no campaign with the id \(id); give the id of a campaign that exists there, or a name to create a new campaign"
    }
}
