import Foundation
import TransitSupport

/// The walks between a point (a query's `LAT,LON` end, or a stop) and stops, on a map's
/// streets: the point and each stop join the segments walk rule 2 says, within
/// `StreetFootpaths.joinRadius`; a stop that joins none keeps its straight line, and so do all
/// when the point joins none. One query's: it keeps each stop's joins and one search's arrays.
/// On a step-free network (`profile`), a stop that the feed's import found joined to the map's
/// foot network but to no street of this one is reached by steps only: no walk, not a straight line.
package final class StreetWalker {
    package let network: StreetNetwork
    package let grid: StreetNetwork.SegmentGrid
    package let profile: Walkable.Profile
    private let search: StreetSearch
    /// Each stop's joins, once looked for (empty: the stop joins no street).
    private var stopJoins: [Int: [StreetNetwork.Join]] = [:]
    /// Stops that join the next piece too, told by the import before the feed stores it
    /// (`StreetFootpaths.measure`); after, `Timetable.joinsNextPiece` says.
    private var nextPieceStops = Set<Int>()
    /// Each node's connected piece, worked out when a stop first joins the next piece.
    private lazy var pieceOf: [Int32] = network.pieceIDs()

    package init(_ network: StreetNetwork, _ grid: StreetNetwork.SegmentGrid, profile: Walkable.Profile = .foot) {
        self.network = network
        self.grid = grid
        self.profile = profile
        search = StreetSearch(network)
    }

    /// Does `stop` join the foot network but no street of this step-free one?
    private func stepsOnly(_ stop: Int, _ t: Timetable) -> Bool {
        profile == .stepFree && t.joinsStreets(stop, stepFree: false) && joins(stop: stop, in: t).isEmpty
    }

    private func joins(_ point: Coordinate) -> [StreetNetwork.Join] { network.joins(point, within: StreetFootpaths.joinRadius, grid: grid) }

    /// Does `point` join a street of this network (its walks then follow the streets)?
    package func joinsStreets(_ point: Coordinate) -> Bool { !joins(point).isEmpty }

    /// Where stop `stop` joins the streets (empty: no walkable segment within the join radius).
    /// A stop whose pieces no other stop joins (a footway drawn apart 4 m away, the street 34 m:
    /// its walks were dropped; issue 62) joins the next piece within the radius too, by rule 2's
    /// nearest-plus-slack there.
    package func joins(stop: Int, in t: Timetable) -> [StreetNetwork.Join] {
        if let known = stopJoins[stop] { return known }
        var found = joins(t.coordinate(ofStop: stop))
        if !found.isEmpty && (nextPieceStops.contains(stop) || t.joinsNextPiece(stop, stepFree: profile == .stepFree)) {
            found += nextPiece(t.coordinate(ofStop: stop), beyond: found)
        }
        stopJoins[stop] = found
        return found
    }

    /// The joins of `point` on the nearest piece none of `joins` is on.
    private func nextPiece(_ point: Coordinate, beyond joins: [StreetNetwork.Join]) -> [StreetNetwork.Join] {
        let pieces = pieceOf, own = Set(joins.map { $0.from < pieces.count ? pieces[$0.from] : -1 })
        return network.joins(point, within: StreetFootpaths.joinRadius, grid: grid) { a in a < pieces.count && !own.contains(pieces[a]) }
    }

    /// The piece of each of `stops`' joins (-1: none); the walker's own joins, so that the
    /// import finds the stops alone on their pieces.
    package func pieces(ofStops stops: [Int], in t: Timetable) -> [Set<Int32>] {
        let pieces = pieceOf
        return stops.map { stop in Set(joins(stop: stop, in: t).map { $0.from < pieces.count ? pieces[$0.from] : -1 }) }
    }

    /// From now on these stops join the next piece too (their joins looked for again); those
    /// of them that found one (the others have no other piece within the radius).
    package func joinNextPiece(_ stops: Set<Int>, in t: Timetable) -> Set<Int> {
        let before = Dictionary(uniqueKeysWithValues: stops.map { ($0, joins(stop: $0, in: t).count) })
        nextPieceStops.formUnion(stops)
        for stop in stops { stopJoins[stop] = nil }
        return stops.filter { joins(stop: $0, in: t).count > before[$0] ?? 0 }
    }

    /// For each stop of `stops` (with its straight-line meters): the street meters from the
    /// point by rule 2, as measured (its pieces on the plane can make a walk a few centimetres
    /// shorter than the great circle between the two: the rule's number is kept, as the
    /// reference's); `.infinity` where no street path is within `limit`; absent where the stop
    /// (or the point) joins no street.
    package func meters(from point: Coordinate, to stops: [(stop: Int, meters: Double)], limit: Double, in t: Timetable) -> [Int: Double] {
        meters(from: joins(point), to: stops, limit: limit, in: t)
    }

    /// The same from a stop (its join looked for once).
    package func meters(fromStop stop: Int, to stops: [(stop: Int, meters: Double)], limit: Double, in t: Timetable) -> [Int: Double] {
        guard stop >= 0, stop < t.stopCount else { return [:] }
        if stepsOnly(stop, t) { return Dictionary(stops.map { ($0.stop, .infinity) }, uniquingKeysWith: { a, _ in a }) }
        return meters(from: joins(stop: stop, in: t), to: stops, limit: limit, in: t)
    }

    private func meters(from start: [StreetNetwork.Join], to stops: [(stop: Int, meters: Double)], limit: Double, in t: Timetable) -> [Int: Double] {
        guard !start.isEmpty else { return [:] }
        let ends = stops.map { $0.stop >= 0 && $0.stop < t.stopCount ? joins(stop: $0.stop, in: t) : [] }
        search.run(from: start, limit: limit, until: ends.filter { !$0.isEmpty })
        var out: [Int: Double] = [:]
        for ((stop, _), end) in zip(stops, ends) where stop >= 0 && stop < t.stopCount {
            guard !end.isEmpty else {
                if stepsOnly(stop, t) { out[stop] = .infinity }
                continue
            }
            out[stop] = search.meters(to: end) ?? .infinity
        }
        return out
    }

    /// Where `point` joins the streets (empty: none; its walks are straight lines).
    package func joins(point: Coordinate) -> [StreetNetwork.Join] { joins(point) }

    /// From stop `stop` to many places, each by its joins (`joins(point:)`, looked for once by
    /// the caller): what `meters(from:to:limit:in:)` says from each place to the stop, the
    /// walks being undirected: the street meters (`.infinity`: none within `limit`), nil where
    /// the straight line stands (the place or the stop joins no street). One search for all.
    package func meters(fromStop stop: Int, toPlaces places: [[StreetNetwork.Join]], limit: Double, in t: Timetable) -> [Double?] {
        guard stop >= 0, stop < t.stopCount else { return places.map { _ in nil } }
        let start = joins(stop: stop, in: t)
        guard !start.isEmpty else {
            // Reached by steps only on a step-free network: no walk from a place on the streets.
            let blocked = stepsOnly(stop, t)
            return places.map { blocked && !$0.isEmpty ? .infinity : nil }
        }
        return meters(fromJoins: start, toPlaces: places, limit: limit)
    }

    /// The same from a point's joins (`joins(point:)`), as `walk(from:to:limit:)` measures each.
    package func meters(fromJoins start: [StreetNetwork.Join], toPlaces places: [[StreetNetwork.Join]], limit: Double) -> [Double?] {
        guard !start.isEmpty else { return places.map { _ in nil } }
        search.run(from: start, limit: limit)
        return places.map { $0.isEmpty ? nil : (search.meters(to: $0) ?? .infinity) }
    }

    /// A walk between two places as rule 2 measures it: on the streets, a straight line where
    /// either place joins none, or none within `limit`.
    package enum Walk: Equatable {
        case streets(Double)
        case straight(Double)
        case unreachable
    }

    package func walk(from a: Coordinate, to b: Coordinate, limit: Double) -> Walk {
        let start = joins(a), end = joins(b)
        guard !start.isEmpty, !end.isEmpty else { return .straight(a.meters(to: b, radius: Coordinate.meanEarthRadiusMeters)) }
        search.run(from: start, limit: limit, until: [end])
        return search.meters(to: end).map(Walk.streets) ?? .unreachable
    }

    /// The places a street walk from `a` to `b` passes, both included, for a map to draw; nil
    /// where either joins no street or no walk is within `limit` (the walk was a straight line).
    package func path(from a: Coordinate, to b: Coordinate, limit: Double) -> [Coordinate]? {
        let start = joins(a), end = joins(b)
        guard !start.isEmpty, !end.isEmpty else { return nil }
        search.run(from: start, limit: limit, until: [end])
        return search.path(to: end).map { [a] + $0 + [b] }
    }
}
