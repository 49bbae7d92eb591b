import Foundation
import TransitSupport

/// When the answer is empty (issue 66): more changes asked for, where the rider set no bound,
/// and otherwise one line saying why, as a planner would: an option that removed every ride, an
/// end with no stop in service within its walk, a journey needing more changes.
extension JourneySearch {
    /// The window the rider asked for, as a router searches it: the asked service day's
    /// departures from `after` to `before` (or to the day's last one), never the next days'.
    func askedWindowRouter(transfers: Int, needs: RiderNeeds? = nil, withOnFoot: Bool = true) -> Router {
        var rules = query.rules
        rules.transfers = transfers
        let before = query.reachMinutes == nil ? window.before ?? window.arriveBy : nil
        return ends.router(day: day.dayNumber, after: window.after, before: before, rules: rules, needs: needs ?? self.needs,
                           updates: router.realtime == nil ? nil : updates, days: days, endsWithTheDay: true, withOnFoot: withOnFoot)
    }

    /// Where the rider gave no bound on changes (`JourneyQuery.raisesChanges`) and the answer
    /// holds no ride leaving in the asked window: the journeys of that window with one more
    /// change at a time, up to `SearchDefaults.maxTransfers`, and how many changes they needed
    /// (nil: none found, or nothing to raise).
    func raised(_ asked: [Router.Journey], by router: Router, limit: Int?) -> (journeys: [Router.Journey], router: Router, changes: Int)? {
        let start = query.rules.transfers
        guard query.raisesChanges, start < SearchDefaults.maxTransfers, router.onFootTally.beaten.isEmpty else { return nil }
        // A ride leaving in the asked window (to its end, or the day's last departure) was found
        // with the changes asked: nothing to raise (and no router built: real-time data lays
        // out its runs for each).
        let end = router.query.before ?? Router.endingWithTheDay(router.query, router.schedule, router.realtime).before ?? Int.max
        if asked.contains(where: { !$0.isOnFoot && $0.departure <= end }) { return nil }
        // Whether any journey leaves in the window is one RAPTOR search (`findsRides`): the most
        // changes first (none: nothing to raise), then one more at a time; the window's whole
        // search only with the changes that find one.
        guard Self.findsRides(askedWindowRouter(transfers: SearchDefaults.maxTransfers, withOnFoot: false)) else { return nil }
        for changes in (start + 1)...SearchDefaults.maxTransfers {
            guard changes == SearchDefaults.maxTransfers || Self.findsRides(askedWindowRouter(transfers: changes, withOnFoot: false)) else { continue }
            let raised = askedWindowRouter(transfers: changes)
            let found = Self.journeys(raised, query, window: window, limit: limit)
            if found.contains(where: { !$0.isOnFoot }) { return (found, raised, changes) }
        }
        return nil
    }

    /// Why there is no journey, in one line (nil: none of the reasons below holds), in this
    /// order: an option of the rider's needs that removed every ride (asked again without it),
    /// an end with no stop in service on the day within its reach on foot (the nearest that is,
    /// and how far), more changes than asked needed.
    package func whyNone() -> String? {
        for (option, without) in needsLeftOut() where Self.findsRides(askedWindowRouter(transfers: query.rules.transfers, needs: without, withOnFoot: false)) {
            return option + " leaves no ride; without it there are journeys" + needHint(option)
        }
        if let reason = endWithoutService() { return reason }
        if query.rules.transfers < SearchDefaults.maxTransfers,
           Self.findsRides(askedWindowRouter(transfers: SearchDefaults.maxTransfers, withOnFoot: false)) {
            return "a journey needs more than \(query.rules.transfers) changes: --transfers \(SearchDefaults.maxTransfers) finds one"
        }
        return nil
    }

    /// Whether a ride leaves in the router's window and arrives: its earliest arrival (one RAPTOR
    /// search, its first ride boarded by the window's end), not the window's journeys.
    private static func findsRides(_ router: Router) -> Bool { router.earliestArrival(router.query) != nil }

    /// Each option of the rider's needs given, and the needs without it.
    private func needsLeftOut() -> [(option: String, needs: RiderNeeds)] {
        var out: [(String, RiderNeeds)] = []
        func without(_ option: String, _ change: (inout RiderNeeds) -> Void) {
            var n = needs
            change(&n)
            out.append((option, n))
        }
        if needs.wheelchair { without("--wheelchair") { $0.wheelchair = false } }
        if needs.bike { without("--bike") { $0.bike = false } }
        if let modes = needs.modes { without("--modes " + modes.map(\.rawValue).sorted().joined(separator: ",")) { $0.modes = nil } }
        if !needs.avoidRoutes.isEmpty { without("--avoid " + needs.avoid.joined(separator: " --avoid ")) { $0.avoidRoutes = [] } }
        if !needs.vias.isEmpty { without("--via") { $0.vias = [] } }
        if needs.margin != RiderNeeds.ChangeMargin() { without("--buffer") { $0.margin = RiderNeeds.ChangeMargin() } }
        return out
    }

    /// What the feed has that the option missed: the modes its routes are, the bikes its trips take.
    private func needHint(_ option: String) -> String {
        let t = timetable
        let modes = Set((0..<t.routeCount).compactMap { RouteMode(routeType: t.route($0).type) }).map(\.rawValue).sorted()
        if option.hasPrefix("--modes") { return " (the feed's routes are \(modes.joined(separator: ", ")))" }
        if option == "--bike" {
            let marked = t.tripBikes.buffer.contains(1)
            return " (\(marked ? "some trips are" : "no trip is") marked bikes_allowed=1; an unmarked trip takes a bike on --bike-modes, "
                + "here \(needs.bikeModes.map(\.rawValue).sorted().joined(separator: ",")), and the feed's routes are \(modes.joined(separator: ", ")))"
        }
        return ""
    }

    /// An end none of whose stops (named, walked to, or near the point) a run calls at on the
    /// day: the nearest stop that one does, and how far.
    private func endWithoutService() -> String? {
        let t = timetable, r = router
        let schedule = DaySchedule(t, day: day.dayNumber)
        func served(_ stop: Int, boarding: Bool) -> Bool {
            guard stop >= 0, stop < schedule.stopCount else { return false }
            return schedule.calls(at: stop).contains { k in
                let (q, i) = schedule.call(k)
                return schedule.runCount(q) > 0 && (boarding ? schedule.canBoard(q, i) && i < schedule.length(q) - 1 : schedule.canAlight(q, i) && i > 0)
            }
        }
        for (end, stops, boarding) in [(Optional(ends.origin), r.query.origins, true), (ends.destination, r.query.destinations, false)] {
            guard let end, !stops.contains(where: { served($0, boarding: boarding) }) else { continue }
            let at = end.place.point?.at ?? end.stops.first.map { t.coordinate(ofStop: $0) }
            guard let at, at.latitude.isFinite else { continue }
            // Where the end reaches on foot: a point's radius, a named stop's walk (none with --walk 0).
            let reach = end.place.point == nil ? query.rules.walkMeters.map { "a stop within --walk \(Int($0)) of \(end.place.text)" } ?? "\(end.place.text) (--walk 0)"
                : "a stop within --radius \(Int(query.rules.radiusMeters)) of \(end.place.text)"
            var nearest: (meters: Double, stop: Int)?
            for stop in 0..<t.stopCount where served(stop, boarding: boarding) && !t.stopLat[stop].isNaN {
                let meters = at.meters(to: t.coordinate(ofStop: stop))
                if meters.isFinite, nearest.map({ (meters, stop) < ($0.meters, $0.stop) }) ?? true { nearest = (meters, stop) }
            }
            let side = boarding ? "leaves from" : "arrives at"
            guard let nearest else { return "no run \(side) any stop on \(day.iso)" }
            return "no run \(side) \(reach) on \(day.iso); the nearest that one does is "
                + "\(t.stop(nearest.stop).name) (\(t.stop(nearest.stop).id)), \(Int(nearest.meters.rounded())) m away"
        }
        return nil
    }
}
