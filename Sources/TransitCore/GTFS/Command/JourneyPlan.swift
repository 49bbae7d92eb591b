import Foundation
import TransitSupport
import TransitGTFS

/// Where `gtfs journey` boards and leaves each ride it was given (issue 66): the journey `gtfs
/// trips` would give riding exactly these runs in this order. Of every way to ride them (each
/// ride boarded where the rider may board: the first at an origin, each next one after a change
/// the rules allow, made in time; the last left at a destination), the earliest to arrive, then
/// the one walking least (at the ends and at the changes, in meters), then the later to leave;
/// on a tie, each ride boarded and left at its earliest call. First on the times the real-time
/// data predicts, over the calls it keeps; where the rides cannot be made so, on the timetable's
/// (the plan as made: the check then says what breaks it). `--board-at` fixes each boarding.
extension GTFSJourneyCommand {
    /// The times a plan is made on.
    enum PlanTimes {
        case predicted, planned
    }

    /// The boardings and alightings (positions in each ride's calls) of the best way to ride
    /// `rides` on `times`, or nil where there is none. `boards`: each ride's allowed boardings.
    static func plan(_ rides: [Ride], boards: [Set<Int>], destinations: Set<Int>, on times: PlanTimes, _ router: Router) -> [(board: Int, alight: Int)]? {
        let q = router.query
        func departure(_ call: TripCalls.Call) -> Int? {
            times == .planned ? call.plannedDeparture : call.status.calls ? call.departure ?? call.plannedDeparture : nil
        }
        func arrival(_ call: TripCalls.Call) -> Int? {
            times == .planned ? call.plannedArrival : call.status.calls ? call.arrival ?? call.plannedArrival : nil
        }
        // Per ride, per boarding position: the least walk so far, the journey's departure, and
        // where the ride before was left (-1: the first ride) and boarded.
        struct Step { var walk: Double; var leaves: Int; var alightBefore: Int; var boardBefore: Int }
        func better(_ a: Step, than b: Step?) -> Bool { b.map { (a.walk, b?.leaves ?? 0) < ($0.walk, a.leaves) } ?? true }
        var steps: [[Int: Step]] = []
        var first: [Int: Step] = [:]
        for y in boards.first ?? [] {
            guard let ride = rides.first, y >= 0, y < ride.calls.count - 1, Timetable.canBoard(ride.calls[y].flags),
                  let leaves = departure(ride.calls[y]) else { continue }
            let stop = ride.calls[y].stop
            first[y] = Step(walk: q.accessMeters[stop] ?? 0, leaves: leaves - (q.access[stop] ?? 0), alightBefore: -1, boardBefore: -1)
        }
        steps.append(first)
        // Each ride's best boarding before each call (a running best as the calls go on), then the
        // changes from that call to the next ride's boardings.
        func running(_ k: Int, _ visit: (_ x: Int, _ best: (y: Int, step: Step)) -> Void) {
            let ride = rides[k]
            var best: (y: Int, step: Step)?
            for x in ride.calls.indices {
                if let b = best, Timetable.canAlight(ride.calls[x].flags) { visit(x, b) }
                if let step = steps[k][x], better(step, than: best?.step) { best = (x, step) }
            }
        }
        for k in rides.indices.dropLast() {
            let a = rides[k], b = rides[k + 1]
            var boarding: [Int: [Int]] = [:]
            for y in boards[k + 1] where y >= 0 && y < b.calls.count - 1 && Timetable.canBoard(b.calls[y].flags) {
                boarding[b.calls[y].stop, default: []].append(y)
            }
            var next: [Int: Step] = [:]
            running(k) { x, best in
                guard let arrived = arrival(a.calls[x]) else { return }
                let from = a.calls[x].stop
                for edge in router.edges.edges(from) {
                    for y in boarding[Int(edge.to)] ?? [] {
                        let to = b.calls[y].stop
                        guard let leaves = departure(b.calls[y]), let needs = router.changeSeconds(from: from, trip: a.trip, to: to, trip: b.trip),
                              arrived + needs <= leaves else { continue }
                        let step = Step(walk: best.step.walk + (from == to ? 0 : router.edges.meters(from, to)), leaves: best.step.leaves,
                                        alightBefore: x, boardBefore: best.y)
                        if better(step, than: next[y]) { next[y] = step }
                    }
                }
            }
            steps.append(next)
        }
        guard let last = rides.indices.last else { return nil }
        // The last ride left at a destination: the earliest arrival there, then the least walk, then the later departure.
        var end: (arrival: Int, walk: Double, leaves: Int, x: Int, y: Int)?
        running(last) { x, best in
            let stop = rides[last].calls[x].stop
            guard destinations.contains(stop), let arrived = arrival(rides[last].calls[x]) else { return }
            let arrival = arrived + (q.egress[stop] ?? 0), walk = best.step.walk + (q.egressMeters[stop] ?? 0)
            if end.map({ (arrival, walk, $0.leaves) < ($0.arrival, $0.walk, best.step.leaves) }) ?? true {
                end = (arrival, walk, best.step.leaves, x, best.y)
            }
        }
        guard let end else { return nil }
        // Followed back, ride by ride.
        var out = [(board: Int, alight: Int)](repeating: (-1, -1), count: rides.count)
        var (x, y) = (end.x, end.y)
        for k in rides.indices.reversed() {
            out[k] = (y, x)
            guard k > 0, let step = steps[k][y] else { break }
            (x, y) = (step.alightBefore, step.boardBefore)
        }
        return out
    }
}
