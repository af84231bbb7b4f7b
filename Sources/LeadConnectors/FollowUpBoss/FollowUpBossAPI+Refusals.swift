import Foundation
import HTTPKit

/// How the API's refusals become errors: a refusal of one write is that row's; the rest stop
/// the run, naming the variable to check. Every text from the server is scrubbed first.
extension FollowUpBossAPI {
    /// The `errorMessage` of a refusal, scrubbed, or the start of the body.
    func reason(_ response: HTTPResponse) -> String {
        let text = (FollowUpBossReading.object(response.body)?["errorMessage"] as? String) ?? String(response.text.prefix(200))
        return redactor.redact("\(response.status)" + (text.isEmpty ? "" : ": " + text))
    }

    /// A refusal of one write (400 and the like) as its row's error; a refusal of the run
    /// (401, 403, 429, 5xx) thrown.
    func rejection(_ response: HTTPResponse, doing what: String) throws -> FollowUpBossError {
        switch response.status {
        case 401, 403, 408, 429, 500...:
            throw try runFailure(response, doing: "sending \(what)")
        default:
            let reason = reason(response)
            return FollowUpBossError(.rejected(field: Self.field(named: reason)), "Follow Up Boss refused \(what) (\(reason))", status: response.status)
        }
    }

    /// The error that stops the run for an answer that is not the operation's.
    func runFailure(_ response: HTTPResponse, doing what: String) throws -> FollowUpBossError {
        let reason = reason(response)
        switch response.status {
        case 401:
            return FollowUpBossError(.credentialsRefused, "Follow Up Boss refused the API key while \(what) (\(reason)): set FUB_API_KEY to a valid key (Admin › API in Follow Up Boss)",
                                     status: 401, variable: "FUB_API_KEY")
        case 403:
            return FollowUpBossError(.accessDenied, "Follow Up Boss refused access while \(what) (\(reason)): the account may be locked or past its grace period, or the user FUB_API_KEY belongs to may not do this",
                                     status: 403, variable: "FUB_API_KEY")
        case 429:
            let wait = retryAfterSeconds(response.headers["Retry-After"]).map { ", Retry-After \(Int($0.rounded(.up))) s" } ?? ""
            return FollowUpBossError(.rateLimited, "Follow Up Boss still answered 429 while \(what) after LeadPort waited as it asked (\(reason)\(wait)); what is unsent stays pending for the next run", status: 429)
        case 500...:
            return FollowUpBossError(.serverFailed, "Follow Up Boss kept failing while \(what), after \(attempts) attempts (\(reason)); what is unsent stays pending for the next run", status: response.status)
        default:
            return FollowUpBossError(.unexpectedAnswer, "Follow Up Boss answered \(reason) while \(what)", status: response.status)
        }
    }

    func unexpected(_ response: HTTPResponse, _ what: String) -> FollowUpBossError {
        FollowUpBossError(.unexpectedAnswer, redactor.redact("Follow Up Boss answered \(what) with \(response.status) and a body LeadPort cannot read: \(response.text.prefix(200))"), status: response.status)
    }

    /// The lead field a refusal's reason names (`Invalid email: …` → `email`), looking for the
    /// API's field names as words.
    static func field(named reason: String) -> String? {
        let names: [(String, String)] = [("emails", "email"), ("email", "email"), ("phones", "phone"), ("phone", "phone"), ("firstName", "first_name"),
                                         ("lastName", "last_name"), ("addresses", "address"), ("address", "address"), ("tags", "tags"),
                                         ("occurredAt", "occurredAt"), ("source", "source"), ("type", "type")]
        var best: (at: String.Index, field: String)?
        for (name, field) in names {
            var from = reason.startIndex
            while let range = reason.range(of: name, options: .caseInsensitive, range: from..<reason.endIndex) {
                let before = range.lowerBound == reason.startIndex ? nil : reason[reason.index(before: range.lowerBound)]
                let after = range.upperBound == reason.endIndex ? nil : reason[range.upperBound]
                if !(before?.isLetter ?? false), !(after?.isLetter ?? false) {
                    if best == nil || range.lowerBound < best!.at { best = (range.lowerBound, field) }
                    break
                }
                from = range.upperBound
            }
        }
        if let custom = reason.range(of: #"custom[A-Za-z0-9_]+"#, options: .regularExpression), best == nil || custom.lowerBound < best!.at {
            return String(reason[custom])
        }
        return best?.field
    }
}

/// Turns a connection that could not be made (refused, no such host, TLS handshake or
/// certificate) into a `FollowUpBossError` at once, so that `Retry` does not spend minutes on
/// a host that is not there. Dropped connections and timeouts pass on to be
/// retried. The transport says only libcurl's words for the failure, so they are read here.
struct FollowUpBossFailFast: HTTPMiddleware {
    let config: FollowUpBossConfig

    func send(_ request: HTTPRequest, next: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        do {
            return try next(request)
        } catch let error as HTTPTransportError {
            guard let what = Self.neverConnected(error) else { throw error }
            let advice = config.baseURLFromEnvironment ? "check FUB_BASE_URL" : "check the network"
            throw FollowUpBossError(.unreachable, "cannot reach Follow Up Boss at \(config.baseURL.absoluteString): \(what); \(advice). Nothing was sent; what is unsent stays pending for the next run",
                                    variable: config.baseURLFromEnvironment ? "FUB_BASE_URL" : nil)
        }
    }

    /// What went wrong, when the request never reached the server.
    static func neverConnected(_ error: HTTPTransportError) -> String? {
        let reason: String
        switch error {
        case .unreachable(_, let r), .failed(_, let r): reason = r.lowercased()
        case .timedOut, .connectionLost: return nil
        }
        // libcurl's words say which of the three it was.
        if reason.contains("resolve") { return "the host name does not resolve (\(reason))" }
        if reason.contains("ssl") || reason.contains("tls") || reason.contains("certificate") { return "the TLS handshake failed (\(reason))" }
        return "the connection was refused (\(reason))"
    }
}
