import Foundation
import TransitSupport

/// The walks between a point (a query's `LAT,LON` end, or a stop) and stops, on a map's
/// streets: the point and each stop join the nearest walkable segment within
/// `StreetFootpaths.joinRadius`; a stop that does not keeps its straight line, and so do all when
/// the point does not. One query's: it keeps each stop's join and one search's arrays.
package final class StreetWalker {
    package let network: StreetNetwork
    package let grid: StreetNetwork.SegmentGrid
    private let search: StreetSearch
    /// Each stop's join, once looked for (nil inside: the stop joins no street).
    private var stopJoins: [Int: StreetNetwork.Join?] = [:]

    package init(_ network: StreetNetwork, _ grid: StreetNetwork.SegmentGrid) {
        self.network = network
        self.grid = grid
        search = StreetSearch(network)
    }

    private func join(_ point: Coordinate) -> StreetNetwork.Join? { network.join(point, within: StreetFootpaths.joinRadius, grid: grid) }

    /// Where stop `stop` joins the streets (nil: no walkable segment within the join radius).
    package func join(stop: Int, in t: Timetable) -> StreetNetwork.Join? {
        if let known = stopJoins[stop] { return known }
        let found = join(Coordinate(latitude: t.stopLat[stop], longitude: t.stopLon[stop]))
        stopJoins[stop] = found
        return found
    }

    /// For each stop of `stops` (with its straight-line meters): the street meters from the
    /// point, at least the straight line (a join's plane is an approximation); `.infinity` where
    /// no street path is within `limit`; absent where the stop (or the point) joins no street.
    package func meters(from point: Coordinate, to stops: [(stop: Int, meters: Double)], limit: Double, in t: Timetable) -> [Int: Double] {
        meters(from: join(point), to: stops, limit: limit, in: t)
    }

    /// The same from a stop (its join looked for once).
    package func meters(fromStop stop: Int, to stops: [(stop: Int, meters: Double)], limit: Double, in t: Timetable) -> [Int: Double] {
        guard stop >= 0, stop < t.stopCount else { return [:] }
        return meters(from: join(stop: stop, in: t), to: stops, limit: limit, in: t)
    }

    private func meters(from start: StreetNetwork.Join?, to stops: [(stop: Int, meters: Double)], limit: Double, in t: Timetable) -> [Int: Double] {
        guard let start else { return [:] }
        search.run(from: start, limit: limit)
        var out: [Int: Double] = [:]
        for (stop, straight) in stops where stop >= 0 && stop < t.stopCount {
            guard let end = join(stop: stop, in: t) else { continue }
            out[stop] = search.meters(to: end).map { max($0, straight) } ?? .infinity
        }
        return out
    }

    /// The places a street walk from `a` to `b` passes, both included, for a map to draw; nil
    /// where either joins no street or no walk is within `limit` (the walk was a straight line).
    package func path(from a: Coordinate, to b: Coordinate, limit: Double) -> [Coordinate]? {
        guard let start = join(a), let end = join(b) else { return nil }
        search.run(from: start, limit: limit)
        return search.path(to: end).map { [a] + $0 + [b] }
    }
}
