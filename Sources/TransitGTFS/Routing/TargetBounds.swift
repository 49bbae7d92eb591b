import Foundation
import TransitSupport

/// For each stop, a lower bound of the seconds from being there to arriving at the destination
/// (nigiri's `lb`, from a Dijkstra over minimal travel times): a label at stop `y` arriving at
/// `a` can lead to nothing better than the best arrival known when `a + bound[y]` is no earlier.
/// The search then leaves alone every stop off the way to the destination, and on a dense
/// timetable a later departure's answer cuts an earlier departure's search to a few scans.
///
/// A bound must never exceed the truth, so the graph holds more than a search can use: each
/// hop of each pattern running on the day, as short as its shortest run makes it (boarding and
/// alighting rules ignored), and every change the search could make (the same station, a
/// transfers.txt pair, a walk) at no cost at all. Built backward from the destinations, each
/// starting at its walk to the point less the shortest such walk, as the search's own bound does.
package struct TargetBounds {
    /// What no destination can be reached from.
    package static let unreachable = Int32.max

    /// Per stop: the least seconds from there to the destination.
    package let stop: [Int32]
    /// Per pattern position (from `positions[q]`, the first call of pattern q among all
    /// patterns' calls): the least seconds from boarding there to the destination, riding at
    /// least one hop (a pattern going away from it is out at once).
    package let ride: [Int32]
    package let positions: [Int]
    /// Every run's times never fall along it (arrival ≤ departure ≤ the next arrival): then a
    /// run's arrival plus the stop's bound never falls along the run either (each hop is at
    /// least its pattern's least, which the bounds were built on), and a scan whose arrival
    /// holds no promise can stop there.
    package let rising: Bool

    /// No bounds: every one 0, nothing pruned.
    package static let none = TargetBounds(stop: [], ride: [], positions: [], rising: false)

    init(stop: [Int32], ride: [Int32], positions: [Int], rising: Bool) {
        self.stop = stop
        self.ride = ride
        self.positions = positions
        self.rising = rising
    }

    /// Whether bounds pay for themselves: building them reads every stop and pattern of the
    /// day (and each run's times), a cost the search repays per departure from the origin. A
    /// whole day on BART (409 departures) or dense81 (29,265) builds them; a one-hour window on
    /// a feed of a million stops (a dozen departures) does not.
    package static func worthBuilding(_ schedule: some Schedule, departures: Int) -> Bool {
        departures.multipliedReportingOverflow(by: 200).partialValue >= schedule.stopCount + schedule.patternCount
    }

    /// Each destination starts at its walk to the point less the shortest such walk, as the
    /// search's own bound does.
    package init<S: Schedule>(_ schedule: S, edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) {
        // Each pattern's first call among all patterns' calls, and their count last.
        let positions = (0..<schedule.patternCount).map(schedule.firstCall) + [schedule.callCount]
        let hops = Self.shortestHops(schedule, positions: positions)
        let bound = Self.stopBounds(schedule, hops: hops.seconds, positions: positions,
                                    before: edges.changesInto(stops: schedule.stopCount), from: destinations)
        let ride = Self.rideBounds(patterns: schedule.patternCount, positions: positions, length: schedule.length,
                                   hops: { q, i in hops.seconds[positions[q] + i] }, stopBound: { q, i in bound[schedule.stop(q, i)] })
        self.init(stop: bound, ride: ride, positions: positions, rising: hops.rising)
    }

    /// Over several days' runs as one schedule (`DaysSchedule`): one Dijkstra on the patterns of
    /// one day, each hop the least of any day's runs, every copy of a pattern reading its
    /// pattern's ride bounds (a Dijkstra over every copy was most of an ordinary query's cost).
    package init<Day: Schedule>(days: DaysSchedule<Day>, edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) {
        let each = days.days, perDay = each.first?.patternCount ?? 0
        guard let first = each.first else {
            self.init(stop: [], ride: [], positions: [0], rising: true)
            return
        }
        let positions = (0..<perDay).map(first.firstCall) + [first.callCount]
        var hops = Self.shortestHops(first, positions: positions)
        // A day that runs the same services as one read already has the same hops.
        var read = [first.servicesRunning]
        for day in each.dropFirst() {
            let services = day.servicesRunning
            if services != nil && read.contains(services) { continue }
            read.append(services)
            let other = Self.shortestHops(day, positions: positions)
            for k in hops.seconds.indices where other.seconds[k] < hops.seconds[k] { hops.seconds[k] = other.seconds[k] }
            hops.rising = hops.rising && other.rising
        }
        let bound = Self.stopBounds(first, hops: hops.seconds, positions: positions, before: edges.changesInto(stops: first.stopCount),
                                    from: destinations)
        let ride = Self.rideBounds(patterns: perDay, positions: positions, length: first.length,
                                   hops: { q, i in hops.seconds[positions[q] + i] }, stopBound: { q, i in bound[first.stop(q, i)] })
        // Copy k of pattern p is pattern k × perDay + p: its positions are its pattern's.
        let copies = (0..<days.patternCount).map { positions[perDay > 0 ? $0 % perDay : 0] } + [first.callCount]
        self.init(stop: bound, ride: ride, positions: copies, rising: hops.rising)
    }

    /// Per stop, the least seconds to any of `starts` (plus its start): a Dijkstra backward over
    /// the patterns' shortest hops and, at no cost, every change into a stop (`before`).
    static func stopBounds<S: Schedule>(_ schedule: S, hops: [Int32], positions: [Int], before: (start: [Int32], stops: [Int32]),
                                        from starts: [(stop: Int, start: Int32)]) -> [Int32] {
        let n = schedule.stopCount, unreachable = Self.unreachable
        var bound = [Int32](repeating: unreachable, count: n)
        var heap = MinimumHeap()
        for (d, start) in starts where d >= 0 && d < n && start < bound[d] {
            bound[d] = max(0, start)
            heap.push(Double(bound[d]), d)
        }
        while let (key, v) = heap.pop() {
            let seconds = Int32(key)
            guard seconds <= bound[v] else { continue }
            func relax(_ u: Int, _ through: Int32) {
                guard u >= 0, u < n, through < bound[u] else { return }
                bound[u] = through
                heap.push(Double(through), u)
            }
            // Riding into v: from the stop before it on each pattern calling at it.
            for k in schedule.calls(at: v) {
                let (q, i) = schedule.call(k)
                guard i >= 1 else { continue }
                let hop = hops[positions[q] + i - 1]
                if hop != unreachable { relax(schedule.stop(q, i - 1), seconds &+ hop) }
            }
            // Changing into v, free.
            for u in before.stops[Int(before.start[v])..<Int(before.start[v + 1])] { relax(Int(u), seconds) }
        }
        return bound
    }

    /// Per pattern position (from `positions[q]`), boarding there: one hop, then alighting at the
    /// next stop (whose bound `stopBound(q, i + 1)` says) or riding on. `length`: the schedule's,
    /// 0 for a pattern whose offsets are damaged.
    static func rideBounds(patterns: Int, positions: [Int], length: (Int) -> Int, hops: (Int, Int) -> Int32,
                           stopBound: (Int, Int) -> Int32) -> [Int32] {
        let unreachable = Self.unreachable
        var ride = [Int32](repeating: unreachable, count: positions.last ?? 0)
        for q in 0..<patterns where length(q) > 1 {
            var onward = Int64(unreachable)
            for i in stride(from: length(q) - 2, through: 0, by: -1) {
                let hop = hops(q, i)
                let next = Int64(stopBound(q, i + 1))
                onward = hop == unreachable ? Int64(unreachable) : min(Int64(unreachable), min(next, onward) + Int64(hop))
                ride[positions[q] + i] = Int32(onward)
            }
        }
        return ride
    }

    /// Bounds on `via`'s layered network, each layer its own: in layer l (vias 0 to l − 1 called
    /// at), the least seconds to call at via l, then at each later via (its stay waited), then to
    /// arrive. One Dijkstra per layer, the last from the destinations, each earlier one from its
    /// via's stops starting at their bound in the layer after (plus the stay). The vias' own
    /// bounds: a search through a via far off the way no longer spreads its first layer towards
    /// the destination (one via on dense81 took 1.9 × the plain query with the destination's
    /// bound read in every layer).
    package init<Base: Schedule>(layered via: ViaSchedule<Base>, edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) {
        let base = via.base, layers = via.layers, n = base.stopCount, unreachable = Self.unreachable
        let positions = (0..<base.patternCount).map(base.firstCall) + [base.callCount]
        let hops = Self.shortestHops(base, positions: positions)
        let before = edges.changesInto(stops: n)
        // Per layer, per base stop.
        var perLayer = [[Int32]](repeating: [], count: layers.layers)
        perLayer[layers.layers - 1] = Self.stopBounds(base, hops: hops.seconds, positions: positions, before: before,
                                                      from: destinations.map { (layers.base($0.stop), $0.start) })
        for l in stride(from: layers.vias.count - 1, through: 0, by: -1) {
            let next = perLayer[l + 1], stay = Int64(layers.vias[l].staySeconds)
            let starts = layers.vias[l].stops.filter { $0 >= 0 && $0 < n && next[$0] != unreachable }
                .map { ($0, Int32(clamping: Int64(next[$0]) + stay)) }
            perLayer[l] = Self.stopBounds(base, hops: hops.seconds, positions: positions, before: before, from: starts)
        }
        let stop = (0..<layers.layeredStops).map { y -> Int32 in
            let (b, l, extra) = layers.changesStart(y)
            guard l < perLayer.count, b < perLayer[l].count, perLayer[l][b] != unreachable else { return unreachable }
            return Int32(clamping: Int64(perLayer[l][b]) + Int64(extra))
        }
        let firstCalls = (0..<via.patternCount).map(via.firstCall) + [via.callCount]
        let ride = Self.rideBounds(patterns: via.patternCount, positions: firstCalls, length: via.length,
                                   hops: { q, i in hops.seconds[positions[via.basePattern(q)] + i] },
                                   stopBound: { q, i in stop[via.stop(q, i)] })
        self.init(stop: stop, ride: ride, positions: firstCalls, rising: hops.rising)
    }

    /// Bounds for a search too short to repay the Dijkstra (one departure on a big feed): the
    /// chord from each stop to the destinations, less what `changes` changes can jump, at the
    /// fastest any ride covers a chord (`StraightLines`; every run's times rise where it has a
    /// speed). Measured from the first destination, less the farthest other's chord from it.
    /// Only stop bounds: boarding bounds are 0.
    package static func straightLines(_ t: Timetable, destinations: [Int], changes: Int) -> TargetBounds {
        let speed = Double(t.straightLineSpeed) / 1000, n = t.stopCount, p = t.stopPoints
        guard speed > 0, let first = destinations.first, p.count == 3 * n else { return .none }
        var spread = 0.0
        for d in destinations {
            guard let m = StraightLines.meters(p, first, d) else { return .none }
            spread = max(spread, m)
        }
        // A meter over, for the sums' rounding.
        let less = spread + Double(max(0, changes)) * Double(t.straightLineChangeGain) / 1000 + 1
        let cx = Double(p[3 * first]), cy = Double(p[3 * first + 1]), cz = Double(p[3 * first + 2])
        let perUnit = StraightLines.radius / StraightLines.scale
        var stop = [Int32](repeating: 0, count: n)
        p.withUnsafeBufferPointer { points in stop.withUnsafeMutableBufferPointer { bound in
            for y in 0..<n {
                let x = Double(points[3 * y]), yy = Double(points[3 * y + 1]), z = Double(points[3 * y + 2])
                // (0, 0, 0): a stop without a place, bound 0.
                guard x != 0 || yy != 0 || z != 0 else { continue }
                let dx = x - cx, dy = yy - cy, dz = z - cz
                let seconds = ((dx * dx + dy * dy + dz * dz).squareRoot() * perUnit - less) / speed
                if seconds >= 1 { bound[y] = Int32(min(seconds, Double(Int32.max - 1))) }
            }
        } }
        return TargetBounds(stop: stop, ride: [], positions: [], rising: true)
    }

    /// Bounds on the import's graph of least hops (`BoundGraph`), for a search too short to repay
    /// the day's graph: one Dijkstra backward from the destinations over the timetable's stored
    /// ways, no run read. It stops past `limit` seconds: a stop not settled by then is at least
    /// `limit + 1` away, which is its bound (a search that can use no more than `limit`, the
    /// latest it may arrive less the earliest it leaves, prunes it as surely as its true bound).
    /// Stop bounds only, as straight lines'. Nil where the timetable has no graph.
    package static func graph(_ t: Timetable, destinations: [(stop: Int, start: Int32)], within limit: Int64) -> TargetBounds? {
        let n = t.stopCount, start = t.boundStart.buffer, ways = t.boundEdges.buffer
        guard start.count == n + 1, n < Int(Int32.max) else { return nil }
        let cap = Int32(clamping: max(0, min(limit, Int64(unreachable) - 2))) + 1
        var bound = [Int32](repeating: unreachable, count: n)
        bound.withUnsafeMutableBufferPointer { bound in
            // In the closure, not captured: a captured heap is checked for exclusive access at each use.
            var heap = RadixHeap()
            for (d, seconds) in destinations where d >= 0 && d < n && max(0, seconds) < bound[d] {
                bound[d] = max(0, seconds)
                heap.push(bound[d], d)
            }
            var cut = false
            while let (seconds, v) = heap.pop() {
                if seconds >= cap {
                    cut = true
                    break
                }
                // Popped before at less: settled.
                guard seconds <= bound[v] else { continue }
                // A damaged file's offsets or ways are cut where they leave the graph.
                let from = Int(start[v]), to = Int(start[v + 1])
                guard from >= 0, from <= to, 2 * to <= ways.count else {
                    t.damage.found("boundStart")
                    continue
                }
                for k in from..<to {
                    let u = Int(ways[2 * k]), hop = ways[2 * k + 1]
                    guard u >= 0, u < n, hop >= 0 else {
                        t.damage.found("boundEdges")
                        continue
                    }
                    let through = Int32(clamping: Int64(seconds) + Int64(hop))
                    if through < bound[u] {
                        bound[u] = through
                        heap.push(through, u)
                    }
                }
            }
            // Cut short, a stop not settled is at least `cap` away (none nearer is left to pop),
            // and every settled one is nearer; else a stop not settled reaches no destination.
            if cut { for y in 0..<n { bound[y] = min(bound[y], cap) } }
        }
        return TargetBounds(stop: bound, ride: [], positions: [], rising: true)
    }

    /// The least seconds from stop `y` to the destination (0 without bounds).
    @inline(__always) package func stop(_ y: Int) -> Int32 { y < stop.count ? stop[y] : 0 }

    /// The least seconds from boarding pattern `q` at position `i` to the destination.
    @inline(__always) package func ride(_ q: Int, _ i: Int) -> Int32 { q + 1 < positions.count ? ride[positions[q] + i] : 0 }

    /// Per pattern position (from `positions[q]`): the least seconds from it to the next over
    /// the day's runs (`unreachable` where the pattern has none, and at its last position); and
    /// whether every run's times rise.
    static func shortestHops<S: Schedule>(_ schedule: S, positions: [Int]) -> (seconds: [Int32], rising: Bool) {
        var seconds = [Int32](repeating: unreachable, count: positions.last ?? 0)
        var rising = true
        seconds.withUnsafeMutableBufferPointer { least in
            for q in 0..<schedule.patternCount where schedule.length(q) > 1 {
                let hops = schedule.length(q) - 1, first = positions[q]
                for run in 0..<schedule.runCount(q) {
                    // (arrival, departure) per position.
                    let times = schedule.times(of: q, run)
                    guard times.count >= 2 * (hops + 1) else {
                        rising = false
                        continue
                    }
                    for i in 0..<hops {
                        let hop = times[2 * i + 2] &- times[2 * i + 1]
                        if hop < 0 || times[2 * i] > times[2 * i + 1] { rising = false }
                        if max(0, hop) < least[first + i] { least[first + i] = max(0, hop) }
                    }
                    if times[2 * hops] > times[2 * hops + 1] { rising = false }
                }
            }
        }
        return (seconds, rising)
    }

    /// For each stop v, the stops a change leads into v from (`TransferEdges.edges` read
    /// backward, and wider): its station's stops, the from-stops of transfers.txt pairs into it,
    /// and the walks (through the grid or as stored, both ways).
    static func changesInto(_ edges: TransferEdges, stops n: Int) -> (start: [Int32], stops: [Int32]) {
        let t = edges.t
        var pairs: [(to: Int32, from: Int32)] = []
        for v in 0..<n where v < t.stopCount {
            let parent = edges.neighbours.parent(of: v)
            if parent >= 0 { for u in edges.neighbours.children(ofStation: parent) where Int(u) != v { pairs.append((Int32(v), u)) } }
        }
        for (x, ys) in edges.listed where x >= 0 && x < n {
            for y in ys where y >= 0 && y < n && y != x { pairs.append((Int32(y), Int32(x))) }
        }
        if let grid = edges.grid {
            for v in 0..<n where v < t.stopCount && !t.stopLat[v].isNaN {
                for u in grid.near(v, t) where u != v { pairs.append((Int32(v), Int32(u))) }
            }
        } else if (edges.walkMeters ?? 0) > 0 || edges.linkMeters != nil, t.linkStart.count == t.stopCount + 1 {
            // (Through the edges' neighbours: `Timetable.links(of:)` builds them afresh at each
            // call, seven retains a stop, which was most of this function on the national network.)
            let neighbours = edges.neighbours
            for x in 0..<min(n, t.stopCount) {
                for k in neighbours.links(of: x) {
                    let y = t.linkStops[k]
                    guard y >= 0, Int(y) < n else { continue }
                    pairs.append((y, Int32(x)))
                    pairs.append((Int32(x), y))
                }
            }
        }
        // Grouped by `to` (a counting sort).
        var start = [Int32](repeating: 0, count: n + 1)
        for pair in pairs { start[Int(pair.to) + 1] += 1 }
        for v in 0..<n { start[v + 1] += start[v] }
        var fill = start, stops = [Int32](repeating: 0, count: pairs.count)
        for pair in pairs {
            stops[Int(fill[Int(pair.to)])] = pair.from
            fill[Int(pair.to)] += 1
        }
        return (start, stops)
    }
}

/// A radix heap of (seconds, stop) (Ahuja, Mehlhorn, Orlin, Tarjan 1990), for a Dijkstra, whose
/// keys never fall below the last popped: an item waits in the bucket of the highest bit in which
/// its key differs from that one, and only the lowest bucket's are ever compared. On the national
/// network it measured no faster than a binary heap (the Dijkstra's time is the first read of each
/// stop's ways, docs/performance.md).
struct RadixHeap {
    /// Items packed in one word, seconds high; bucket 0 holds the last popped key's.
    private var buckets = [[UInt64]](repeating: [], count: 33)
    private var last: UInt32 = 0
    private var count = 0

    @inline(__always) private static func bucket(_ key: UInt32, _ last: UInt32) -> Int { 32 - (key ^ last).leadingZeroBitCount }

    /// A key below the last popped is taken as that one (a Dijkstra's never is).
    mutating func push(_ seconds: Int32, _ stop: Int) {
        let key = max(UInt32(max(0, seconds)), last)
        buckets[Self.bucket(key, last)].append(UInt64(key) << 32 | UInt64(UInt32(truncatingIfNeeded: stop)))
        count += 1
    }

    mutating func pop() -> (seconds: Int32, stop: Int)? {
        guard count > 0 else { return nil }
        if buckets[0].isEmpty {
            var i = 1
            while i < 32 && buckets[i].isEmpty { i += 1 }
            // The least key of the lowest bucket with any becomes the last; its items all fall to
            // lower buckets (they differ from it below the bit that put them here).
            var items: [UInt64] = []
            swap(&items, &buckets[i])
            let least = UInt32(truncatingIfNeeded: (items.min() ?? 0) >> 32)
            last = least
            for item in items { buckets[Self.bucket(UInt32(truncatingIfNeeded: item >> 32), least)].append(item) }
            items.removeAll(keepingCapacity: true)
            swap(&items, &buckets[i])
        }
        guard let item = buckets[0].popLast() else { return nil }
        count -= 1
        return (Int32(truncatingIfNeeded: item >> 32), Int(UInt32(truncatingIfNeeded: item)))
    }
}
