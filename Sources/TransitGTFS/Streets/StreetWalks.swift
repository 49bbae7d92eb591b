import Foundation
import TransitSupport

/// Walks on a `StreetNetwork` by walk rule 2: where a place joins it (`joins`), and the shortest
/// street walks between places (`StreetSearch`: the straight pieces from each place to its
/// joins count, and two places that join one segment may walk along it).
extension StreetNetwork {
    /// Rule 2's flat plane around a place: meters per degree of longitude (times the cosine of the
    /// latitude) and of latitude (../shared/reference/osm/README.md, "Joins").
    package static let metersPerDegreeLongitude = 111_320.0, metersPerDegreeLatitude = 110_574.0
    /// A place joins every segment within the nearest one's distance plus this, and within the radius.
    package static let joinSlack = 25.0

    /// Where `point` joins the network by walk rule 2: every segment whose distance from it is at
    /// most the nearest one's plus `joinSlack` and at most `radius` meters, each at its nearest
    /// point (the segment's distance on the plane around the point, its share of the segment's
    /// great-circle length to either end). Segments of islands are not in the grid. Empty: the
    /// point joins nothing (its walks are straight lines).
    /// `admit`: only segments whose node `from` it admits (the next piece, `StreetWalker`).
    package func joins(_ point: Coordinate, within radius: Double, grid: SegmentGrid, admit: ((Int) -> Bool)? = nil) -> [Join] {
        let scale = cos(point.latitude * .pi / 180)
        func plane(_ node: Int) -> (Double, Double) {
            ((longitude[node] - point.longitude) * scale * Self.metersPerDegreeLongitude, (latitude[node] - point.latitude) * Self.metersPerDegreeLatitude)
        }
        let reach = radius / Self.metersPerDegreeLatitude
        let (x0, y0) = grid.key(point.latitude - reach, point.longitude - reach / max(0.01, scale))
        let (x1, y1) = grid.key(point.latitude + reach, point.longitude + reach / max(0.01, scale))
        guard x1 - x0 <= 16, y1 - y0 <= 16 else { return [] }
        var found: [Int32: Join] = [:]
        for x in x0...x1 {
            for y in y0...y1 {
                let cell = grid.cell(x, y)
                var k = cell.startIndex
                while k + 1 < cell.endIndex {
                    let a = Int(cell[k]), slot = Int(cell[k + 1])
                    k += 2
                    guard a >= 0, a < nodeCount, slot >= 0, slot < targets.count, found[Int32(slot)] == nil, admit?(a) ?? true else { continue }
                    let b = Int(targets[slot])
                    let (ax, ay) = plane(a), (bx, by) = plane(b)
                    let dx = bx - ax, dy = by - ay, length = dx * dx + dy * dy
                    let t = length > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length)) : 0
                    let px = ax + t * dx, py = ay + t * dy
                    let distance = (px * px + py * py).squareRoot()
                    guard distance <= radius else { continue }
                    found[Int32(slot)] = Join(from: a, to: b, offset: t * meters[slot], meters: meters[slot], distance: distance)
                }
            }
        }
        guard let nearest = found.values.map(\.distance).min() else { return [] }
        // In a fixed order (by segment), so that equal walks resolve alike on every run.
        return found.sorted { $0.key < $1.key }.map(\.value).filter { $0.distance <= nearest + Self.joinSlack }
    }

    /// Where a join meets its segment.
    package func place(_ join: Join) -> Coordinate {
        let share = join.meters > 0 ? min(1, max(0, join.offset / join.meters)) : 0
        return Coordinate(latitude: latitude[join.from] + (latitude[join.to] - latitude[join.from]) * share,
                          longitude: longitude[join.from] + (longitude[join.to] - longitude[join.from]) * share)
    }
}

/// Shortest street walks from one place's joins at a time (Dijkstra), in buffers as long as the network's
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
    private var origin: [Join] = []

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

    /// Searches from a place's joins (the straight piece to each included) every node within
    /// `limit` meters; with `targets` (places, each by its joins), only until each target's walk
    /// is known: every node still to settle is at least as far as the nodes settled, so a target
    /// whose walk is no longer than the last node settled has its walk (a stop's walks within
    /// 600 m mostly end within 200: searching the whole radius was most of an import's time).
    package func run(from joins: [Join], limit: Double, until targets: [[Join]] = []) {
        let best = self.best, previous = self.previous
        for node in reached {
            best[Int(node)] = .infinity
            previous[Int(node)] = -1
        }
        var reached = self.reached, heap = self.heap
        reached.removeAll(keepingCapacity: true)
        heap.removeAll()
        defer {
            self.reached = reached
            self.heap = heap
        }
        origin = joins.filter { $0.from >= 0 && $0.from < best.count && $0.to >= 0 && $0.to < best.count }
        func settle(_ node: Int, _ meters: Double, from: Int32) {
            guard meters <= limit, meters < best[node] else { return }
            if best[node] == .infinity { reached.append(Int32(node)) }
            best[node] = meters
            previous[node] = from
            heap.push(meters, node)
        }
        for join in origin {
            settle(join.from, join.distance + join.offset, from: -1)
            settle(join.to, join.distance + join.meters - join.offset, from: -1)
        }
        var waiting = Waiting(targets, origin: origin, nodes: best.count)
        network.start.withUnsafeBufferPointer { start in
            network.targets.withUnsafeBufferPointer { targets in
                network.meters.withUnsafeBufferPointer { lengths in
                    while let (meters, node) = heap.pop() {
                        guard meters <= best[node] else { continue }
                        if waiting.active {
                            waiting.settled(node, meters)
                            if waiting.allKnown(by: meters) { break }
                        }
                        for slot in Int(start[node])..<Int(start[node + 1]) {
                            settle(Int(targets[slot]), meters + lengths[slot], from: Int32(node))
                        }
                    }
                }
            }
        }
    }

    /// The walk between joins `a` and `b` along the one segment both are on (either way round);
    /// `.infinity` where they are on different segments.
    static func along(_ a: Join, _ b: Join) -> Double {
        var meters = Double.infinity
        if a.from == b.from && a.to == b.to { meters = a.distance + abs(a.offset - b.offset) + b.distance }
        if a.from == b.to && a.to == b.from { meters = min(meters, a.distance + abs(a.offset - (b.meters - b.offset)) + b.distance) }
        return meters
    }

    /// The targets of a search that stops early (`run(from:limit:until:)`): each target's walk
    /// as far as known (through a node settled, or along a segment it shares with the start),
    /// and the targets each node ends a join of.
    private struct Waiting {
        private var known: [Double]
        private var joinsAt: [Int32: [(target: Int32, extra: Double)]] = [:]
        private var longest = Double.infinity
        let active: Bool

        init(_ targets: [[Join]], origin: [Join], nodes: Int) {
            known = [Double](repeating: .infinity, count: targets.count)
            active = !targets.isEmpty && !origin.isEmpty
            guard active else { return }
            for (k, ends) in targets.enumerated() {
                for b in ends where b.from >= 0 && b.from < nodes && b.to >= 0 && b.to < nodes {
                    joinsAt[Int32(b.from), default: []].append((Int32(k), b.offset + b.distance))
                    joinsAt[Int32(b.to), default: []].append((Int32(k), b.meters - b.offset + b.distance))
                    for a in origin { known[k] = min(known[k], StreetSearch.along(a, b)) }
                }
            }
            longest = known.max() ?? .infinity
        }

        /// Node `node` settled at `meters`: the walks through it.
        mutating func settled(_ node: Int, _ meters: Double) {
            guard let ends = joinsAt[Int32(node)] else { return }
            for (target, extra) in ends where meters + extra < known[Int(target)] {
                let before = known[Int(target)]
                known[Int(target)] = meters + extra
                if before >= longest { longest = known.max() ?? .infinity }
            }
        }

        /// Is every target's walk known, no node left to settle being nearer than `meters`?
        func allKnown(by meters: Double) -> Bool { longest <= meters }
    }

    /// The street distance from the last search's place to a place joined at `ends`; nil
    /// beyond its limit.
    package func meters(to ends: [Join]) -> Double? { arrival(at: ends)?.meters }

    /// The shortest walk to a place joined at `ends`: through an end of one of its segments
    /// (`node`), or along a segment both places join (`node` -1, the joins `start` and `end`).
    private func arrival(at ends: [Join]) -> (meters: Double, node: Int, start: Join?, end: Join)? {
        var result: (meters: Double, node: Int, start: Join?, end: Join)?
        func consider(_ meters: Double, _ node: Int, _ start: Join?, _ end: Join) {
            if meters < (result?.meters ?? .infinity) { result = (meters, node, start, end) }
        }
        for b in ends where b.from >= 0 && b.from < best.count && b.to >= 0 && b.to < best.count {
            consider(best[b.from] + b.offset + b.distance, b.from, nil, b)
            consider(best[b.to] + b.meters - b.offset + b.distance, b.to, nil, b)
            // On a segment both places join: along it, between the two joins.
            for a in origin { consider(Self.along(a, b), -1, a, b) }
        }
        return result.flatMap { $0.meters.isFinite ? $0 : nil }
    }

    /// The places the shortest walk from the last search's place to a place joined at `ends`
    /// passes: where it leaves the start's segment, the nodes between, where it reaches the end's;
    /// nil beyond the limit. What a map draws.
    package func path(to ends: [Join]) -> [Coordinate]? {
        guard let found = arrival(at: ends) else { return nil }
        if found.node < 0, let start = found.start { return [network.place(start), network.place(found.end)] }
        var nodes: [Int] = []
        var node = found.node
        // Each predecessor is strictly nearer, so the chain ends; bounded all the same.
        while node >= 0, nodes.count <= network.nodeCount {
            nodes.append(node)
            node = Int(previous[node])
        }
        // The start's join the path left by: the one whose segment ends at the path's first node
        // at the distance the search settled it with.
        let first = nodes.last ?? found.node
        let leave = origin.first { ($0.from == first && abs($0.distance + $0.offset - best[first]) < 1e-6)
            || ($0.to == first && abs($0.distance + $0.meters - $0.offset - best[first]) < 1e-6) } ?? origin.first
        return (leave.map { [network.place($0)] } ?? []) + nodes.reversed().map(network.coordinate) + [network.place(found.end)]
    }
}

/// A binary heap of (meters, node), least first.
package struct MinimumHeap {
    private var items: [(Double, Int)] = []

    package var isEmpty: Bool { items.isEmpty }

    /// Empty, its storage kept (a search stopped early leaves some behind).
    package mutating func removeAll() { items.removeAll(keepingCapacity: true) }

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
