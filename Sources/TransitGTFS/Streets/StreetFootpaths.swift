import Foundation
import TransitSupport

/// A feed's stored walks (`Timetable.linkStops`, found as straight lines within
/// `TimetableCombination.linkRadius`) measured again on the streets of a map: each stop joins the
/// walkable segments walk rule 2 says, within `joinRadius`; a pair of joined stops keeps its walk only when
/// the street path is within the radius too, and then as long as that path; a pair where either
/// stop found no street keeps its straight line. A river between two platforms 50 m apart is a
/// walk of a kilometre, or none.
package enum StreetFootpaths {
    /// How far a stop may be from the street it joins.
    package static let joinRadius = 100.0
    /// Stops this close in a straight line that the map cannot walk between within the radius are
    /// counted apart (`Outcome.closePairsDropped`).
    package static let closeMeters = 100.0

    /// What measuring found: stops joined to a street, and those left with straight lines.
    package struct Outcome: Equatable {
        package var joined = 0
        package var unjoined = 0
        /// Walks kept on the streets, and walks dropped (no street path within the radius).
        package var onStreets = 0
        package var dropped = 0
        /// Pairs of stops under `closeMeters` apart in a straight line whose walk was dropped:
        /// the map puts them past the radius, or does not connect them (a map's gap, likely).
        package var closePairsDropped = 0
        /// Walks kept that have no step-free way within the radius (steps, or `wheelchair=no`).
        package var notStepFree = 0
        /// Stops that join a piece of the map no other stop joins, and so join the next piece too.
        package var nextPiece = 0
    }

    /// The stops that join streets whose every piece no other stop joins (a footway drawn apart
    /// beside a platform: rule 2 joins the nearest piece and what lies within 25 m more of it).
    static func alone(_ stops: [Int], _ walker: StreetWalker, _ t: Timetable) -> Set<Int> {
        let pieces = walker.pieces(ofStops: stops, in: t)
        var joined: [Int32: Int] = [:]
        for set in pieces { for piece in set where piece >= 0 { joined[piece, default: 0] += 1 } }
        return Set(zip(stops, pieces).filter { !$0.1.isEmpty && $0.1.allSatisfy { joined[$0] == 1 } }.map(\.0))
    }

    /// `stepFree`: the map's step-free network (walk rule 2's step-free profile), on which each
    /// walk kept is measured again for a rider who needs it (`Timetable.linkStepFree`): a stop
    /// that joins the foot network but no step-free street within the join radius is reached by
    /// steps only, and has no step-free walk; a stop that joins no street at all keeps its
    /// straight lines, as on foot.
    package static func measure(_ t: inout Timetable, on network: StreetNetwork, grid: StreetNetwork.SegmentGrid,
                                stepFree: (network: StreetNetwork, grid: StreetNetwork.SegmentGrid)? = nil) -> Outcome {
        var outcome = Outcome()
        guard t.linkStart.count == t.stopCount + 1 else { return outcome }
        // The walker a query measures longer walks with: one rule for both.
        let walker = StreetWalker(network, grid), radius = TimetableCombination.linkRadius, before = t
        let free = stepFree.map { StreetWalker($0.network, $0.grid) }
        let placed = (0..<t.stopCount).filter { !t.stopLat[$0].isNaN }
        let alone = [walker, free].map { w in w.map { $0.joinNextPiece(Self.alone(placed, $0, before), in: before) } ?? [] }
        outcome.nextPiece = alone[0].count
        for stop in 0..<t.stopCount where !t.stopLat[stop].isNaN {
            if walker.joins(stop: stop, in: before).isEmpty { outcome.unjoined += 1 } else { outcome.joined += 1 }
        }
        t.storeWalks { x in
            let stored = before.storedWalks(x)
            let street = walker.meters(fromStop: x, to: stored.map { (Int($0.stop), $0.meters) }, limit: radius, in: before)
            return stored.compactMap { y, straight in
                // Either stop joins no street: the straight line.
                guard let meters = street[Int(y)] else { return (y, straight) }
                guard meters <= radius else {
                    outcome.dropped += 1
                    if straight < closeMeters && x < Int(y) { outcome.closePairsDropped += 1 }
                    return nil
                }
                outcome.onStreets += 1
                return (y, meters)
            }
        }
        var joins = [UInt8](repeating: 0, count: t.stopCount)
        let foot = t
        for stop in 0..<t.stopCount where !t.stopLat[stop].isNaN {
            joins[stop] = (walker.joins(stop: stop, in: before).isEmpty ? 0 : 1) | (free?.joins(stop: stop, in: before).isEmpty == false ? 2 : 0)
                | (alone[0].contains(stop) ? 4 : 0) | (alone[1].contains(stop) ? 8 : 0)
        }
        t.stopJoins = Packed(joins)
        guard let free else { return outcome }
        t.storeWalks(stepFree: { x in
            let kept = foot.storedWalks(x)
            let street = free.meters(fromStop: x, to: kept.map { (Int($0.stop), $0.meters) }, limit: radius, in: before)
            return kept.map { y, meters in
                // Either stop off the map: the straight line, as on foot.
                guard joins[x] & 1 != 0 && joins[Int(y)] & 1 != 0 else { return (y, meters, meters) }
                let free = street[Int(y)].flatMap { $0 <= radius ? $0 : nil } ?? .infinity
                if free == .infinity { outcome.notStepFree += 1 }
                return (y, meters, free)
            }
        })
        return outcome
    }
}
