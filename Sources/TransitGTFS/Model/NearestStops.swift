import Foundation
import TransitSupport

/// The stops nearest each stop, for the walks a timetable stores: a k-d tree over the stops'
/// places on the sphere (3-D points, whose straight-line distance orders pairs as the great circle
/// does), asked for at most `limit` stops within a radius, nearest first and, at one distance, by
/// stop index. Built in O(n log² n), asked in about O(log n + limit): 16,000 stops at one place
/// cost what 16,000 scattered ones do, where a grid of cells compared every pair of them.
package struct NearestStops {
    /// The stops with a place, in tree order: node `k` of the range `lo..<hi` is `order[(lo + hi) / 2]`.
    private var order: [Int32] = []
    private var points: [(Double, Double, Double)] = []
    /// Per tree position: the axis split on, and the least stop index of its subtree.
    private var axis: [UInt8] = []
    private var least: [Int32] = []

    package init(_ t: Timetable) {
        points = (0..<t.stopCount).map { Self.point(t.stopLat[$0], t.stopLon[$0]) }
        order = (0..<t.stopCount).filter { !t.stopLat[$0].isNaN && !t.stopLon[$0].isNaN }.map { Int32($0) }
        axis = [UInt8](repeating: 0, count: order.count)
        least = [Int32](repeating: 0, count: order.count)
        // Ranges split at their middle, on the axis the range spreads most along (so that places
        // repeated or on a line still halve), without recursion.
        var ranges = [(0, order.count)]
        while let (lo, hi) = ranges.popLast() {
            guard lo < hi else { continue }
            var low = (Double.infinity, Double.infinity, Double.infinity), high = (-Double.infinity, -Double.infinity, -Double.infinity)
            var smallest = Int32.max
            for k in lo..<hi {
                let p = points[Int(order[k])]
                low = (min(low.0, p.0), min(low.1, p.1), min(low.2, p.2))
                high = (max(high.0, p.0), max(high.1, p.1), max(high.2, p.2))
                smallest = min(smallest, order[k])
            }
            let spread = (high.0 - low.0, high.1 - low.1, high.2 - low.2)
            let a: UInt8 = spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : spread.1 >= spread.2 ? 1 : 2
            let mid = (lo + hi) / 2
            order[lo..<hi].sort { x, y in
                let u = Self.coordinate(points[Int(x)], a), v = Self.coordinate(points[Int(y)], a)
                return u < v || (u == v && x < y)
            }
            axis[mid] = a
            least[mid] = smallest
            ranges.append((lo, mid))
            ranges.append((mid + 1, hi))
        }
    }

    /// A place as a point of a sphere of the radius `Coordinate.meters` measures on (meters), so
    /// that a difference of coordinates is never longer than the arc.
    static func point(_ latitude: Double, _ longitude: Double) -> (Double, Double, Double) {
        let r = Coordinate.earthRadiusMeters, lat = latitude * .pi / 180, lon = longitude * .pi / 180
        return (r * cos(lat) * cos(lon), r * cos(lat) * sin(lon), r * sin(lat))
    }

    static func coordinate(_ p: (Double, Double, Double), _ axis: UInt8) -> Double { axis == 0 ? p.0 : axis == 1 ? p.1 : p.2 }

    /// Up to `limit` stops (not `stop` itself) within `radius` meters of it, by the great circle
    /// (`Coordinate.meters`), nearest first, ties by index.
    package func near(_ stop: Int, within radius: Double, limit: Int, _ t: Timetable) -> [(stop: Int, meters: Double)] {
        guard stop >= 0, stop < points.count, limit > 0, !t.stopLat[stop].isNaN, !t.stopLon[stop].isNaN else { return [] }
        let here = Coordinate(latitude: t.stopLat[stop], longitude: t.stopLon[stop]), q = points[stop]
        var best = WorstFirst(limit: limit)
        // What rounding may make a bound longer than the arc it bounds.
        let slack = 1e-6
        // Ranges still to look at, with how far their side of the split is at least.
        var pending = [(lo: 0, hi: order.count, bound: 0.0)]
        while let (lo, hi, bound) = pending.popLast() {
            guard lo < hi, bound <= radius + slack else { continue }
            let mid = (lo + hi) / 2
            // A whole subtree is out when no stop of it can come before the worst kept: all are
            // at least `bound` away (a chord is never longer than its arc), and at that distance
            // only a lower index would.
            if let worst = best.worst, bound > worst.meters + slack || (bound >= worst.meters && Int(least[mid]) > worst.stop) { continue }
            let y = Int(order[mid]), p = points[y]
            if y != stop {
                let meters = here.meters(to: Coordinate(latitude: t.stopLat[y], longitude: t.stopLon[y]))
                if meters.isFinite && meters <= radius { best.offer(stop: y, meters: meters) }
            }
            let a = axis[mid], split = Self.coordinate(p, a) - Self.coordinate(q, a)
            // The far side is at least |split| away; the near side is looked at first, and on the
            // split itself the left (a range sorted by index within one place): the lower indices
            // come first and fill `best`, and the rest are pruned by `least`.
            let left = (lo, mid, split < 0 ? max(bound, -split) : bound), right = (mid + 1, hi, split > 0 ? max(bound, split) : bound)
            if split >= 0 {
                pending.append(right)
                pending.append(left)
            } else {
                pending.append(left)
                pending.append(right)
            }
        }
        return best.sorted()
    }

    /// The `limit` best (meters, stop) seen, in a binary heap with the worst on top.
    package struct WorstFirst {
        let limit: Int
        var heap: [(stop: Int, meters: Double)] = []

        var worst: (stop: Int, meters: Double)? { heap.count < limit ? nil : heap.first }

        /// Nearer first; at one distance, the lower index.
        package static func before(_ a: (stop: Int, meters: Double), _ b: (stop: Int, meters: Double)) -> Bool {
            a.meters < b.meters || (a.meters == b.meters && a.stop < b.stop)
        }

        mutating func offer(stop: Int, meters: Double) {
            let item = (stop: stop, meters: meters)
            if heap.count < limit {
                heap.append(item)
                var k = heap.count - 1
                while k > 0, Self.before(heap[(k - 1) / 2], heap[k]) {
                    heap.swapAt(k, (k - 1) / 2)
                    k = (k - 1) / 2
                }
                return
            }
            guard let top = heap.first, Self.before(item, top) else { return }
            heap[0] = item
            var k = 0
            while true {
                let l = 2 * k + 1, r = l + 1
                var largest = k
                if l < heap.count, Self.before(heap[largest], heap[l]) { largest = l }
                if r < heap.count, Self.before(heap[largest], heap[r]) { largest = r }
                guard largest != k else { return }
                heap.swapAt(k, largest)
                k = largest
            }
        }

        func sorted() -> [(stop: Int, meters: Double)] { heap.sorted(by: Self.before) }
    }
}
