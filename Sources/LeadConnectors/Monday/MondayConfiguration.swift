import Foundation
import LeadCore

/// Where and as whom `--to monday` writes, from the settings:
///
/// | variable | meaning |
/// | --- | --- |
/// | `MONDAY_TOKEN` | a personal API token (Profile › Developers › API token) or an app's token, sent as `Authorization` as it is (no `Bearer`) |
/// | `MONDAY_BOARD_ID` | the board the leads become items of (its number, from the board's URL); a mapping's `destinations.monday.board` names another |
/// | `MONDAY_BASE_URL` | optional: scheme, host and port only (`http://127.0.0.1:8080`, a proxy); requests go to its `/v2`. Default `https://api.monday.com` |
///
/// The token never appears in `description` or in any message.
public struct MondayConfig: Sendable, CustomStringConvertible {
    public static let tokenVariable = "MONDAY_TOKEN"
    public static let boardVariable = "MONDAY_BOARD_ID"
    public static let baseURLVariable = "MONDAY_BASE_URL"
    public static let defaultBaseURL = URL(string: "https://api.monday.com")!
    /// The API version every request pins (`API-Version`): the one whose error shapes the
    /// client reads (`COMPLEXITY_BUDGET_EXHAUSTED` with `retry_in_seconds`, from 2025-01 on).
    public static let apiVersion = "2025-04"

    public var token: String
    /// Nil when only a mapping names the board (checked by `MondayDestination.configure`).
    public var board: String?
    /// Scheme, host and port; no path.
    public var baseURL: URL

    public init(token: String, board: String?, baseURL: URL = MondayConfig.defaultBaseURL) {
        (self.token, self.board, self.baseURL) = (token, board, baseURL)
    }

    /// The GraphQL endpoint: the base URL's `/v2`.
    public var endpoint: URL { baseURL.appendingPathComponent("v2") }

    /// Reads the variables above; an empty one counts as unset.
    public init(environment: [String: String]) throws(MondayError) {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let tokenName = Self.tokenVariable
        guard let token = value(tokenName) else {
            throw MondayError(.configuration, "set \(tokenName) to a monday.com API token (your avatar › Developers › My access tokens, or an app's token)")
        }
        // Sent in a header: a space or line break would corrupt the request.
        guard token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw MondayError(.configuration, "\(tokenName) is malformed (it holds spaces or characters a token cannot): set it to the token alone, as monday.com shows it, without \"Bearer\"")
        }
        let board = value(Self.boardVariable)
        if let board { try Self.checkBoard(board, from: Self.boardVariable) }
        var baseURL = Self.defaultBaseURL
        if let text = value(Self.baseURLVariable) { baseURL = try Self.baseURL(text) }
        self.init(token: token, board: board, baseURL: baseURL)
    }

    /// A board id is a number (the digits in the board's address, `…/boards/1234567890`).
    static func checkBoard(_ board: String, from origin: String) throws(MondayError) {
        guard !board.isEmpty, board.allSatisfy(\.isASCII), board.allSatisfy(\.isNumber) else {
            throw MondayError(.configuration, "\(origin) is \"\(board)\", not a board id: give the number in the board's address (https://….monday.com/boards/1234567890)")
        }
    }

    /// `MONDAY_BASE_URL` reduced to scheme, host and port; anything more is refused rather
    /// than dropped, since a path there means the variable was misunderstood.
    static func baseURL(_ text: String) throws(MondayError) -> URL {
        let name = baseURLVariable
        let parts = URLComponents(string: text)
        let scheme = parts?.scheme?.lowercased()
        guard let parts, scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty,
              parts.path.isEmpty || parts.path == "/", parts.query == nil, parts.fragment == nil, parts.user == nil
        else {
            throw MondayError(.configuration, "\(name) must be scheme, host and port only (https://api.monday.com, or http://127.0.0.1:8080 for a local server): LeadPort adds /v2 itself")
        }
        var clean = URLComponents()
        (clean.scheme, clean.host, clean.port) = (scheme, host, parts.port)
        return clean.url!
    }

    public var secrets: [String] { [token] }

    /// `monday.com at https://api.monday.com, board 123`: never the token.
    public var description: String { "monday.com at \(baseURL.absoluteString)" + (board.map { ", board \($0)" } ?? "") }
}
