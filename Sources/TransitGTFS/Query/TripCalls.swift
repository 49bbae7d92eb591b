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
        if let trip = t.tripIDs.firstIndex(of: id) { return trip }
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

    /// The calls of `trip`'s run (a pattern and its row) on `day`: through the overlay where the
    /// real-time data speaks of it, else as planned.
    package static func calls(of run: (pattern: Int, row: Int), trip: Int, day: Int, in t: Timetable, overlay: RealtimeSchedule?,
                              updates: TripUpdates?) -> [Call] {
        let q = run.pattern
        if let index = updates?.index(trip: trip, day: day, start: t.runStart(pattern: q, row: run.row)),
           let overlay, let (p, r) = overlay.run(ofInstance: index) {
            return calls(overlay, p, r, added: false)
        }
        let stopStart = Int(t.patternStopStart[q]), stops = t.stops(ofPattern: q)
        return stops.indices.map { i in
            let index = t.timeIndex(pattern: q, row: run.row, position: i)
            let a = Int(t.times[index]), d = Int(t.times[index + 1])
            return Call(position: i, stop: Int(stops[i]), plannedArrival: a, plannedDeparture: d,
                        arrival: a, departure: d, flags: t.patternFlags[stopStart + i], status: .scheduled)
        }
    }

    /// The calls of `run` of `pattern` as `schedule` has them (`added`: a trip the data adds,
    /// with no plan).
    package static func calls<S: Schedule>(_ schedule: S, _ pattern: Int, _ run: Int, added: Bool) -> [Call] {
        let flags = schedule.plannedFlags(of: pattern)
        return (0..<schedule.length(pattern)).map { i in
            let status = schedule.status(pattern, run, i), planned = schedule.planned(pattern, run, i)
            let arrival = Int(schedule.arrival(pattern, run, i)), departure = Int(schedule.departure(pattern, run, i))
            return Call(position: i, stop: schedule.stop(pattern, i), plannedArrival: added ? nil : Int(planned.arrival),
                        plannedDeparture: added ? nil : Int(planned.departure), arrival: status.calls ? arrival : nil,
                        departure: status.calls ? departure : nil, flags: flags[i], status: status,
                        delay: status == .updated ? departure - Int(planned.departure) : nil)
        }
    }
}
