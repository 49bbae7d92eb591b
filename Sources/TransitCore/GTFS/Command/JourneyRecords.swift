import Foundation
import TransitSupport
import TransitGTFS

/// A journey's JSON: its legs' records, what the rider's needs add to them, and an alternative
/// to a missed ride as a journey's record of its own.
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
}
