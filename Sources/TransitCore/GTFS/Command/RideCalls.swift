import Foundation
import TransitSupport
import TransitGTFS

/// The router that found a query's journeys, kept to say their rides' calls (`--stops`). Its
/// schedule is only read once the search is done, from the thread writing the output.
struct RideCallSource: @unchecked Sendable {
    let router: Router
}

/// A ride's calls as `gtfs trip` and `gtfs trips --stops` print them: the same fields in JSON,
/// and the lines under a journey's row in the table.
extension JourneyLayout {
    /// `gtfs trip`'s fields of a call of a trip with `length` calls: sequence, stop_id,
    /// stop_name, platform, arrival and departure (predicted; none at the first call's arrival and
    /// the last one's departure), the planned ones, delay_seconds, realtime, status.
    func callColumns(length: Int) -> [Column<TripCalls.Call>] {
        @Sendable func time(_ seconds: Int?, _ c: TripCalls.Call, first: Bool) -> Value {
            guard let seconds, c.position != (first ? 0 : length - 1) else { return .null }
            return self.time(seconds, at: c.stop)
        }
        let t = self.t
        return [
            Column("sequence", "SEQ") { .int($0.position + 1) }, Column("stop_id", "STOP") { .string(t.stop($0.stop).id) },
            Column("stop_name", "NAME") { .string(t.stop($0.stop).name) }.wrapping(), Column("platform") { platform($0.stop) },
            Column("arrival", "ARRIVE") { time($0.arrival, $0, first: true) }, Column("departure", "DEPART") { time($0.departure, $0, first: false) },
            Column("planned_arrival") { time($0.plannedArrival, $0, first: true) },
            Column("planned_departure") { time($0.plannedDeparture, $0, first: false) },
            Column("delay_seconds") { $0.delay.map(Value.int) ?? .null }, Column("realtime") { .bool($0.status.isRealtime) },
            Column("status") { .string($0.status.rawValue) },
        ]
    }

    /// The calls a ride makes, boarding to alighting (both included), with the length of its
    /// trip; nil for a walk, or where no calls were asked for (`rideCalls`).
    func calls(_ leg: Router.Leg) -> (calls: ArraySlice<TripCalls.Call>, length: Int)? {
        guard let rideCalls, case .ride(_, _, _, let from, let to) = leg.mode else { return nil }
        let added = leg.instance >= 0 && updates.map { leg.instance < $0.instances.count && $0.instances[leg.instance].status == .added } ?? false
        let all = rideCalls.router.calls(of: leg, added: added)
        guard from >= 0, from <= to, to < all.count else { return nil }
        return (all[from...to], all.count)
    }

    /// A ride's calls as JSON: `gtfs trip`'s fields, each call an object.
    func callValues(_ leg: Router.Leg) -> Value? {
        guard let (calls, length) = calls(leg) else { return nil }
        let columns = callColumns(length: length)
        return .list(calls.map { .object(Record(columns, $0)) })
    }

    /// The lines under a journey's row with `--stops`: each ride's name and where it heads, then
    /// a line a call (its time, as planned → predicted where the data moved it, and the stop; a
    /// skipped or canceled call says so); each walk's length.
    func callLines(_ journey: Router.Journey) -> [String] {
        let day = clock.day
        func hhmm(_ seconds: Int, _ stop: Int) -> String { ClockTime.hhmm(clock.instant(seconds), zone: zone(at: stop), on: day) }
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
                var time = predicted.map { hhmm($0, call.stop) } ?? ""
                if let planned, let predicted, planned != predicted {
                    let minutes = Self.minutes(predicted - planned)
                    if minutes != 0 { time += minutes > 0 ? " +\(minutes)" : " \(minutes)" }
                }
                let note = call.status == .skipped || call.status == .canceled ? " (\(call.status.rawValue))" : ""
                lines.append("    " + TextWidth.pad(time, to: 9) + "  " + t.stop(call.stop).name + note)
            }
        }
        return lines
    }
}
