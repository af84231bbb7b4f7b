import Foundation
import HTTPKit

/// `--to monday` in `DestinationRegistry` (its one line there names this entry).
extension DestinationRegistry {
    static let monday = Entry(kind: MondayDestination.kind, usage: "monday (MONDAY_TOKEN, MONDAY_BOARD_ID)",
                              claims: { $0 == MondayDestination.kind },
                              check: { _ in nil },
                              open: { _, settings, connection in
                                  // MONDAY_TOKEN is a secret by its name (Settings.isSecret), registered already.
                                  let config: MondayConfig
                                  do throws(MondayError) { config = try MondayConfig(environment: settings.values) } catch { throw error.stop }
                                  let policy = MondayClientPolicy(timeout: connection.timeout, failAfter: connection.failAfter)
                                  return MondayDestination(api: MondayAPI(config: config, policy: policy, onRetry: connection.onRetry))
                              })
}
