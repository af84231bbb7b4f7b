import Foundation
import LeadCore
import LeadStore
import XCTest

@testable import LeadPrint

/// The export against a real embedded file, with slugs drawn from a script: collisions with
/// `qr_codes` are drawn again, and a table that refuses every draw stops the run.
final class VDPExportTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("leadport-vdp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A file with two campaigns, `first` and `second`, of `count` addresses each.
    private func store(count: Int) throws -> String {
        let path = dir.appendingPathComponent("leads.db").path
        let store = try LeadStore(path: path)
        for name in ["first", "second"] {
            let campaign = try XCTUnwrap(try store.campaign(name, owner: nil, create: true)).id
            try store.write { tx in
                for k in 1...count {
                    let parts = AddressRecord(address: nil, formatted: nil, houseNumber: "\(k)", streetName: "MAIN ST", locality: "BOSTON", region: "MA", postalCode: "02134")
                    try tx.insertAddress(id: "\(name)-\(k)", campaign: campaign, parts, seq: k)
                }
            }
            try store.commit()
        }
        try store.close()
        return path
    }

    private func export(_ campaign: String, path: String, slugs: [String]) throws -> [String] {
        var queue = slugs
        let store = try EmbeddedQRCodes(path: path)
        defer { try? store.close() }
        let run = VDPExport(store: store, baseURL: "https://flyrpro.app/q/", slugs: SlugMaker { queue.isEmpty ? "zzzzzzzz" : queue.removeFirst() })
        var made: [String] = []
        _ = try run.run(campaign: try run.campaign(campaign), into: try VDPBundle(directory: dir.appendingPathComponent(UUID().uuidString).path),
                        started: { _, _, _ in }, row: { made.append($0.slug ?? "") })
        return made
    }

    func testASlugTakenInTheTableIsDrawnAgain() throws {
        let path = try store(count: 2)
        XCTAssertEqual(try export("first", path: path, slugs: ["aaaaaaaa", "bbbbbbbb"]), ["aaaaaaaa", "bbbbbbbb"])
        // Both taken by the first campaign, and one drawn twice in the round: each draws again.
        XCTAssertEqual(try export("second", path: path, slugs: ["aaaaaaaa", "aaaaaaaa", "cccccccc", "bbbbbbbb", "dddddddd"]), ["cccccccc", "dddddddd"])
    }

    func testATableThatRefusesEveryDrawStopsTheRun() throws {
        let path = try store(count: 1)
        _ = try export("first", path: path, slugs: ["zzzzzzzz"])
        XCTAssertThrowsError(try export("second", path: path, slugs: [])) { error in
            guard case VDPError.slugsExhausted = error else { return XCTFail("\(error)") }
        }
    }
}
