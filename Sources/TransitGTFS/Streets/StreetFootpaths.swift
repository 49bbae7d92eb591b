import Foundation
import TransitSupport

/// A feed's stored walks (`Timetable.linkStops`, found as straight lines within
/// `TimetableCombination.linkRadius`) measured again on the streets of a map: each stop joins the
/// nearest walkable segment within `joinRadius`; a pair of joined stops keeps its walk only when
/// the street path is within the radius too, and then as long as that path; a pair where either
/// stop found no street keeps its straight line. A river between two platforms 50 m apart is a
/// walk of a kilometre, or none.
package enum StreetFootpaths {
    /// How far a stop may be from the street it joins.
    package static let joinRadius = 100.0

    /// What measuring found: stops joined to a street, and those left with straight lines.
    package struct Outcome: Equatable {
        package var joined = 0
        package var unjoined = 0
        /// Walks kept on the streets, and walks dropped (no street path within the radius).
        package var onStreets = 0
        package var dropped = 0
    }

    package static func measure(_ t: inout Timetable, on network: StreetNetwork, grid: StreetNetwork.SegmentGrid) -> Outcome {
        var outcome = Outcome()
        guard t.linkStart.count == t.stopCount + 1 else { return outcome }
        var joins = [StreetNetwork.Join?](repeating: nil, count: t.stopCount)
        for stop in 0..<t.stopCount where !t.stopLat[stop].isNaN {
            joins[stop] = network.join(Coordinate(latitude: t.stopLat[stop], longitude: t.stopLon[stop]), within: joinRadius, grid: grid)
            if joins[stop] == nil { outcome.unjoined += 1 } else { outcome.joined += 1 }
        }
        let radius = TimetableCombination.linkRadius, before = t
        let search = StreetSearch(network)
        t.storeWalks { x in
            if let a = joins[x] { search.run(from: a, limit: radius) }
            return before.storedWalks(x).compactMap { y, straight in
                guard joins[x] != nil, let b = joins[Int(y)] else { return (y, straight) }
                guard let street = search.meters(to: b), street <= radius else {
                    outcome.dropped += 1
                    return nil
                }
                outcome.onStreets += 1
                // Never shorter than the straight line (a join's plane is an approximation).
                return (y, max(street, straight))
            }
        }
        return outcome
    }
}
