import Foundation
import TransitSupport

/// The journeys a range search keeps: each round's arrival that beats the later departures and
/// fewer changes, followed back label by label into legs.
extension RangeSearch {
    /// The arrival at `x` after `round` rides that a change starts from, and the label that
    /// made it: the stop's own, or one of its class arrivals (`byClass` ≥ 0).
    package func arrival(at x: Int, round: Int, byClass: Int32) -> (time: Int, label: SearchState.Label)? {
        guard x >= 0, state.slotOf[x] >= 0 else { return nil }
        if byClass >= 0 && Int(byClass) < arrivals.count { return (Int(arrivals[Int(byClass)].time), arrivals[Int(byClass)].label) }
        let k = Int(state.slotOf[x]) + round
        return (Int(state.arrivals[k]), state.labels[k])
    }

    /// Keep each round's arrival that beats both the later departures and fewer changes.
    /// `keeping`: false where the departure's journeys only set what the earlier ones must beat.
    /// `last`: the last round the departure searched.
    package mutating func collectJourneys(_ tau: Int32, keeping: Bool = true, through last: Int? = nil) {
        var fewer = SearchState.unreached
        for round in searched(through: last) {
            var best = SearchState.unreached, at = -1
            for d in query.destinations where d >= 0 && d < schedule.stopCount && atEnd(d, state.arrival(d, round)) < best {
                best = atEnd(d, state.arrival(d, round))
                at = d
            }
            if keeping && best < previousBest[round] && best < fewer && at >= 0, state.labels[Int(state.slotOf[at]) + round].legs == Int32(round),
               let journey = reconstruct(at, round: round, departure: tau) {
                found.append(journey)
            }
            previousBest[round] = best
            fewer = min(fewer, best)
        }
    }

    /// The legs of the journey ending at `destination` in `round`, followed back label by label.
    package func reconstruct(_ destination: Int, round: Int, departure tau: Int32) -> Router.Journey? {
        let s = schedule.stopCount
        var legs: [Router.Leg] = []
        var stop = destination
        guard stop >= 0, stop < s, state.slotOf[stop] >= 0 else { return nil }
        var label = state.labels[Int(state.slotOf[stop]) + round]
        var guardCount = 0
        while label.legs > 0 && guardCount <= rounds {
            guardCount += 1
            let q = Int(label.pattern), run = Int(label.run), board = Int(label.boardPosition), alight = Int(label.alightPosition)
            guard q >= 0, q < schedule.patternCount, run >= 0, run < schedule.runCount(q), board >= 0, alight > board, alight < schedule.length(q) else { return nil }
            let boardStop = schedule.stop(q, board)
            let planned = (schedule.planned(q, run, board).departure, schedule.planned(q, run, alight).arrival)
            legs.append(Router.Leg(mode: .ride(trip: schedule.trip(q, run), pattern: q, run: run, fromPosition: board, toPosition: alight),
                                   from: boardStop, to: stop, departure: LegTime(Int(planned.0), predicted: Int(schedule.departure(q, run, board))),
                                   arrival: LegTime(Int(planned.1), predicted: Int(schedule.arrival(q, run, alight))),
                                   runStart: Int(schedule.planned(q, run, 0).departure &- schedule.timeShift(q)), instance: schedule.instance(q, run),
                                   calls: (board...alight).map { schedule.stop(q, $0) }, dayOffset: schedule.dayOffset(q)))
            let previous = Int(label.legs) - 1
            let from = Int(label.fromStop)
            if previous == 0 { break }
            guard from < s, let (reached, before) = arrival(at: from, round: previous, byClass: label.fromArrival) else { return nil }
            if from != boardStop {
                // A walk shows the walk; a change by the rules shows the time the rules ask.
                let walk = edges.edges(from).first { Int($0.to) == boardStop && $0.walkSeconds >= 0 }
                let seconds = walk.map { Int($0.walkSeconds) } ?? edges.seconds(from: from, to: boardStop, fromTrip: -1, toTrip: -1) ?? 0
                legs.append(Router.Leg(mode: .walk(meters: edges.meters(from, boardStop)), from: from, to: boardStop,
                                       departure: LegTime(reached), arrival: LegTime(reached + seconds)))
            }
            stop = from
            label = before
        }
        legs.reverse()
        let rides = legs.filter(\.isRide)
        guard rides.count == round, let first = rides.first, let last = rides.last else { return nil }
        // A range search's first ride leaves at τ (after the walk to it); one from a time, then or later.
        let leaves = Int(tau) + Int(accessOf[first.from])
        guard leaving == nil ? first.departure.predicted == leaves : first.departure.predicted >= leaves else { return nil }
        var journey = Router.Journey(legs: legs, departure: first.departure.predicted, arrival: last.arrival.predicted, transfers: rides.count - 1)
        journey.walkAtTheEnds(query, from: first.from, to: destination, speed: edges.walkingSpeed, leaving: Int(tau))
        return journey
    }
}

extension Router.Journey {
    /// Lays on the walks at the ends, as `query`'s ends measured them: to `start` (the first
    /// ride's stop) from a point (stop -1) or from the stop named, leaving at `leaving` (nil: as
    /// late as the journey's departure allows), and from `end` after its arrival. None from or to
    /// a stop named itself.
    mutating func walkAtTheEnds(_ query: Router.Query, from start: Int, to end: Int, speed: Double, leaving: Int? = nil) {
        if let walk = query.access[start] {
            let leaves = leaving ?? departure - walk
            legs.insert(Router.Leg(mode: .walk(meters: query.accessMeters[start] ?? Double(walk) * speed), from: query.accessFrom[start] ?? -1, to: start,
                                   departure: LegTime(leaves), arrival: LegTime(leaves + walk)), at: 0)
            departure = leaves
        }
        if let walk = query.egress[end] {
            legs.append(Router.Leg(mode: .walk(meters: query.egressMeters[end] ?? Double(walk) * speed), from: end, to: query.egressTo[end] ?? -1,
                                   departure: LegTime(arrival), arrival: LegTime(arrival + walk)))
            arrival += walk
        }
    }
}
