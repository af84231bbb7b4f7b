import Foundation
import LeadTesting
import Testing

/// Issue 22 item 4: every shipped preset, on a list of the kind it is for, sent through the real
/// binary to every CRM double with its default schema (HubSpot's default `hs_lead_status` and
/// `lifecyclestage` options, Follow Up Boss, Google Contacts) at once: no field of any row is
/// refused. Before, FLYR's `hot` reached HubSpot as `HOT`, which its default options lack.
@Suite(.serialized) struct PresetDefaultSchemaTests {
    static let googleClient = "presets-client.apps.googleusercontent.com"
    static let googleSecret = "presets-client-secret-51c2"
    static let googleRefresh = "1//presets-refresh-token-7d0e"

    let hubspot: LocalServer
    let fub: LocalServer
    let google: LocalServer
    let t: RemoteImport

    init() throws {
        hubspot = try LocalServer(script: "servers/hubspot_double.py", arguments: ["--lifetime", "300"])
        fub = try LocalServer(script: "servers/followupboss_double.py", arguments: ["--lifetime", "300"])
        google = try LocalServer(script: "servers/google_people_double.py", arguments: [
            "--lifetime", "300", "--client-id", Self.googleClient, "--client-secret", Self.googleSecret, "--refresh-token", Self.googleRefresh])
        t = try RemoteImport()
    }

    var environment: [String: String] {
        ["HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000", "HUBSPOT_BASE_URL": "http://127.0.0.1:\(hubspot.port)",
         "FUB_API_KEY": "fub-test-key", "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": "fub-test-system-key", "FUB_BASE_URL": "http://127.0.0.1:\(fub.port)",
         "GOOGLE_CLIENT_ID": Self.googleClient, "GOOGLE_CLIENT_SECRET": Self.googleSecret, "GOOGLE_REFRESH_TOKEN": Self.googleRefresh,
         "GOOGLE_PEOPLE_BASE_URL": google.url("").absoluteString, "GOOGLE_TOKEN_URL": google.url("/token").absoluteString]
    }

    static let lists: [(preset: String, file: String)] = [
        ("flyr-contacts", "fixtures/presets/other-headers/flyr-contacts-crm-export.csv"),
        ("flyr-recipients", "fixtures/presets/other-headers/flyr-recipients-owner-list.xlsx"),
        ("followupboss-export", "fixtures/presets/other-headers/followupboss-custom-columns.csv"),
        ("generic-leads", "fixtures/presets/other-headers/generic-leads-spanish-headers.csv"),
        ("google-contacts-csv", "fixtures/presets/google-contacts-export.csv"),
        ("google-contacts-csv", "fixtures/presets/other-headers/google-contacts-outlook-style.csv"),
        ("hubspot-export", "fixtures/presets/hubspot-contacts-export.csv"),
        ("hubspot-export", "fixtures/presets/other-headers/hubspot-renamed-properties.csv"),
        ("owner-list", "fixtures/presets/other-headers/owner-list-assessor-export.csv"),
    ]

    @Test func everyPresetReachesEveryCRMsDefaultSchemaWithNoFieldRefused() throws {
        defer { t.remove() }
        let shipped = try FileManager.default.contentsOfDirectory(atPath: "mappings").filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
        #expect(Set(Self.lists.map(\.preset)) == Set(shipped), "a list for every shipped preset")
        for (n, list) in Self.lists.enumerated() {
            let report = t.dir.appendingPathComponent("report-\(n).csv")
            let result = try Leadport.run(["import", list.file, "--preset", list.preset, "--to", "hubspot", "--to", "followupboss", "--to", "google-contacts",
                                           "--campaign", "Preset check", "--ledger", t.dir.appendingPathComponent("ledger-\(n).db").path,
                                           "--report", report.path, "--progress", "jsonl", "--strict-fields"], environment: environment)
            let rows = Dictionary(grouping: try CSVRows.read(report).dropFirst(), by: { $0[2] })
            #expect(result.status == 0 || result.status == 3, "\(list.preset) \(list.file): \(result.stderr.suffix(2000))")
            #expect(!rows.isEmpty)
            for (row, cells) in rows {
                // A row the rules rejected (no name, email, phone or address) or skipped (a
                // duplicate) reached no CRM: every destination has it so, with the one reason.
                if cells.count == 3, cells.allSatisfy({ $0[4] != "created" && $0[4] == cells[0][4] && $0[6] == cells[0][6] }) { continue }
                for at in cells {
                    #expect(at[4] == "created", "\(list.preset) \(list.file) row \(row) at \(at[3]): \(at[4]) \(at[6])")
                    #expect(!at[6].contains("not written"), "\(list.preset) row \(row) at \(at[3]): \(at[6])")
                }
            }
        }
        // FLYR's statuses arrived as HubSpot's default options.
        let state = try hubspot.control("/_double/state")
        let statuses = Set(((state["contacts"] as? [[String: Any]]) ?? []).compactMap { ($0["properties"] as? [String: Any])?["hs_lead_status"] as? String })
        #expect(statuses.isSubset(of: ["NEW", "OPEN", "IN_PROGRESS", "OPEN_DEAL", "UNQUALIFIED", "ATTEMPTED_TO_CONTACT", "CONNECTED", "BAD_TIMING"]), "\(statuses)")
        #expect(statuses.contains("IN_PROGRESS"), "hot → IN_PROGRESS")
    }
}
