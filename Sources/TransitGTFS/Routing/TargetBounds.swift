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

    private init(stop: [Int32], ride: [Int32], positions: [Int], rising: Bool) {
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
        let n = schedule.stopCount, unreachable = Self.unreachable
        var bound = [Int32](repeating: unreachable, count: n)
        let hops = Self.shortestHops(schedule, positions: positions)
        let before = Self.changesInto(edges, stops: n)
        var heap = MinimumHeap()
        for (d, start) in destinations where d >= 0 && d < n && start < bound[d] {
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
                let hop = hops.seconds[positions[q] + i - 1]
                if hop != unreachable { relax(schedule.stop(q, i - 1), seconds &+ hop) }
            }
            // Changing into v, free.
            for u in before.stops[Int(before.start[v])..<Int(before.start[v + 1])] { relax(Int(u), seconds) }
        }
        // Boarding pattern q at i: one hop, then alighting, or riding on.
        var ride = [Int32](repeating: unreachable, count: positions.last ?? 0)
        for q in 0..<schedule.patternCount where schedule.length(q) > 1 {
            var onward = Int64(unreachable)
            for i in stride(from: schedule.length(q) - 2, through: 0, by: -1) {
                let hop = hops.seconds[positions[q] + i]
                let next = Int64(bound[schedule.stop(q, i + 1)])
                onward = hop == unreachable ? Int64(unreachable) : min(Int64(unreachable), min(next, onward) + Int64(hop))
                ride[positions[q] + i] = Int32(onward)
            }
        }
        stop = bound
        self.ride = ride
        self.positions = positions
        rising = hops.rising
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
            let parent = t.parent(of: v)
            if parent >= 0 { for u in edges.children.of(parent) where u != v { pairs.append((Int32(v), Int32(u))) } }
        }
        for (x, ys) in edges.listed where x >= 0 && x < n {
            for y in ys where y >= 0 && y < n && y != x { pairs.append((Int32(y), Int32(x))) }
        }
        if let grid = edges.grid {
            for v in 0..<n where v < t.stopCount && !t.stopLat[v].isNaN {
                for u in grid.near(v, t) where u != v { pairs.append((Int32(v), Int32(u))) }
            }
        } else if (edges.walkMeters ?? 0) > 0 || edges.linkMeters != nil, t.linkStart.count == t.stopCount + 1 {
            for x in 0..<min(n, t.stopCount) {
                for k in t.links(of: x) {
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

    /// These bounds read on `layers`' network (`ViaSchedule`): each layered stop takes its base
    /// stop's, each layered pattern's positions its base pattern's.
    package func layered(_ layers: ViaLayers, basePatterns: [Int], firstCalls: [Int]) -> TargetBounds {
        guard !stop.isEmpty else { return self }
        let stops = (0..<layers.layeredStops).map { y in
            let b = layers.base(y)
            return b < stop.count ? stop[b] : 0
        }
        var rides = [Int32](repeating: 0, count: firstCalls.last ?? 0)
        for (q, b) in basePatterns.enumerated() where b + 1 < positions.count && q + 1 < firstCalls.count {
            let length = min(firstCalls[q + 1] - firstCalls[q], positions[b + 1] - positions[b])
            for i in 0..<max(0, length) { rides[firstCalls[q] + i] = ride[positions[b] + i] }
        }
        return TargetBounds(stop: stops, ride: rides, positions: firstCalls, rising: rising)
    }
}
