import Foundation
import TransitSupport

/// Walks on a `StreetNetwork`: where a point joins it (`join`), and the shortest street walks
/// from a join (`StreetSearch`: the straight pieces from each point to its join count).
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

    /// Where a join meets its segment.
    package func place(_ join: Join) -> Coordinate {
        let share = join.meters > 0 ? min(1, max(0, join.offset / join.meters)) : 0
        return Coordinate(latitude: latitude[join.from] + (latitude[join.to] - latitude[join.from]) * share,
                          longitude: longitude[join.from] + (longitude[join.to] - longitude[join.from]) * share)
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

/// Shortest street walks from one join at a time (Dijkstra), in buffers as long as the network's
/// nodes, kept between searches: a search resets only the nodes it reached. Hashing nodes into
/// dictionaries took half of a query that measures walks as it goes, and arrays in a class paid
/// an exclusivity check at every access; plain buffers pay neither. Not for two threads.
package final class StreetSearch {
    package typealias Join = StreetNetwork.Join

    package let network: StreetNetwork
    /// The last search's distances (`.infinity`: not reached) and each node's predecessor on its
    /// shortest path (-1 for the two ends of the start's segment, where every path begins).
    private let best: UnsafeMutableBufferPointer<Double>
    private let previous: UnsafeMutableBufferPointer<Int32>
    private var reached: [Int32] = []
    private var heap = MinimumHeap()
    private var origin: Join?

    package init(_ network: StreetNetwork) {
        self.network = network
        best = .allocate(capacity: network.nodeCount)
        best.initialize(repeating: .infinity)
        previous = .allocate(capacity: network.nodeCount)
        previous.initialize(repeating: -1)
    }

    deinit {
        best.deallocate()
        previous.deallocate()
    }

    /// Searches from `join` (the straight piece to it included) every node within `limit` meters.
    package func run(from join: Join, limit: Double) {
        let best = self.best, previous = self.previous
        for node in reached {
            best[Int(node)] = .infinity
            previous[Int(node)] = -1
        }
        var reached = self.reached, heap = self.heap
        reached.removeAll(keepingCapacity: true)
        defer {
            self.reached = reached
            self.heap = heap
        }
        origin = join
        guard join.from >= 0, join.from < best.count, join.to >= 0, join.to < best.count else { return }
        func settle(_ node: Int, _ meters: Double, from: Int32) {
            guard meters <= limit, meters < best[node] else { return }
            if best[node] == .infinity { reached.append(Int32(node)) }
            best[node] = meters
            previous[node] = from
            heap.push(meters, node)
        }
        settle(join.from, join.distance + join.offset, from: -1)
        settle(join.to, join.distance + join.meters - join.offset, from: -1)
        network.start.withUnsafeBufferPointer { start in
            network.targets.withUnsafeBufferPointer { targets in
                network.meters.withUnsafeBufferPointer { lengths in
                    while let (meters, node) = heap.pop() {
                        guard meters <= best[node] else { continue }
                        for slot in Int(start[node])..<Int(start[node + 1]) {
                            settle(Int(targets[slot]), meters + lengths[slot], from: Int32(node))
                        }
                    }
                }
            }
        }
    }

    /// The street distance from the last search's join to `b`; nil beyond its limit.
    package func meters(to b: Join) -> Double? { arrival(at: b)?.meters }

    /// The distance to `b`, and through which end of `b`'s segment (-1: along the start's own).
    private func arrival(at b: Join) -> (meters: Double, node: Int)? {
        guard let a = origin, b.from >= 0, b.from < best.count, b.to >= 0, b.to < best.count else { return nil }
        var result: (meters: Double, node: Int) = (.infinity, -1)
        if best[b.from] + b.offset + b.distance < result.meters { result = (best[b.from] + b.offset + b.distance, b.from) }
        if best[b.to] + b.meters - b.offset + b.distance < result.meters { result = (best[b.to] + b.meters - b.offset + b.distance, b.to) }
        // On the same segment: along it, between the two joins.
        var along = Double.infinity
        if a.from == b.from && a.to == b.to { along = a.distance + abs(a.offset - b.offset) + b.distance }
        if a.from == b.to && a.to == b.from { along = a.distance + abs(a.offset - (b.meters - b.offset)) + b.distance }
        if along < result.meters { result = (along, -1) }
        return result.meters.isFinite ? result : nil
    }

    /// The places the shortest walk from the last search's join to `b` passes: where the start
    /// joins its segment, the nodes between, where `b` joins; nil beyond the limit. What a map draws.
    package func path(to b: Join) -> [Coordinate]? {
        guard let a = origin, let (_, last) = arrival(at: b) else { return nil }
        var nodes: [Int] = []
        var node = last
        // Each predecessor is strictly nearer, so the chain ends; bounded all the same.
        while node >= 0, nodes.count <= network.nodeCount {
            nodes.append(node)
            node = Int(previous[node])
        }
        return [network.place(a)] + nodes.reversed().map(network.coordinate) + [network.place(b)]
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
