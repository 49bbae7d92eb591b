import Foundation
import TransitSupport

/// A station board: the calls leaving some stops on a service day, with real-time data read
/// through the overlay journeys ride (`RealtimeSchedule`).
package enum Board {
    package struct Call {
        package var trip: Int
        package var stop: Int
        /// Planned departure, in seconds of the requested day (nil for an added trip).
        package var planned: Int?
        /// Predicted departure (the planned one without realtime data); nil when canceled or skipped.
        package var predicted: Int?
        /// 0: the requested day; -1: the day before (a call past 24:00).
        package var dayOffset: Int
        /// The run's first departure (what tells the runs of a frequencies.txt trip apart).
        package var runStart: Int
        package var status: RealtimeStatus = .scheduled
        /// The trip's id where realtime data names it (an added trip), else the timetable's.
        package var tripID: String? = nil
        package var route: Int = -1
        package var headsign: String? = nil
        /// The ids of the alerts in force that apply to it.
        package var alerts: [String] = []

        /// Where it sorts and what a window compares: the time to plan on, else the planned one.
        package var seconds: Int { predicted ?? planned ?? 0 }
        package var delay: Int? { status == .updated ? predicted.flatMap { p in planned.map { p - $0 } } : nil }
    }

    /// The calls at `stops` leaving on `day`'s service (and the day before's, past 24:00) from
    /// `after` (seconds of the service day), in order of the time to plan on. With realtime
    /// data, read through the same overlay the router rides (`RealtimeSchedule`): predicted
    /// times, canceled and skipped calls kept and marked, added trips in.
    /// `filter`: only the calls of these routes, reaching these stops later on, leaving by then.
    /// `matchingAlerts`: each call's alerts found here (else by `matchAlerts`, for the calls shown).
    package static func calls(_ t: Timetable, _ stops: [Int], day: LocalDate, after: Int?, updates: TripUpdates? = nil,
                              filter: Filter = Filter(), matchingAlerts: Bool = true) -> [Call] {
        var calls: [Call] = []
        for (offset, serviceDay) in [(0, day), (-1, day.adding(days: -1))] {
            if let updates {
                calls += self.calls(RealtimeSchedule(t, day: serviceDay.dayNumber, updates: updates), t, stops, offset: offset, after: after,
                                    updates: updates, filter: filter)
            } else {
                calls += self.calls(DaySchedule(t, day: serviceDay.dayNumber), t, stops, offset: offset, after: after, updates: nil, filter: filter)
            }
        }
        calls.sort { ($0.seconds, $0.trip, $0.stop) < ($1.seconds, $1.trip, $1.stop) }
        if matchingAlerts { matchAlerts(&calls, t, updates: updates) }
        return calls
    }

    /// The alerts in force that apply to each of `calls` (a board matches the rows it shows, not
    /// the day's every call), bounded as `AlertSelection` says; the selection says which it shows.
    @discardableResult
    package static func matchAlerts(_ calls: inout [Call], _ t: Timetable, updates: TripUpdates?) -> AlertSelection {
        func row(_ c: Call) -> AlertSelection.Row { .init(route: c.route, trip: c.trip, tripID: c.tripID, stops: [c.stop]) }
        let selection = AlertSelection(updates, t, rows: calls.map(row))
        guard !selection.shown.isEmpty else { return selection }
        for k in calls.indices { calls[k].alerts = selection.ids(row(calls[k])) }
        return selection
    }

    /// One service day's calls at `stops` that board as planned (a skipped or canceled one is
    /// listed, marked), `offset` days from the board's day.
    /// What a board keeps (nil: everything): a call of one of `routes`, whose run calls at one of
    /// `reaching` later on where it may alight (as planned: a canceled run is kept, marked), and
    /// that leaves at or before `before` (seconds of the board's day).
    package struct Filter {
        package var routes: Set<Int>?
        package var reaching: Set<Int>?
        package var before: Int?

        package init(routes: Set<Int>? = nil, reaching: Set<Int>? = nil, before: Int? = nil) {
            self.routes = routes
            self.reaching = reaching
            self.before = before
        }
    }

    private static func calls<S: Schedule>(_ schedule: S, _ t: Timetable, _ stops: [Int], offset: Int, after: Int?, updates: TripUpdates?,
                                           filter: Filter) -> [Call] {
        var calls: [Call] = []
        let shift = offset * 86_400
        for stop in stops {
            for k in schedule.calls(at: stop) {
                let (q, i) = schedule.call(k)
                let flags = schedule.plannedFlags(of: q)
                guard i < schedule.length(q) - 1, Timetable.canBoard(flags[i]) else { continue }
                if let reaching = filter.reaching,
                   !((i + 1)..<schedule.length(q)).contains(where: { reaching.contains(schedule.stop(q, $0)) && Timetable.canAlight(flags[$0]) }) { continue }
                for run in 0..<schedule.runCount(q) {
                    let index = schedule.instance(q, run), instance = index >= 0 ? updates?.instances[index] : nil
                    let status = schedule.status(q, run, i), trip = schedule.trip(q, run)
                    var call = Call(trip: trip, stop: stop, planned: status == .added ? nil : Int(schedule.planned(q, run, i).departure) + shift,
                                    predicted: status.calls ? Int(schedule.departure(q, run, i)) + shift : nil, dayOffset: offset,
                                    runStart: Int(schedule.planned(q, run, 0).departure), status: status,
                                    route: instance?.route ?? t.route(ofTrip: trip))
                    if status == .added {
                        call.tripID = instance?.tripID
                        call.headsign = instance?.headsign
                    }
                    guard call.seconds >= 0, call.seconds >= after ?? Int.min, call.seconds <= filter.before ?? Int.max,
                          filter.routes.map({ $0.contains(call.route) }) ?? true else { continue }
                    calls.append(call)
                }
            }
        }
        return calls
    }

    /// Every trip with a call at one of `stops`, on any day.
    package static func trips(calling stops: [Int], _ t: Timetable) -> Set<Int> {
        var trips = Set<Int>()
        for stop in stops {
            for (q, _) in t.calls(atStop: stop) { trips.formUnion(t.trips(ofPattern: q).lazy.map { Int($0) }) }
        }
        return trips
    }
}
