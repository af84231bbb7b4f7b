import HTTPKit
import LeadConnectors

/// A job's `to:` entry, as people see it and as runs record it.
public enum SyncDestination {
    /// `to:` as written (`sqlite:x.db`) and as the import names the destination may differ.
    public static func same(_ recorded: String, _ configured: String) -> Bool {
        guard let target = try? DestinationRegistry.parse(configured) else { return false }
        return target.display == recorded || target.stored == recorded
    }

    /// A job's `to:` as shown: with its credentials masked (a webhook's query token).
    public static func shown(_ destination: String) -> String {
        (try? DestinationRegistry.parse(destination))?.display ?? Redactor.maskCredentials(inURL: destination)
    }
}
