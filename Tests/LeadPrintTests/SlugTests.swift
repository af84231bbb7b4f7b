import LeadCore
import XCTest

@testable import LeadPrint

final class SlugTests: XCTestCase {
    func testSlugsAreEightLowerCaseLettersAndDigits() {
        var maker = SlugMaker()
        let slugs = (0..<1000).map { _ in maker.make() }
        XCTAssertTrue(slugs.allSatisfy(SlugMaker.isSlug), "\(slugs.filter { !SlugMaker.isSlug($0) })")
        XCTAssertEqual(Set(slugs).count, slugs.count)
    }

    func testQRSymbolIsAPNGWithTheQuietZone() throws {
        let (bytes, modules) = try QRSymbol().png("https://flyrpro.app/q/a1b2c3d4")
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(modules, 29, "version 3 at level Q")
        // IHDR's width: (29 + 2 × 4) modules × 10 px.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(width, 370)
    }
}
