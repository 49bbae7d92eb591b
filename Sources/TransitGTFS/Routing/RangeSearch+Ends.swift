import Foundation
import TransitSupport

/// Where a search starts and how late it can end: the calls at the origins a rider may board,
/// the range search's departures from them, and the latest arrival at a destination.
extension RangeSearch {
    /// `latestEnd` (nil without destinations, as `reach` asks; before any time where no run sets
    /// down at one): every run read, not only the last, so that it holds where realtime data
    /// reorders them.
    static func latestEnd(_ schedule: S, destinations: [Int], egress: Zeroed<Int32>) -> Int64? {
        guard !destinations.isEmpty else { return nil }
        var latest = Int64(Int32.min)
        for d in destinations where d >= 0 && d < schedule.stopCount {
            for k in schedule.calls(at: d) {
                let (q, i) = schedule.call(k)
                guard schedule.canAlight(q, i) else { continue }
                for run in 0..<schedule.runCount(q) {
                    latest = max(latest, Int64(schedule.arrival(q, run, i)) + Int64(egress[d]))
                }
            }
        }
        return latest
    }

    /// The calls at the origins a rider may board (each origin once, in the query's order): where
    /// the range search's departures and the one search from a time start.
    func originCalls() -> [(stop: Int, pattern: Int, position: Int)] {
        var seen = Set<Int>(), out: [(stop: Int, pattern: Int, position: Int)] = []
        for o in query.origins where seen.insert(o).inserted && stopFilter?.allows(stop: o) ?? true {
            out += schedule.boardingCalls(at: o).map { (o, $0.pattern, $0.position) }
        }
        return out
    }

    /// The departures at the origin stops in the window, latest first, each with the patterns
    /// and positions that leave then (round 1 scans only those): one list sorted by time, each
    /// departure a range of it (a list per departure was an allocation per departure).
    package func originDepartures() -> (departures: [(time: Int32, calls: Range<Int>)], calls: [(pattern: Int, position: Int)]) {
        var all: [(time: Int32, pattern: Int, position: Int)] = []
        for (o, q, i) in originCalls() {
            for run in 0..<schedule.runCount(q) where boarding.rideable(q, run) {
                // When one leaves the origin: from a point, the walk before the run (in 64
                // bits: a damaged file's times may lie near the ends of Int32).
                let d = Int32(clamping: Int64(schedule.departure(q, run, i)) - Int64(accessOf[o]))
                if let after = query.after, Int(d) < after { continue }
                if let before = query.before, Int(d) > before { continue }
                all.append((d, q, i))
            }
        }
        // Latest first; at one time, in the order found.
        let order = all.indices.sorted { all[$0].time != all[$1].time ? all[$0].time > all[$1].time : $0 < $1 }
        var departures: [(time: Int32, calls: Range<Int>)] = [], calls: [(pattern: Int, position: Int)] = []
        calls.reserveCapacity(all.count)
        for index in order {
            let call = all[index]
            if let last = departures.last, last.time == call.time {
                departures[departures.count - 1].calls = last.calls.lowerBound..<(calls.count + 1)
            } else {
                departures.append((call.time, calls.count..<(calls.count + 1)))
            }
            calls.append((call.pattern, call.position))
        }
        return (departures, calls)
    }
}
