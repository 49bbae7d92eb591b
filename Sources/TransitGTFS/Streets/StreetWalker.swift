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
    package func joins(stop: Int, in t: Timetable) -> [StreetNetwork.Join] {
        if let known = stopJoins[stop] { return known }
        let found = joins(t.coordinate(ofStop: stop))
        stopJoins[stop] = found
        return found
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
        search.run(from: start, limit: limit)
        var out: [Int: Double] = [:]
        for (stop, _) in stops where stop >= 0 && stop < t.stopCount {
            let end = joins(stop: stop, in: t)
            guard !end.isEmpty else {
                if stepsOnly(stop, t) { out[stop] = .infinity }
                continue
            }
            out[stop] = search.meters(to: end) ?? .infinity
        }
        return out
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
        search.run(from: start, limit: limit)
        return search.meters(to: end).map(Walk.streets) ?? .unreachable
    }

    /// The places a street walk from `a` to `b` passes, both included, for a map to draw; nil
    /// where either joins no street or no walk is within `limit` (the walk was a straight line).
    package func path(from a: Coordinate, to b: Coordinate, limit: Double) -> [Coordinate]? {
        let start = joins(a), end = joins(b)
        guard !start.isEmpty, !end.isEmpty else { return nil }
        search.run(from: start, limit: limit)
        return search.path(to: end).map { [a] + $0 + [b] }
    }
}
