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

    package init<S: Schedule>(_ schedule: S, destinations: [Int], edges: TransferEdges, limit: Int) {
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
                    guard schedule.canAlight(q, j), j > readBelow[q] else { continue }
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
    /// For a search of `schedule`: planned days laid out alike call at the same stops in the same
    /// order, so the first day's patterns count for all of them.
    package init<S: Schedule>(searching schedule: S, destinations: [Int], edges: TransferEdges, limit: Int) {
        if let days = schedule as? DaysSchedule<DaySchedule>, let first = days.days.first {
            self.init(first, destinations: destinations, edges: edges, limit: limit)
        } else {
            self.init(schedule, destinations: destinations, edges: edges, limit: limit)
        }
    }
}
