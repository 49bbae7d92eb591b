import Foundation
import TransitSupport

/// The journey a rider would take of those that are the same ride (issue 66). Two journeys are
/// the same ride when they take the same runs and change at the same stops, and differ only in
/// where the first run is boarded (and the walk to it) or the last is left (and the walk from
/// it), arriving at the same time. Leaving later wins the Pareto set: a walk of 1,278 m to a
/// tram's later stop beats the 175 m to the stop it left 18 minutes before. Of the same ride,
/// only the one that walks least at the ends is kept, whatever its departure (ties: the later
/// departure). It is worked out after the search, on each journey of its answer: the set is
/// otherwise the Pareto set, and the search's bounds and early stops keep their guarantees.
extension Router {
    /// Each of `journeys` as the same ride walking least (`Query.walksLeast`), by departure,
    /// arrival and changes; two that become one are one.
    package func walkingLeast(_ journeys: [Journey]) -> [Journey] { walkingLeast(journeys, before: query.before) }

    /// The same where the window ends at `before` (nil: no end), not the query's.
    package func walkingLeast(_ journeys: [Journey], before: Int?) -> [Journey] {
        guard query.walksLeast, !(query.access.isEmpty && query.egress.isEmpty) else { return journeys }
        // The schedule the search read: each journey's patterns and runs are its (a withholding
        // window's first days are the first days of `acrossDays` and `realtimeDays`).
        let moved: [Journey]
        if let realtimeDays {
            moved = journeys.map { walkingLeast($0, on: realtimeDays, before: before) }
        } else if let acrossDays {
            moved = journeys.map { walkingLeast($0, on: acrossDays, before: before) }
        } else {
            moved = journeys.map { walkingLeast($0, on: schedule, before: before) }
        }
        var seen = Set<[Int]>()
        return moved.filter { seen.insert([$0.departure, $0.arrival, $0.transfers]).inserted }
            .sorted { ($0.departure, $0.arrival, $0.transfers) < ($1.departure, $1.arrival, $1.transfers) }
    }

    /// How much earlier than it a journey leaving at some time may leave as the same ride walking
    /// least: the most any run's boarding at an origin leaves before its boarding at a later one
    /// (each less the walk to it). `journeys(limit:)` keeps its searched span this much longer.
    package func sameRideAdvance() -> Int {
        guard query.walksLeast, !query.access.isEmpty else { return 0 }
        if let realtimeDays { return sameRideAdvance(on: realtimeDays) }
        if let acrossDays { return sameRideAdvance(on: acrossDays) }
        return sameRideAdvance(on: schedule)
    }

    private func sameRideAdvance<S: Schedule>(on schedule: S) -> Int {
        let origins = Set(query.origins)
        var patterns = Set<Int>()
        for o in origins where o >= 0 && o < schedule.stopCount {
            for call in schedule.boardingCalls(at: o) { patterns.insert(call.pattern) }
        }
        var most: Int64 = 0
        for q in patterns {
            let stops = schedule.stops(of: q), flags = schedule.flags(of: q)
            let positions = stops.indices.filter { p in origins.contains(Int(stops[p])) && Timetable.canBoard(flags[p]) }
            guard positions.count > 1 else { continue }
            let walks = positions.map { Int64(query.access[Int(stops[$0])] ?? 0) }
            // Each run's departures read in place (the shift to the query's clock is the same for all).
            for run in 0..<schedule.runCount(q) {
                let times = schedule.times(of: q, run)
                var low = Int64.max, high = Int64.min
                for (k, p) in positions.enumerated() where 2 * p + 1 < times.count {
                    let leaves = Int64(times[2 * p + 1]) - walks[k]
                    (low, high) = (min(low, leaves), max(high, leaves))
                }
                if low <= high { most = max(most, high - low) }
            }
        }
        return Int(clamping: most)
    }

    /// `journey` as the same ride walking least: its first run boarded at the origin with the
    /// least walk to it (at a call where the rider may board, leaving in the window) and its last
    /// left at the destination with the least walk from it (where the rider may alight, arriving
    /// when it does). Through vias, a boarding or alighting moves past no via's stop.
    private func walkingLeast<S: Schedule>(_ journey: Journey, on schedule: S, before: Int?) -> Journey {
        let rides = journey.legs.indices.filter { journey.legs[$0].isRide }
        guard let f = rides.first, let l = rides.last,
              case .ride(_, let q, let run, let board, let firstAlight) = journey.legs[f].mode,
              case .ride(_, let lq, let lrun, let lastBoard, let alight) = journey.legs[l].mode,
              q >= 0, q < schedule.patternCount, run >= 0, run < schedule.runCount(q),
              lq >= 0, lq < schedule.patternCount, lrun >= 0, lrun < schedule.runCount(lq),
              alight < schedule.length(lq), firstAlight < schedule.length(q) else { return journey }
        let origins = Set(query.origins), destinations = Set(query.destinations)
        let viaStops = Set(query.needs.vias.flatMap(\.stops))
        func allowed(_ y: Int) -> Bool { filter?.allows(stop: y) ?? true }
        func passesNoVia(_ q: Int, _ positions: ClosedRange<Int>) -> Bool {
            viaStops.isEmpty || positions.allSatisfy { !viaStops.contains(schedule.stop(q, $0)) }
        }
        func skipsNoVia(_ q: Int, from a: Int, to b: Int) -> Bool { a == b || passesNoVia(q, min(a, b) + 1...max(a, b)) }
        // Where the last run may be left: (position, seconds walked from it), arriving when the
        // journey does. A journey of one ride boards and alights on the same run.
        var alightings: [(position: Int, walk: Int)] = []
        for p in (f == l ? 1 : lastBoard + 1)..<schedule.length(lq) {
            let y = schedule.stop(lq, p)
            guard destinations.contains(y), schedule.canAlight(lq, p), allowed(y), viaStops.isEmpty || !origins.contains(y),
                  p > alight || skipsNoVia(lq, from: alight, to: p) else { continue }
            let walk = query.egress[y] ?? 0
            if p == alight || Int(schedule.arrival(lq, lrun, p)) + walk == journey.arrival { alightings.append((p, walk)) }
        }
        if !alightings.contains(where: { $0.position == alight }) { alightings.append((alight, journey.arrival - journey.legs[l].arrival.predicted)) }
        // Where the first run may be boarded: (position, seconds walked to it, when one leaves),
        // leaving in the window.
        var boardings: [(position: Int, walk: Int, leaves: Int)] = []
        for p in 0..<schedule.length(q) - 1 {
            let y = schedule.stop(q, p)
            guard p != board, origins.contains(y), schedule.canBoard(q, p), allowed(y), p < board || skipsNoVia(q, from: board, to: p) else { continue }
            let walk = query.access[y] ?? 0, leaves = Int(schedule.departure(q, run, p)) - walk
            guard query.after.map({ leaves >= $0 }) ?? true, before.map({ leaves <= $0 }) ?? true else { continue }
            boardings.append((p, walk, leaves))
        }
        boardings.append((board, journey.legs[f].departure.predicted - journey.departure, journey.departure))
        // The least walk at both ends together; ties: the later departure, then the journey's own.
        var best: (walk: Int, leaves: Int, board: Int, alight: Int)?
        for a in alightings {
            for b in boardings where b.position < (f == l ? a.position : firstAlight) {
                let own = b.position == board && a.position == alight
                let better = best.map { best in
                    // (walk, -leaves) before (best.walk, -best.leaves), without negating a time.
                    let key = (b.walk + a.walk, best.leaves), bestKey = (best.walk, b.leaves)
                    return key < bestKey || key == bestKey && own
                } ?? true
                if better { best = (b.walk + a.walk, b.leaves, b.position, a.position) }
            }
        }
        guard let best, best.board != board || best.alight != alight else { return journey }
        return moved(journey, firstRide: f, lastRide: l, board: best.board, alight: best.alight, on: schedule)
    }

    /// `journey` with its first ride boarded at `board` and its last left at `alight`, and the
    /// walks at the ends those stops have.
    private func moved<S: Schedule>(_ journey: Journey, firstRide f: Int, lastRide l: Int, board: Int, alight: Int, on schedule: S) -> Journey {
        var legs = journey.legs
        func retimed(_ leg: Leg, from: Int? = nil, to: Int? = nil) -> Leg {
            guard case .ride(let trip, let q, let run, let a, let b) = leg.mode else { return leg }
            var leg = leg
            let start = from ?? a, end = to ?? b
            leg.mode = .ride(trip: trip, pattern: q, run: run, fromPosition: start, toPosition: end)
            leg.from = schedule.stop(q, start)
            leg.to = schedule.stop(q, end)
            leg.departure = LegTime(Int(schedule.planned(q, run, start).departure), predicted: Int(schedule.departure(q, run, start)))
            leg.arrival = LegTime(Int(schedule.planned(q, run, end).arrival), predicted: Int(schedule.arrival(q, run, end)))
            leg.calls = (start...end).map { schedule.stop(q, $0) }
            return leg
        }
        legs[f] = retimed(legs[f], from: board)
        legs[l] = retimed(legs[l], to: alight)
        let rides = Array(legs[f...l])
        guard let first = rides.first, let last = rides.last else { return journey }
        var out = Journey(legs: rides, departure: first.departure.predicted, arrival: last.arrival.predicted, transfers: journey.transfers)
        out.walkAtTheEnds(query, from: first.from, to: last.to, speed: edges.walkingSpeed)
        return out
    }
}
