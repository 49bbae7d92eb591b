import Foundation
import TransitSupport

/// The graph a lower bound to a destination is found on when a search is too short to repay
/// `TargetBounds`' graph of the day (issue 47): built once at import, so that a query across a
/// country runs only its Dijkstra (`TargetBounds.graph`). For each stop, the ways into it:
///
/// - each hop between two consecutive calls of a pattern, at the least time any of its stored
///   runs takes (of any day: a day's runs are some of them, so the least of all is no more);
/// - each change a search can make into it: the other stops of its station and the pairs
///   transfers.txt lists, at no time; the walks stored within `TimetableCombination.linkRadius`
///   (both ways), at their straight line at `SearchDefaults.walkingSpeed`, the fastest a rider
///   walks (a map's way is no shorter than the straight line).
///
/// Straight lines at the fastest ride's speed (`StraightLines`) bound a journey of buses by an
/// intercity's speed; this graph bounds it by its buses'. On the national network that took the
/// p95 of a `--earliest` search from 580 to 325 ms before its capped tries (docs/performance.md).
///
/// None (both fields empty) where a run's times do not rise along it (a bound that rises along
/// a run is what lets a scan stop early), and in a combination (its walks between feeds are not
/// in its feeds' graphs).
package enum BoundGraph {
    /// Per pattern position (over `patternStops`), the least seconds from it to the next over
    /// the pattern's stored runs, each block of times read once; `Int32.max` at a pattern's
    /// last position and where it has no run. Nil where a run's times do not rise (or a
    /// pattern is not laid out: a timetable the compiler made always is).
    package static func leastHops(_ t: Timetable) -> [Int32]? {
        var least = [Int32](repeating: .max, count: t.patternStops.count)
        let times = t.times.buffer
        for q in 0..<t.patternCount {
            guard t.isLaidOut(pattern: q), let calls = t.callRange(ofPattern: q), let blocks = t.blockCount(ofPattern: q) else { return nil }
            let n = calls.count, first = Int(t.patternTimeStart[q])
            guard n > 1 else { continue }
            for block in 0..<blocks {
                let start = first + block * 2 * n
                let run = UnsafeBufferPointer(rebasing: times[start..<(start + 2 * n)])
                // A time before 0 is none the compiler could read.
                guard run[0] >= 0, StraightLines.rises(run, calls: n) else { return nil }
                for i in 0..<(n - 1) { least[calls.lowerBound + i] = min(least[calls.lowerBound + i], run[2 * i + 2] &- run[2 * i + 1]) }
            }
        }
        return least
    }

    /// The graph's ways into each stop: `start` (one more than stops) and `edges` (pairs: the stop
    /// before, the least seconds), each stop's ways in order of the stop before, each pair once
    /// at its least. Empty without `leastHops`.
    package static func build(_ t: Timetable, leastHops: [Int32]?) -> (start: Packed<Int32>, edges: Packed<Int32>) {
        guard let leastHops, leastHops.count == t.patternStops.count else { return (Packed(), Packed()) }
        let n = t.stopCount, neighbours = t.neighbours
        // Every way (to, from, seconds), enumerated twice: to count them per stop, then to place
        // them (a list of tuples to sort was 12 bytes a way beside the 8 kept).
        func eachWay(_ body: (Int32, Int32, Int32) -> Void) {
            for q in 0..<t.patternCount {
                guard let calls = t.callRange(ofPattern: q) else { continue }
                for k in calls.dropLast() where leastHops[k] != .max { body(t.patternStops[k + 1], t.patternStops[k], leastHops[k]) }
            }
            // A station joins its stops both ways, so that a change between two of them (or a
            // transfers.txt row naming the station) is two ways, not one per pair: a station of
            // thousands of platforms would make millions.
            for station in 0..<n {
                for child in neighbours.children(ofStation: station) {
                    body(Int32(station), child, 0)
                    body(child, Int32(station), 0)
                }
            }
            for rule in t.transfers where rule.fromStop >= 0 && rule.toStop >= 0 && rule.fromStop != rule.toStop { body(rule.toStop, rule.fromStop, 0) }
            for x in 0..<n {
                for k in neighbours.links(of: x) {
                    let y = t.linkStops[k]
                    // The chord is no longer than the walk (0 where a stop has no place); a second
                    // less for the rounding.
                    let meters = min(StraightLines.meters(t.stopPoints, x, Int(y)) ?? 0, t.linkLengths[k])
                    let seconds = Int32(max(0, (meters / SearchDefaults.walkingSpeed).rounded(.down) - 1))
                    body(y, Int32(x), seconds)
                    body(Int32(x), y, seconds)
                }
            }
        }
        var counts = [Int](repeating: 0, count: n + 1)
        eachWay { to, _, _ in counts[Int(to) + 1] += 1 }
        for v in 0..<n { counts[v + 1] += counts[v] }
        guard counts[n] < Int(Int32.max) / 2 else { return (Packed(), Packed()) }
        var fill = counts, edges = [Int32](repeating: 0, count: 2 * counts[n])
        eachWay { to, from, seconds in
            let k = fill[Int(to)]
            (edges[2 * k], edges[2 * k + 1]) = (from, seconds)
            fill[Int(to)] += 1
        }
        // Each stop's ways by the stop before, each once at its least.
        var out = [Int32](), outStart = [Int32](repeating: 0, count: n + 1)
        out.reserveCapacity(edges.count)
        for v in 0..<n {
            outStart[v] = Int32(out.count / 2)
            let ways = (counts[v]..<counts[v + 1]).map { (from: edges[2 * $0], seconds: edges[2 * $0 + 1]) }.sorted { ($0.from, $0.seconds) < ($1.from, $1.seconds) }
            var last: Int32 = -1
            for way in ways where way.from != last {
                out.append(way.from)
                out.append(way.seconds)
                last = way.from
            }
        }
        outStart[n] = Int32(out.count / 2)
        return (Packed(outStart), Packed(out))
    }

    /// Whether `boundStart` holds together with the ways: both empty, or a start per stop (and
    /// one more) rising from 0 to the ways' count.
    static func startsAreSound(_ t: Timetable) -> Bool {
        if t.boundStart.isEmpty { return t.boundEdges.isEmpty }
        return t.boundStart.count == t.stopCount + 1 && t.boundEdges.count % 2 == 0 && Timetable.monotone(t.boundStart, last: t.boundEdges.count / 2)
    }

    /// Whether each way is from a stop in range, at no less than 0 seconds.
    static func waysAreSound(_ t: Timetable) -> Bool {
        let n = Int32(clamping: t.stopCount), ways = t.boundEdges.buffer
        var ok = ways.count % 2 == 0, k = 0
        while k + 1 < ways.count {  // no early exit: a national network's few million in a few ms
            ok = ok && ways[k] >= 0 && ways[k] < n && ways[k + 1] >= 0
            k += 2
        }
        return ok
    }
}
