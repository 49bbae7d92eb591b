import Foundation
import TransitSupport
import TransitGTFS

/// What to take if a change is missed (`gtfs trips --alternatives N`): for each ride after the
/// first, the next journeys from the stop where it boards, leaving once the ride before it has
/// arrived and the change is made, without the missed run, to the same destination by the same
/// rules.
struct MissedRide: Hashable {
    /// The missed ride's trip, its run (first departure) and where it boards.
    var trip: Int
    var runStart: Int
    var stop: Int
    /// The ride before it: where it alights and when (seconds of the service day).
    var arrivedAt: Int
    var arrival: Int

    /// The rides after the first of a journey, each with what asks for its alternatives, and the
    /// ride before it.
    static func of(_ journey: Router.Journey) -> [(ride: Router.Leg, previous: Router.Leg, missed: MissedRide)] {
        let rides = journey.legs.filter(\.isRide)
        return zip(rides, rides.dropFirst()).compactMap { previous, ride in
            ride.trip.map { (ride, previous, MissedRide(trip: $0, runStart: ride.runStart, stop: ride.from, arrivedAt: previous.to,
                                                        arrival: previous.arrival.predicted)) }
        }
    }
}

extension GTFSTripsCommand {
    /// The alternatives to each ride after the first of `journeys`, `count` of each, asked once
    /// per missed ride: the engine's onward journeys from the stop where it boards, leaving when
    /// the ride before has arrived and the change it needs is made (the router's rule:
    /// transfers.txt, else `--min-transfer` plus the walk), with the missed run hidden as a
    /// DELETED update hides it (`TripUpdates.hiding`).
    func alternatives(_ journeys: [Router.Journey], count: Int, _ search: JourneySearch, router: Router) throws(TransitError) -> [MissedRide: [Router.Journey]] {
        var found: [MissedRide: [Router.Journey]] = [:]
        let t = search.timetable
        for journey in journeys {
            for (ride, previous, missed) in MissedRide.of(journey) where found[missed] == nil {
                let hidden = (search.updates ?? TripUpdates()).hiding(ride, day: search.day.dayNumber, in: t)
                let after = missed.arrival + (router.changeSeconds(from: previous, to: ride) ?? search.query.rules.minTransferSeconds)
                found[missed] = try search.onward(from: missed.stop, after: after, updates: hidden, count: count)
            }
        }
        return found
    }
}

extension JourneyLayout {
    /// The table's line under a row for each ride after the first that has alternatives:
    /// `if the 08:39 Limited at Millbrae Caltrain is missed: 09:02 → 09:47 Local; 09:32 → 10:14 Limited`.
    func alternativeLines(_ journey: Router.Journey) -> [String] {
        guard !alternatives.isEmpty else { return [] }
        let day = clock.day
        func hhmm(_ seconds: Int, _ stop: Int) -> String { ClockTime.hhmm(clock.instant(seconds), zone: zone(at: stop), on: day) }
        return MissedRide.of(journey).compactMap { ride, _, missed in
            guard let others = alternatives[missed] else { return nil }
            let what = "  if the \(hhmm(ride.departure.predicted, ride.from)) \(routeName(route(ride))) at \(stationName(ride.from)) is missed: "
            guard !others.isEmpty else { return what + "no journey later that day" }
            // No-break spaces around an alternative's arrow: a narrow terminal wraps between the
            // alternatives, not inside one's times.
            return what + others.map { j in
                "\(hhmm(j.departure, j.legs.first?.from ?? -1))\u{A0}→\u{A0}\(hhmm(j.arrival, j.legs.last?.to ?? -1)) " + routes(j)
            }.joined(separator: "; ")
        }
    }
}
