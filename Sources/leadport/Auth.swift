import ArgumentParser
import Foundation
import HTTPKit
import LeadConnectors
import LeadEngine

/// `leadport auth SERVICE`: signs an account in and keeps its credentials in the config file.
struct Auth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign an account in and keep its credentials in LeadPort's config file.",
        subcommands: [Google.self]
    )

    /// `leadport auth google`: the refresh token `--to google-contacts` needs.
    struct Google: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a Google account in for --to google-contacts and keep its refresh token.",
            discussion: """
                Needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (a Desktop app OAuth client from the \
                Google Cloud console, with the People API enabled) in the environment or the config file. \
                Prints an address to open in a browser; once the account has allowed access to its \
                contacts, Google sends the browser back to LeadPort on 127.0.0.1, and the refresh token \
                is saved as GOOGLE_REFRESH_TOKEN in the config file \
                ($XDG_CONFIG_HOME/leadport/config.yaml, ~/.config/leadport/config.yaml, or LEADPORT_CONFIG), \
                mode 600. The token is never printed.
                """
        )

        @Option(help: "Seconds to wait for the browser.")
        var timeout: Double = 300

        @Option(help: "The loopback port to receive Google's answer on (default: any free port).")
        var port: Int = 0

        func run() throws {
            let settings = try Settings.load()
            KnownSecrets.add(settings.secrets)
            do {
                let signIn = try GoogleSignIn(settings: settings.values)
                let listener = try LoopbackRedirect(port: port)
                let address = signIn.authorizationURL(redirectURI: listener.redirectURI)
                ExitStatus.printError("Open this address in a browser, sign in to the Google account and allow access to its contacts:\n\n  \(address.absoluteString)\n\nWaiting for the browser (up to \(Int(timeout)) s)…")
                let query = try listener.wait(state: signIn.state, timeout: timeout,
                                              page: "<!DOCTYPE html><meta charset=utf-8><title>LeadPort</title><p>LeadPort has the answer: you can close this tab and go back to the terminal.")
                let code = try signIn.code(from: query)
                KnownSecrets.add([code])
                let token = try signIn.exchange(code: code, redirectURI: listener.redirectURI)
                let path = try Settings.store("GOOGLE_REFRESH_TOKEN", token)
                ExitStatus.printError("Signed in. GOOGLE_REFRESH_TOKEN is saved in \(path) (mode 600); `leadport import … --to google-contacts` uses it.")
                if ProcessInfo.processInfo.environment["GOOGLE_REFRESH_TOKEN"].map({ !$0.isEmpty }) ?? false {
                    ExitStatus.printError("Note: GOOGLE_REFRESH_TOKEN is also set in the environment, which wins over the file: unset it to use the new token.")
                }
            } catch let error as GoogleContactsError {
                throw DestinationError(destination: "google-contacts", message: error.message,
                                       disposition: error.disposition == .usage ? .usage : .terminal)
            } catch let error as LoopbackRedirect.Failure {
                throw DestinationError(destination: "auth google", message: error.description)
            }
        }
    }
}
