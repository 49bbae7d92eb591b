import Foundation
import TransitSupport

/// The walks between a point (a query's `LAT,LON` end) and stops, on a map's streets: the
/// point and each stop join the nearest walkable segment within `StreetFootpaths.joinRadius`;
/// a stop that does not keeps its straight line, and so do all when the point does not.
package struct StreetWalker {
    package let network: StreetNetwork
    package let grid: StreetNetwork.SegmentGrid

    package init(_ network: StreetNetwork, _ grid: StreetNetwork.SegmentGrid) {
        self.network = network
        self.grid = grid
    }

    /// For each stop of `stops` (with its straight-line meters): the street meters from the
    /// point, at least the straight line; `.infinity` where no street path is within `limit`;
    /// absent where the stop (or the point) joins no street.
    package func meters(from point: Coordinate, to stops: [(stop: Int, meters: Double)], limit: Double, in t: Timetable) -> [Int: Double] {
        guard let start = network.join(point, within: StreetFootpaths.joinRadius, grid: grid) else { return [:] }
        let reached = network.distances(from: start, limit: limit)
        var out: [Int: Double] = [:]
        for (stop, straight) in stops where stop >= 0 && stop < t.stopCount {
            let place = Coordinate(latitude: t.stopLat[stop], longitude: t.stopLon[stop])
            guard let end = network.join(place, within: StreetFootpaths.joinRadius, grid: grid) else { continue }
            out[stop] = network.meters(from: start, reached, to: end).map { max($0, straight) } ?? .infinity
        }
        return out
    }
}
