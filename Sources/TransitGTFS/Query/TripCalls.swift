import Foundation
import TransitSupport

/// One trip's run on a service day, call by call, with real-time data read through the overlay
/// journeys ride (`RealtimeSchedule`): what `gtfs trip` shows.
package enum TripCalls {
    /// A call of one trip's run: planned and predicted times, in seconds of the service day
    /// (nil where there is none: an added trip has no plan, a canceled or skipped call no time).
    package struct Call {
        package var position: Int
        package var stop: Int
        package var plannedArrival: Int?
        package var plannedDeparture: Int?
        package var arrival: Int?
        package var departure: Int?
        /// Pickup/drop-off as planned (`Timetable.canBoard`, `canAlight`).
        package var flags: UInt8
        package var status: RealtimeStatus
        package var delay: Int?
    }

    /// A trip by its id: over several feeds `feed:id`, or a bare id one feed has (nil: none has).
    package static func trip(named id: String, in t: Timetable) throws(TransitError) -> Int? {
        if let trip = t.trip(id: id) { return trip }
        return try t.bareID(id, in: t.tripIDs, what: "trip_id")
    }

    /// The calls of a trip the real-time data runs on `day` under `tripID` (ADDED, NEW,
    /// DUPLICATED, or a REPLACEMENT of a planned one: `replaces`), if it does.
    package static func added(_ tripID: String, day: Int, in t: Timetable, overlay: RealtimeSchedule?,
                              updates: TripUpdates?) -> (calls: [Call], replaces: Bool)? {
        guard let updates, let overlay,
              let index = updates.instances.firstIndex(where: { $0.status == .added && $0.tripID == tripID && $0.day == day }),
              let (q, run) = overlay.run(ofInstance: index) else { return nil }
        let trip = updates.instances[index].trip
        return (calls(overlay, q, run, added: true), trip >= 0 && trip < t.tripCount && t.tripIDs[trip] == tripID)
    }

    /// The calls of a trip's run (a pattern and its row, as `Timetable.runs(ofTrip:)` lists
    /// them) on `day`, read through the schedule every answer reads: the overlay with real-time
    /// data (where it moved the run, and how it left each call), else the day as planned. None
    /// where the run's service does not run that day.
    package static func calls(of run: (pattern: Int, row: Int), day: Int, in t: Timetable, overlay: RealtimeSchedule?) -> [Call] {
        let base = overlay?.base ?? DaySchedule(t, day: day)
        guard let r = base.run(ofRow: run.row, pattern: run.pattern) else { return [] }
        if let overlay, let (p, k) = overlay.run(ofBase: run.pattern, r) { return calls(overlay, p, k, added: false) }
        // No overlay, or the data took the run off (a REPLACEMENT, an update that does not fit): as planned.
        return calls(base, run.pattern, r, added: false)
    }

    /// The calls of `run` of `pattern` as `schedule` has them (`added`: a trip the data adds,
    /// with no plan).
    package static func calls<S: Schedule>(_ schedule: S, _ pattern: Int, _ run: Int, added: Bool, positions: Range<Int>? = nil) -> [Call] {
        let flags = schedule.plannedFlags(of: pattern), all = 0..<schedule.length(pattern)
        return (positions?.clamped(to: all) ?? all).map { i in
            let status = schedule.status(pattern, run, i), planned = schedule.planned(pattern, run, i)
            let arrival = Int(schedule.arrival(pattern, run, i)), departure = Int(schedule.departure(pattern, run, i))
            return Call(position: i, stop: schedule.stop(pattern, i), plannedArrival: added ? nil : Int(planned.arrival),
                        plannedDeparture: added ? nil : Int(planned.departure), arrival: status.calls ? arrival : nil,
                        departure: status.calls ? departure : nil, flags: flags[i], status: status,
                        delay: status == .updated ? departure - Int(planned.departure) : nil)
        }
    }
}

extension Router {
    /// A ride's calls, boarding to alighting (both included), as the schedule the search read
    /// has them (the day with its real-time data, where it had some), and how many calls its trip
    /// makes in all: what a journey's legs list with `--stops`. `added`: a trip the real-time
    /// data adds, which has no plan. None for a walk.
    package func calls(of leg: Leg, added: Bool) -> (calls: [TripCalls.Call], length: Int) {
        guard case .ride(_, let pattern, let run, let from, let to) = leg.mode, from <= to else { return ([], 0) }
        if let realtimeDays {
            guard pattern >= 0, pattern < realtimeDays.patternCount, run >= 0, run < realtimeDays.runCount(pattern) else { return ([], 0) }
            return (TripCalls.calls(realtimeDays, pattern, run, added: added, positions: from..<(to + 1)), realtimeDays.length(pattern))
        }
        if let acrossDays {
            guard pattern >= 0, pattern < acrossDays.patternCount, run >= 0, run < acrossDays.runCount(pattern) else { return ([], 0) }
            return (TripCalls.calls(acrossDays, pattern, run, added: false, positions: from..<(to + 1)), acrossDays.length(pattern))
        }
        guard pattern >= 0, pattern < schedule.patternCount, run >= 0, run < schedule.runCount(pattern) else { return ([], 0) }
        return (TripCalls.calls(schedule, pattern, run, added: false, positions: from..<(to + 1)), schedule.length(pattern))
    }
}
