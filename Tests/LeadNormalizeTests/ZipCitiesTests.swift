import Testing
@testable import LeadNormalize

/// The ZIP code and place table generated from GeoNames (scripts/make_zip_cities.py).
@Suite struct ZipCitiesTests {
    @Test func aZIPCodeGivesItsPlaceAndState() {
        #expect(ZipCities.place(zip: "28659")?.state == "NC")
        #expect(ZipCities.place(zip: "28659")?.key == "N WILKESBORO")
        #expect(ZipCities.place(zip: "63103")?.key == "ST LOUIS")
        #expect(ZipCities.place(zip: "01803")?.state == "MA")
        #expect(ZipCities.place(zip: "00000") == nil)
        #expect(ZipCities.place(zip: "6370") == nil)
    }

    @Test func placesAreKeyedAsTheRuleWritesThem() {
        #expect(ZipCities.key(["SAINT", "LOUIS"]) == "ST LOUIS")
        #expect(ZipCities.key(["WINSTON-SALEM"]) == "WINSTON SALEM")
        #expect(ZipCities.key(["WEST", "PALM", "BEACH"]) == ZipCities.key(["W", "PALM", "BCH"]))
        #expect(ZipCities.isPlace(ZipCities.key(["SAN", "FRANCISCO"]), in: "CA"))
        #expect(ZipCities.isPlace(ZipCities.key(["FORT", "WORTH"]), in: "TX"))
        #expect(!ZipCities.isPlace(ZipCities.key(["SAN", "FRANCISCO"]), in: "NV"))
        #expect(!ZipCities.isPlace("", in: "CA"))
        #expect(!ZipCities.isPlace("BOSTON", in: "XX"))
    }
}
