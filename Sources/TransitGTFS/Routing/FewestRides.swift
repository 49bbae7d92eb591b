import Foundation

/// The fewest rides from boarding at each stop to a destination, over every pattern of a
/// schedule whatever its times: a journey boarding at a stop in round r rides at least r − 1
/// and this many. A withholding window's searches (`Router.Query.withheldAfter`; the second
/// searching only the rounds its departures need, `Router.Query.beatenThrough`) skip a boarding
/// whose rides left cannot reach the destination in the rounds the departure may still ride.
/// Breadth first from the destinations, each pattern's positions read once; the changes read
/// backward as the Dijkstra's bounds read them (`TransferEdges.changesInto`, a superset of the
/// changes a search takes, so no count is too high).
package struct FewestRides {
    /// Per stop; `Int32.max`: more than `limit`, or none.
    package let rides: [Int32]

    package init<S: RideLayout>(_ schedule: S, destinations: [Int], edges: TransferEdges, limit: Int) {
        let n = schedule.stopCount
        var rides = [Int32](repeating: .max, count: n)
        // Stops where a journey that has alighted needs `level` rides more at most (level 0:
        // the destinations), and how far each pattern was read from its end down.
        var alighted = [Bool](repeating: false, count: n), readBelow = [Int](repeating: 0, count: schedule.patternCount)
        var frontier: [Int] = []
        for d in destinations where d >= 0 && d < n && !alighted[d] {
            alighted[d] = true
            frontier.append(d)
        }
        let into = edges.changesInto(stops: n)
        var level: Int32 = 0
        while !frontier.isEmpty && Int(level) < limit {
            level += 1
            var boarded: [Int] = []
            for z in frontier {
                for k in schedule.calls(at: z) {
                    let (q, j) = schedule.call(k)
                    // Positions below `readBelow[q]` were read at a level no higher.
                    guard q >= 0, q < readBelow.count, j < schedule.length(q), schedule.canAlight(q, j), j > readBelow[q] else { continue }
                    for i in readBelow[q]..<j where schedule.canBoard(q, i) {
                        let y = schedule.stop(q, i)
                        if y >= 0 && y < n && rides[y] == .max {
                            rides[y] = level
                            boarded.append(y)
                        }
                    }
                    readBelow[q] = j
                }
            }
            // Where one alights to board those: there, or where a change into them starts.
            frontier = []
            for y in boarded {
                if !alighted[y] {
                    alighted[y] = true
                    frontier.append(y)
                }
                guard y + 1 < into.start.count else { continue }
                for k in Int(into.start[y])..<Int(into.start[y + 1]) {
                    let x = Int(into.stops[k])
                    if x >= 0 && x < n && !alighted[x] {
                        alighted[x] = true
                        frontier.append(x)
                    }
                }
            }
        }
        self.rides = rides
    }
}

extension FewestRides {
    /// For a search of `schedule`: every planned day has the timetable's patterns and calls, so
    /// the timetable's layout counts for all of them (`TimetableLayout`), once for every search
    /// of the query (`TransferEdges.plannedRides`).
    package static func rides<S: Schedule>(searching schedule: S, destinations: [Int], edges: TransferEdges, limit: Int) -> [Int32] {
        guard schedule is DaysSchedule<DaySchedule> || schedule is DaySchedule else {
            return FewestRides(schedule, destinations: destinations, edges: edges, limit: limit).rides
        }
        return edges.plannedRides(to: destinations, limit: limit) {
            FewestRides(TimetableLayout(edges.t), destinations: destinations, edges: edges, limit: limit).rides
        }
    }
}

/// What `FewestRides` reads: each pattern's stops in order, where it boards and sets down, and
/// the calls at each stop; no run.
package protocol RideLayout {
    var stopCount: Int { get }
    var patternCount: Int { get }
    func length(_ pattern: Int) -> Int
    func stop(_ pattern: Int, _ position: Int) -> Int
    func canBoard(_ pattern: Int, _ position: Int) -> Bool
    func canAlight(_ pattern: Int, _ position: Int) -> Bool
    func calls(at stop: Int) -> Range<Int>
    func call(_ index: Int) -> (pattern: Int, position: Int)
}

/// The timetable's patterns and calls as the import laid them out, each read checked where it
/// is made (a damaged offset reads as no stops or no calls, a damaged call as none): what a
/// day's schedule gives, without its first look at each pattern checking every trip's indexes
/// too (`DaySchedule`), which was most of `FewestRides` on the national network.
package struct TimetableLayout: RideLayout {
    /// Keeps the buffers below alive.
    private let t: Timetable
    private let patternStopStart: UnsafeBufferPointer<Int32>
    private let patternStops: UnsafeBufferPointer<Int32>
    private let patternFlags: UnsafeBufferPointer<UInt8>
    private let stopPatternStart: UnsafeBufferPointer<Int32>
    private let stopPatterns: UnsafeBufferPointer<Int32>
    package let stopCount: Int
    package let patternCount: Int

    package init(_ t: Timetable) {
        self.t = t
        (patternStopStart, patternStops, patternFlags) = (t.patternStopStart.buffer, t.patternStops.buffer, t.patternFlags.buffer)
        (stopPatternStart, stopPatterns) = (t.stopPatternStart.buffer, t.stopPatterns.buffer)
        (stopCount, patternCount) = (t.stopCount, max(0, min(t.patternCount, patternStopStart.count - 1)))
    }

    /// Where pattern `q`'s calls begin in `patternStops` and `patternFlags`, and how many.
    @inline(__always) private func span(_ q: Int) -> (first: Int, count: Int) {
        guard q >= 0, q < patternCount else { return (0, 0) }
        let a = Int(patternStopStart[q]), b = Int(patternStopStart[q + 1])
        guard a >= 0, a <= b, b <= patternStops.count, b <= patternFlags.count else { return (0, 0) }
        return (a, b - a)
    }

    package func length(_ q: Int) -> Int { span(q).count }

    package func stop(_ q: Int, _ i: Int) -> Int {
        let (first, count) = span(q)
        return i >= 0 && i < count ? Int(patternStops[first + i]) : -1
    }

    package func canBoard(_ q: Int, _ i: Int) -> Bool {
        let (first, count) = span(q)
        return i >= 0 && i < count && Timetable.canBoard(patternFlags[first + i])
    }

    package func canAlight(_ q: Int, _ i: Int) -> Bool {
        let (first, count) = span(q)
        return i >= 0 && i < count && Timetable.canAlight(patternFlags[first + i])
    }

    package func calls(at stop: Int) -> Range<Int> {
        guard stop >= 0, stop < stopCount, stop + 1 < stopPatternStart.count else { return 0..<0 }
        let a = Int(stopPatternStart[stop]), b = Int(stopPatternStart[stop + 1])
        guard a >= 0, a <= b, b <= stopPatterns.count else { return 0..<0 }
        return a / 2..<b / 2
    }

    /// (-1, -1) for a call out of range.
    package func call(_ index: Int) -> (pattern: Int, position: Int) {
        guard index >= 0, 2 * index + 1 < stopPatterns.count else { return (-1, -1) }
        return (Int(stopPatterns[2 * index]), Int(stopPatterns[2 * index + 1]))
    }
}
