import Foundation
import TransitSupport

/// A feed's stored walks (`Timetable.linkStops`, found as straight lines within
/// `TimetableCombination.linkRadius`) measured again on the streets of a map: each stop joins the
/// walkable segments walk rule 2 says, within `joinRadius`; a pair of joined stops keeps its walk
/// when the street path is within `TimetableCombination.longestWalk` (twice the radius: a query
/// bounds the straight line, and allows the street path twice its bound), and then as long as
/// that path; a pair where either stop found no street keeps its straight line. A river between
/// two platforms 50 m apart is a walk of a kilometre, or none: such a pair is kept as dropped
/// (`DroppedWalk`), with why, for `gtfs walks --dropped`.
package enum StreetFootpaths {
    /// How far a stop may be from the street it joins.
    package static let joinRadius = 100.0
    /// What measuring found: stops joined to a street, and those left with straight lines.
    package struct Outcome: Equatable {
        package var joined = 0
        package var unjoined = 0
        /// The pairs dropped, each once, and those kept on foot with no step-free way within the
        /// longest walk (steps, or `wheelchair=no`): also in the timetable, `Timetable.dropped`.
        package var droppedPairs: [DroppedWalk] = []
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
        let walker = StreetWalker(network, grid), longest = TimetableCombination.longestWalk, before = t
        let free = stepFree.map { StreetWalker($0.network, $0.grid) }
        let placed = (0..<t.stopCount).filter { !t.stopLat[$0].isNaN }
        let alone = [walker, free].map { w in w.map { $0.joinNextPiece(Self.alone(placed, $0, before), in: before) } ?? [] }
        outcome.nextPiece = alone[0].count
        for stop in 0..<t.stopCount where !t.stopLat[stop].isNaN {
            if walker.joins(stop: stop, in: before).isEmpty { outcome.unjoined += 1 } else { outcome.joined += 1 }
        }
        var dropped: [DroppedWalk] = []
        t.storeWalks { x in
            let stored = before.storedWalks(x)
            let street = walker.meters(fromStop: x, to: stored.map { (Int($0.stop), $0.meters) }, limit: longest, in: before)
            var gone: [Int] = []
            let kept = stored.compactMap { y, straight -> (Int32, Double)? in
                // Either stop joins no street: the straight line.
                guard let meters = street[Int(y)] else { return (y, straight) }
                guard meters <= longest else {
                    gone.append(Int(y))
                    return nil
                }
                return (y, meters)
            }
            dropped += Self.whyDropped(x, gone, walker, before)
            return kept
        }
        var joins = [UInt8](repeating: 0, count: t.stopCount)
        let foot = t
        for stop in 0..<t.stopCount where !t.stopLat[stop].isNaN {
            joins[stop] = (walker.joins(stop: stop, in: before).isEmpty ? 0 : 1) | (free?.joins(stop: stop, in: before).isEmpty == false ? 2 : 0)
                | (alone[0].contains(stop) ? 4 : 0) | (alone[1].contains(stop) ? 8 : 0)
        }
        t.stopJoins = Packed(joins)
        guard let free else { return Self.keep(dropped, &t, &outcome) }
        var stepsOnly: [DroppedWalk] = []
        t.storeWalks(stepFree: { x in
            let kept = foot.storedWalks(x)
            let street = free.meters(fromStop: x, to: kept.map { (Int($0.stop), $0.meters) }, limit: longest, in: before)
            return kept.map { y, meters in
                // Either stop off the map: the straight line, as on foot.
                guard joins[x] & 1 != 0 && joins[Int(y)] & 1 != 0 else { return (y, meters, meters) }
                let free = street[Int(y)].flatMap { $0 <= longest ? $0 : nil } ?? .infinity
                if free == .infinity {
                    stepsOnly.append(DroppedWalk(from: x, to: Int(y), straight: before.straightMeters(x, Int(y)), street: meters, reason: .stepsOnly))
                }
                return (y, meters, free)
            }
        })
        return Self.keep(dropped + stepsOnly, &t, &outcome)
    }

    /// Why the walks from `x` to `gone` were dropped: the stops join no common piece of the map
    /// (not connected), or its path is longer, measured up to `DroppedWalk.searched`.
    private static func whyDropped(_ x: Int, _ gone: [Int], _ walker: StreetWalker, _ t: Timetable) -> [DroppedWalk] {
        guard !gone.isEmpty else { return [] }
        let pieces = walker.pieces(ofStops: [x] + gone, in: t), own = pieces.first ?? []
        let connected = gone.indices.filter { k in k + 1 < pieces.count && !own.isDisjoint(with: pieces[k + 1]) }
        let longer = connected.isEmpty ? [:] : walker.meters(fromStop: x, to: connected.map { (gone[$0], 0) }, limit: DroppedWalk.searched, in: t)
        return gone.enumerated().map { k, y in
            let straight = t.straightMeters(x, y)
            guard connected.contains(k) else { return DroppedWalk(from: x, to: y, straight: straight, street: nil, reason: .notConnected) }
            return DroppedWalk(from: x, to: y, straight: straight, street: longer[y].flatMap { $0.isFinite ? $0 : nil }, reason: .longer)
        }
    }

    /// Keeps `dropped` in the timetable with those it held (a combination's feeds' own, measured
    /// at their imports), each pair once: from the stop of the lower index, or the one way
    /// dropped where the other was kept.
    private static func keep(_ dropped: [DroppedWalk], _ t: inout Timetable, _ outcome: inout Outcome) -> Outcome {
        // The ways from the lower index first (then as they came), so that each pair keeps that
        // one where it has it.
        var seen = Set<DirectedPair>()
        let once = (t.dropped + dropped).enumerated().sorted { ($0.element.from > $0.element.to ? 1 : 0, $0.offset) < ($1.element.from > $1.element.to ? 1 : 0, $1.offset) }
            .map(\.element).filter { walk in
                seen.insert(DirectedPair(from: min(walk.from, walk.to), to: max(walk.from, walk.to), reason: walk.reason)).inserted
            }.sorted { ($0.from, $0.to, $0.reason.rawValue) < ($1.from, $1.to, $1.reason.rawValue) }
        t.storeDropped(once)
        outcome.droppedPairs = once
        return outcome
    }

    private struct DirectedPair: Hashable {
        var from: Int, to: Int, reason: DroppedWalk.Reason
    }
}
