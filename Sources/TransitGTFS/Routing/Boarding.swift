import Foundation
import TransitSupport

/// Which run of a pattern a boarding may take: the schedule's runs, the changes' rules, the
/// rider's filter and the hints from the searches before. Apart from `RangeSearch` because a
/// pattern scan asks it at every boarding from inside a `mutating` method: a non-mutating method
/// of the search itself was called on a copy of the whole search (760 bytes with two vias, a
/// `memmove` per boarding: 16 % of a two-via query on dense81). `scanPatterns` copies this once.
package struct Boarding<S: Schedule> {
    package let schedule: S
    package let edges: TransferEdges
    package let filter: RideFilter?
    package let rideableRuns: RideableRuns?
    /// Per call (a pattern's position), the run last found for a boarding there: the next search
    /// starts from it (the departure before at the origin boards the same run or one close). A
    /// class, so that the searches that read and set it need no `mutating`.
    package let runHint: RunHints
    /// nil: a range search, whose first ride leaves at exactly its departure τ. Else one search
    /// from a time (`RangeSearch.earliestArrival`): the first ride is any run leaving the origin
    /// at most this many seconds after the rider is there.
    package let firstRideWait: Int32?

    /// The same boarding where the first ride is any run leaving the origin at most `wait`
    /// seconds after the rider is there (nil: exactly at the departure).
    package func waiting(_ wait: Int32?) -> Boarding {
        Boarding(schedule: schedule, edges: edges, filter: filter, rideableRuns: rideableRuns, runHint: runHint, firstRideWait: wait)
    }

    /// May the rider ride run `run` of pattern `q` (`RideFilter`)?
    @inline(__always) package func rideable(_ q: Int, _ run: Int) -> Bool {
        guard let filter else { return true }
        return filter.allows(trip: schedule.trip(q, run), instance: schedule.instance(q, run))
    }

    /// The first run of `q` from `run` on that the rider may ride (`runCount` where none is).
    @inline(__always) package func rideable(_ q: Int, from run: Int) -> Int {
        guard let rideableRuns, let filter else { return run }
        return rideableRuns.from(q, run, schedule, filter)
    }

    /// The first run of `q` leaving position `i` at or after `time`, below `below`. The run
    /// boarded before is the place to start (most often the one just under it is too early);
    /// otherwise the runs are halved.
    @_transparent package func firstRun(_ q: Int, _ i: Int, atOrAfter time: Int32, below: Int) -> Int {
        if below > 0 && below < schedule.runCount(q) && schedule.departure(q, below - 1, i) < time { return below }
        let call = schedule.firstCall(q) + i
        let hint = Int(runHint.runs[call])
        let run = hint >= 0 ? schedule.firstRun(q, i, atOrAfter: time, below: below, near: hint)
                            : schedule.firstRun(q, i, atOrAfter: time, high: below)
        if run < below { runHint.runs[call] = Int32(run) }
        return run
    }

    /// The earliest run of pattern `q` that can be boarded at position `i` from `source`: from
    /// the origin at exactly τ (one search from a time: within `firstRideWait`); otherwise after
    /// the change the rules ask for. The
    /// run arrived on may be boarded again (a loop's vehicle, caught after a via's stay): whether
    /// a label may board a run cannot depend on how it was reached, or a later departure's label
    /// would hide an earlier one's journey. Runs from `current` on gain nothing.
    @_transparent package func boardable(_ q: Int, _ i: Int, _ source: RangeSearch<S>.Source, round: Int, current: Int) -> Int? {
        let below = current >= 0 ? current : schedule.runCount(q)
        // Most sources cannot catch even the run before the one ridden (`ready` is a lower
        // bound): one read answers them, before any label is looked at.
        if below == 0 || (current > 0 && schedule.departure(q, current - 1, i) < source.ready) { return nil }
        if round == 1 {
            let run = rideable(q, from: firstRun(q, i, atOrAfter: source.ready, below: below))
            guard run < below else { return nil }
            let wait = Int64(schedule.departure(q, run, i)) - Int64(source.ready)
            if let firstRideWait { return wait <= Int64(firstRideWait) ? run : nil }
            return wait == 0 ? run : nil
        }
        let x = source.from, reached = Int(source.reached), fromTrip = Int(source.fromTrip)
        var ready = source.ready
        if !source.edge.exact && !source.edge.namesToTrip && below > 0 {
            // Rows by stop and route decide alike for every run of the pattern (one route's).
            guard let needed = edges.seconds(source.edge, from: x, fromTrip: fromTrip, toTrip: schedule.trip(q, 0)) else { return nil }
            ready = Int32(clamping: reached + needed)
        }
        var run = rideable(q, from: firstRun(q, i, atOrAfter: ready, below: below))
        while run < below {
            if source.edge.exact || !source.edge.namesToTrip { return run }
            // A row names a trip: each run is asked.
            if let needed = edges.seconds(source.edge, from: x, fromTrip: fromTrip, toTrip: schedule.trip(q, run)),
               Int(schedule.departure(q, run, i)) >= reached + needed {
                return run
            }
            run = rideable(q, from: run + 1)
        }
        return nil
    }
}
