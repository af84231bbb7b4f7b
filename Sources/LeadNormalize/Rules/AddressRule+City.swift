import LeadCore

/// The city told from the street by the places ZIP codes cover (`ZipCities`).
extension AddressParser {
    /// Where a known place starts at the end of `words`, at `earliest` or later: the longest
    /// place of the state (the ZIP code's state when none is written) that holds the ZIP code's
    /// own place (`E Grand Rapids` where the ZIP code says `Grand Rapids`), else the ZIP code's
    /// place, else the longest place of the state. A one-word place that is also a street word
    /// (`Court`, `Park`, `North`) counts only as the ZIP code's own place.
    func knownCityStart(_ words: ArraySlice<AddressToken>, earliest: Int) -> Int? {
        let zipPlace = address.postalCode.flatMap(ZipCities.place(zip:))
        guard let state = address.state ?? zipPlace?.state else { return nil }
        let end = words.endIndex
        let first = max(earliest, end - ZipCities.longest)
        guard first < end else { return nil }
        var best: Int?
        for start in first..<end {
            let run = words[start..<end]
            guard !run.contains(where: { $0.isHash || $0.startsWithDigit }) else { continue }
            let key = ZipCities.key(run.lazy.map(\.key))
            if key == zipPlace?.key { return best ?? start }
            guard best == nil, ZipCities.isPlace(key, in: state) else { continue }
            let one = run.count == 1 ? run.first : nil
            if let one, one.suffix != nil || one.isDirectional || one.unit != nil || one.isStateCode { continue }
            best = start
        }
        return best
    }
}

extension AddressParser {
    /// A short directional opening the segment after the street (`, NW`) is the street's
    /// post-directional, unless the segment is a place as written (`N Hollywood`).
    mutating func takePostdirectional(opening segment: ArraySlice<AddressToken>) -> Bool {
        // One letter (`N. Miami`) opens a place more often than it ends a street; `NW`, `SE` do not.
        guard let first = segment.first, first.isDirectional, first.key.utf8.count == 2 || segment.count == 1,
              address.streetName != nil, address.streetPostdirectional == nil, address.houseNumber != nil else { return false }
        if segment.count > 1, let state = address.state ?? address.postalCode.flatMap(ZipCities.place(zip:))?.state,
           ZipCities.isPlace(ZipCities.key(segment.lazy.map(\.key)), in: state) {
            return false
        }
        address.streetPostdirectional = first.text
        return true
    }
}
