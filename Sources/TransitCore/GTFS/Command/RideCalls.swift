import Foundation
import TransitSupport
import TransitGTFS

/// The router that found a query's journeys, kept to say their rides' calls (`--stops`). Its
/// schedule is only read once the search is done, from the thread writing the output. A class:
/// the router is two dozen references, and a struct holding it was copied for every ride.
final class RideCallSource: @unchecked Sendable {
    let router: Router

    init(router: Router) { self.router = router }
}

/// Each stop's id, name and platform as JSON values, made the first time a call there is
/// written (a whole day's journeys write the same few dozen stops a hundred thousand times, and
/// a stop's record is a dozen strings made each time it is read). Used from the one thread that
/// writes the output.
final class CallStops: @unchecked Sendable {
    /// By stop, once the first call there is written (an array: a lookup per call).
    private var made: [(id: Value, name: Value, platform: Value)?] = []

    func texts(_ stop: Int, _ t: Timetable, platform: (Int) -> Value) -> (id: Value, name: Value, platform: Value) {
        guard stop >= 0 && stop < t.stopCount else { return (.null, .null, .null) }
        if made.isEmpty { made = Array(repeating: nil, count: t.stopCount) }
        if let known = made[stop] { return known }
        let record = t.stop(stop), texts = (Value.string(record.id), Value.string(record.name), platform(stop))
        made[stop] = texts
        return texts
    }
}

/// A ride's calls as `gtfs trip` and `gtfs trips --stops` print them: the same fields in JSON,
/// and the lines under a journey's row in the table.
extension JourneyLayout {
    /// `gtfs trip`'s fields of a call of a trip with `length` calls: sequence, stop_id,
    /// stop_name, platform, arrival and departure (predicted; none at the first call's arrival and
    /// the last one's departure), the planned ones, delay_seconds, realtime, status. One record
    /// function for both commands; a stop's texts are made once (`CallStops`). `ride`: a ride's
    /// call in a journey's leg, whose JSON leaves out what the leg says already or what its
    /// times say (sequence, delay_seconds, realtime: a whole day's calls were 4 × the journeys).
    func callRecord(_ c: TripCalls.Call, length: Int, ride: Bool = false) -> Record {
        func time(_ seconds: Int?, first: Bool) -> Value {
            guard let seconds, c.position != (first ? 0 : length - 1) else { return .null }
            return self.time(seconds, at: c.stop)
        }
        let stop = callStops.texts(c.stop, t) { platform($0) }
        // Made field by field into one array: a whole day's calls are hundreds of thousands.
        var fields: [Record.Field] = []
        fields.reserveCapacity(Self.callKeys.count)
        if !ride { fields.append(Record.Field(key: "sequence", value: .int(c.position + 1))) }
        fields.append(Record.Field(key: "stop_id", value: stop.id))
        fields.append(Record.Field(key: "stop_name", value: stop.name))
        fields.append(Record.Field(key: "platform", value: stop.platform))
        fields.append(Record.Field(key: "arrival", value: time(c.arrival, first: true)))
        fields.append(Record.Field(key: "departure", value: time(c.departure, first: false)))
        fields.append(Record.Field(key: "planned_arrival", value: time(c.plannedArrival, first: true)))
        fields.append(Record.Field(key: "planned_departure", value: time(c.plannedDeparture, first: false)))
        if !ride {
            fields.append(Record.Field(key: "delay_seconds", value: c.delay.map(Value.int) ?? .null))
            fields.append(Record.Field(key: "realtime", value: .bool(c.status.isRealtime)))
        }
        fields.append(Record.Field(key: "status", value: .string(c.status.rawValue)))
        return Record(fields: fields)
    }


    static let callKeys = ["sequence", "stop_id", "stop_name", "platform", "arrival", "departure", "planned_arrival", "planned_departure",
                           "delay_seconds", "realtime", "status"]

    /// `callRecord`'s fields as columns, for `gtfs trip`'s formats.
    func callColumns(length: Int) -> [Column<TripCalls.Call>] {
        let headers = ["sequence": "SEQ", "stop_id": "STOP", "stop_name": "NAME", "arrival": "ARRIVE", "departure": "DEPART"]
        return Self.callKeys.map { key in
            let column = Column<TripCalls.Call>(key, headers[key]) { [self] in callRecord($0, length: length)[key] ?? .null }
            return key == "stop_name" ? column.wrapping() : column
        }
    }

    /// The calls a ride makes, boarding to alighting (both included), with the length of its
    /// trip; nil for a walk, or where no calls were asked for (`rideCalls`).
    func calls(_ leg: Router.Leg) -> (calls: [TripCalls.Call], length: Int)? {
        guard let rideCalls, case .ride(_, _, _, let from, let to) = leg.mode else { return nil }
        let added = leg.instance >= 0 && updates.map { leg.instance < $0.instances.count && $0.instances[leg.instance].status == .added } ?? false
        let (all, length) = rideCalls.router.calls(of: leg, added: added)
        guard from >= 0, from <= to, to < length, all.count == to - from + 1 else { return nil }
        return (all, length)
    }

    /// A ride's calls as JSON: `gtfs trip`'s fields, each call an object.
    func callValues(_ leg: Router.Leg) -> Value? {
        guard let (calls, length) = calls(leg) else { return nil }
        return .list(calls.map { .object(callRecord($0, length: length, ride: true)) })
    }

    /// The lines under a journey's row with `--stops`: each ride's name and where it heads, then
    /// a line a call (its time, as planned → predicted where the data moved it, and the stop; a
    /// skipped or canceled call says so); each walk's length.
    func callLines(_ journey: Router.Journey) -> [String] {
        var lines: [String] = []
        for leg in journey.legs {
            guard leg.isRide else {
                lines.append("  walk \(Int(meters(leg).rounded())) m")
                continue
            }
            let headsign = headsign(leg)
            lines.append("  " + routeName(route(leg)) + (headsign.isEmpty ? "" : " toward \(headsign)"))
            guard let (calls, _) = calls(leg) else { continue }
            for (k, call) in calls.enumerated() {
                // Where the rider boards, the departure; where they alight, the arrival.
                let last = k == calls.count - 1
                let planned = last ? call.plannedArrival ?? call.plannedDeparture : call.plannedDeparture ?? call.plannedArrival
                let predicted = last ? call.arrival ?? call.departure : call.departure ?? call.arrival
                let time = predicted.map { seconds in clockText(seconds, at: call.stop, delay: planned.map { seconds - $0 }) } ?? ""
                let note = call.status == .skipped || call.status == .canceled ? " (\(call.status.rawValue))" : ""
                lines.append("    " + TextWidth.pad(time, to: 9) + "  " + t.stop(call.stop).name + note)
            }
        }
        return lines
    }
}
