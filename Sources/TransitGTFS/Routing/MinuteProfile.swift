import Foundation
import TransitSupport

/// The range search read at each minute of a window (a travel-time matrix's one search per
/// origin): rRAPTOR's labels are never reset between departures, so once every departure at or
/// after minute m is searched they hold, per stop, the earliest arrival of a rider leaving the
/// origin at m (waiting there counts). R5's `FastRaptorWorker` reads its matrix the same way,
/// a minute at a time; nigiri's one-to-all profile too.
extension RangeSearch {
    /// The search without destinations over the query's window, a departure at a time, latest
    /// first: `before` is given each departure's time (leaving the origin) before its rounds,
    /// `each` after them, with the stops whose labels its rounds improved and the state to read
    /// them in: every stop's earliest arrival leaving at or after that time.
    package mutating func runByDepartures(before: (Int32) -> Void = { _ in }, _ each: (Int32, [Int], SearchState) -> Void) {
        // Slots are Int32: no real feed comes near.
        guard schedule.stopCount < Int(Int32.max) / (rounds + 2) else { return }
        let (departures, calls) = originDepartures()
        for (tau, range) in departures {
            before(tau)
            rounds(tau, departing: calls[range])
            each(tau, changed, state)
        }
    }
}

extension SearchState {
    /// A stop's earliest arrival by a ride over every round (`unreached`: none).
    @inline(__always) package func earliestArrival(_ stop: Int) -> Int32 {
        let slot = Int(slotOf[stop])
        guard slot >= 0 else { return Self.unreached }
        var best = Self.unreached
        for round in 1..<stride where arrivals[slot + round] < best { best = arrivals[slot + round] }
        return best
    }
}

extension Router {
    /// The search from `origins` (their walks from the start in `access`, as a point's; a named
    /// origin's walked stops added as `QueryEnds.router` adds them), over the schedule this
    /// router searches (across days, with real-time data, or the day's), nothing arriving after
    /// `cap` searched, stopping at each of `minutes` (seconds on the search's clock, ascending):
    /// after each departure's rounds, `improved` is given the stops whose labels they improved
    /// (and the state to read them in); once every departure at or after `minutes[k]` is
    /// searched, `minute(k)` is called, from the last minute to the first.
    package func byMinutes(origins: [Int], access: [Int: Int]?, accessMeters: [Int: Double]?, cap: Int, minutes: [Int32],
                           improved: ([Int], SearchState) -> Void, minute: (Int) -> Void) {
        var next = minutes.count - 1
        byDepartures(origins: origins, access: access, accessMeters: accessMeters, cap: cap, before: { tau in
            while next >= 0 && tau < minutes[next] {
                minute(next)
                next -= 1
            }
        }, each: { _, stops, state in improved(stops, state) })
        while next >= 0 {
            minute(next)
            next -= 1
        }
    }

    /// `RangeSearch.runByDepartures` from `origins`, as `byMinutes` sets it up.
    package func byDepartures(origins: [Int], access: [Int: Int]?, accessMeters: [Int: Double]?, cap: Int, before: (Int32) -> Void = { _ in },
                              each: (Int32, [Int], SearchState) -> Void) {
        let q = profileQuery(origins: origins, access: access, accessMeters: accessMeters, cap: cap)
        func run<S: Schedule>(_ schedule: S) {
            var search = RangeSearch(schedule: schedule, query: q, edges: edges, filter: filter)
            search.runByDepartures(before: before, each)
        }
        if let acrossDays { return run(acrossDays) }
        if let realtimeDays { return run(realtimeDays) }
        run(schedule)
    }

    /// The router's query from `origins`, without destinations, nothing arriving after `cap`.
    private func profileQuery(origins: [Int], access: [Int: Int]?, accessMeters: [Int: Double]?, cap: Int) -> Query {
        var q = query
        (q.origins, q.access, q.accessMeters, q.accessFrom) = (origins, access ?? [:], accessMeters ?? [:], [:])
        (q.destinations, q.egress, q.egressMeters, q.egressTo) = ([], [:], [:], [:])
        (q.walksFromOrigins, q.walksToDestinations, q.onFoot) = (access == nil, false, nil)
        q = Self.walkingEnds(q, edges)
        q.arrivingBy = cap
        return q
    }
}
