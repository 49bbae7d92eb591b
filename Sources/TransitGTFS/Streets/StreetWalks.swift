import Foundation
import TransitSupport

/// Walks on a `StreetNetwork`: where a point joins it, and the shortest street distance between
/// two points (the straight pieces from each point to its join count).
extension StreetNetwork {
    /// The nearest point of the nearest segment within `radius` meters of `point`; nil when none.
    /// Distances on a plane around the point (equirectangular; under 0.1 % off within 100 m).
    package func join(_ point: Coordinate, within radius: Double, grid: SegmentGrid) -> Join? {
        let metersPerDegree = Coordinate.meanEarthRadiusMeters * .pi / 180
        let scale = cos(point.latitude * .pi / 180)
        func plane(_ node: Int) -> (Double, Double) {
            ((longitude[node] - point.longitude) * scale * metersPerDegree, (latitude[node] - point.latitude) * metersPerDegree)
        }
        let reach = radius / metersPerDegree
        let (x0, y0) = grid.key(point.latitude - reach, point.longitude - reach / max(0.01, scale))
        let (x1, y1) = grid.key(point.latitude + reach, point.longitude + reach / max(0.01, scale))
        guard x1 - x0 <= 16, y1 - y0 <= 16 else { return nil }
        var best: Join?
        for x in x0...x1 {
            for y in y0...y1 {
                let cell = grid.cell(x, y)
                var k = cell.startIndex
                while k + 1 < cell.endIndex {
                    let a = Int(cell[k]), slot = Int(cell[k + 1])
                    k += 2
                    guard a >= 0, a < nodeCount, slot >= 0, slot < targets.count else { continue }
                    let b = Int(targets[slot])
                    let (ax, ay) = plane(a), (bx, by) = plane(b)
                    let dx = bx - ax, dy = by - ay, length = dx * dx + dy * dy
                    let t = length > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length)) : 0
                    let px = ax + t * dx, py = ay + t * dy
                    let distance = (px * px + py * py).squareRoot()
                    guard distance <= radius, distance < (best?.distance ?? .infinity) else { continue }
                    best = Join(from: a, to: b, offset: t * meters[slot], meters: meters[slot], distance: distance)
                }
            }
        }
        return best
    }

    /// Street distances from `join` to the nodes reached within `limit` meters (Dijkstra, the
    /// straight piece to the join included).
    package func distances(from join: Join, limit: Double) -> [Int: Double] {
        var best: [Int: Double] = [:]
        var heap = MinimumHeap()
        for (node, meters) in [(join.from, join.distance + join.offset), (join.to, join.distance + join.meters - join.offset)] where meters <= limit {
            if meters < best[node] ?? .infinity {
                best[node] = meters
                heap.push(meters, node)
            }
        }
        while let (meters, node) = heap.pop() {
            guard meters <= best[node] ?? .infinity else { continue }
            for slot in Int(start[node])..<Int(start[node + 1]) {
                let next = Int(targets[slot]), through = meters + self.meters[slot]
                guard through <= limit, through < best[next] ?? .infinity else { continue }
                best[next] = through
                heap.push(through, next)
            }
        }
        return best
    }

    /// The street distance from `a` to `b` given `a`'s distances (`distances(from: a, …)`); nil
    /// beyond them.
    package func meters(from a: Join, _ reached: [Int: Double], to b: Join) -> Double? {
        var best = Double.infinity
        if let d = reached[b.from] { best = min(best, d + b.offset + b.distance) }
        if let d = reached[b.to] { best = min(best, d + b.meters - b.offset + b.distance) }
        // On the same segment: along it, between the two joins.
        if a.from == b.from && a.to == b.to { best = min(best, a.distance + abs(a.offset - b.offset) + b.distance) }
        if a.from == b.to && a.to == b.from { best = min(best, a.distance + abs(a.offset - (b.meters - b.offset)) + b.distance) }
        return best.isFinite ? best : nil
    }
}

/// A binary heap of (meters, node), least first.
package struct MinimumHeap {
    private var items: [(Double, Int)] = []

    package var isEmpty: Bool { items.isEmpty }

    package mutating func push(_ key: Double, _ value: Int) {
        items.append((key, value))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].0 < items[parent].0 else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    package mutating func pop() -> (Double, Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count, items[l].0 < items[m].0 { m = l }
                if r < items.count, items[r].0 < items[m].0 { m = r }
                guard m != i else { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
