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
    /// A journey's legs as JSON; each ride after the first with its `alternatives` where they
    /// were asked (each a journey's record: origin, destination, times, changes and legs).
    func legRecords(_ journey: Router.Journey) -> [Value] {
        let missed = alternatives.isEmpty ? [] : MissedRide.of(journey)
        var previous: Router.Leg?
        return journey.legs.map { leg in
            var record = legRecord(leg)
            if let shaping { record.fields += shapingFields(leg, after: previous, shaping) }
            if leg.isRide { previous = leg }
            if let m = missed.first(where: { $0.ride == leg })?.missed, let others = alternatives[m] {
                record.fields.append(Record.Field(key: "alternatives", value: .list(others.map { .object(alternativeRecord($0)) })))
            }
            return .object(record)
        }
    }

    /// What the rider's needs add to a leg: with `--wheelchair`, `step_free` (for a ride, true
    /// where both stops say wheelchair_boarding=1, as the trip does; for a walk, true where both
    /// ends join the map's step-free streets, which it then followed; null where that is not
    /// known: a stop that does not say, a walk in a straight line); for a ride after the first,
    /// `change_seconds` (what the change needs by the rules and the rider's margin) and
    /// `margin_seconds` (the time to spare beyond it).
    func shapingFields(_ leg: Router.Leg, after previous: Router.Leg?, _ shaping: Shaping) -> [Record.Field] {
        var out: [Record.Field] = []
        if shaping.wheelchair {
            func joins(_ stop: Int, _ point: Bool) -> Bool { stop < 0 ? point : t.joinsStreets(stop, stepFree: true) }
            let known = leg.isRide ? t.wheelchairBoarding(leg.from) == 1 && t.wheelchairBoarding(leg.to) == 1
                : joins(leg.from, shaping.pointsJoin.origin) && joins(leg.to, shaping.pointsJoin.destination)
            out.append(Record.Field(key: "step_free", value: known ? .bool(true) : .null))
        }
        if leg.isRide, let previous {
            let needs = shaping.changes[Shaping.key(from: previous, to: leg)]
            out.append(Record.Field(key: "change_seconds", value: needs.map(Value.int) ?? .null))
            out.append(Record.Field(key: "margin_seconds", value: needs.map { .int(leg.departure.predicted - previous.arrival.predicted - $0) } ?? .null))
        }
        return out
    }

    func alternativeRecord(_ journey: Router.Journey) -> Record {
        Record([("origin", .string(journey.legs.first.map { endID($0.from, origin: true) } ?? "")),
                ("destination", .string(journey.legs.last.map { endID($0.to, origin: false) } ?? "")),
                ("departure", time(journey.departure, at: journey.legs.first?.from ?? -1)),
                ("arrival", time(journey.arrival, at: journey.legs.last?.to ?? -1)),
                ("duration_minutes", .int((journey.arrival - journey.departure) / 60)), ("transfers", .int(journey.transfers)),
                ("legs", .list(journey.legs.map { .object(legRecord($0)) }))])
    }

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
