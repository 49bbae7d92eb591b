import Foundation
import TransitSupport

/// The map a feed was imported with (`gtfs import --streets`), read when a query needs its
/// streets: a point's walks, changes longer than those stored, walks drawn along the streets.
package struct FeedMap: Sendable {
    /// The feed's name, for the message when the map is gone.
    package var feed: String
    package var path: String
    package var hash: String?
    package var store: FeedStore
    /// Says that the streets are being read (the command line's progress line).
    package var reading: (@Sendable () -> Void)?

    package init(feed: String, path: String, hash: String?, store: FeedStore, reading: (@Sendable () -> Void)? = nil) {
        (self.feed, self.path, self.hash, self.store, self.reading) = (feed, path, hash, store, reading)
    }

    /// The walks of a rider who walks so, on the map's network for them (without steps, for one
    /// who needs that).
    package func walker(_ walking: RiderNeeds.Walking) throws(TransitError) -> StreetWalker {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .usage("\(feed) walks on the map \(path), which is gone; import the feed again with --streets, or without")
        }
        reading?()
        let (network, grid, _) = try store.streets(path, hash: hash, profile: walking.streets)
        return StreetWalker(network, grid, profile: walking.streets)
    }
}

extension GTFSFeed {
    /// The question set up between `ends` (as `ends(q)` resolved them), with `updates` applied
    /// to their timetable: what every answer is asked of.
    package func search(_ q: JourneyQuery, _ ends: QueryEnds, updates: TripUpdates?) throws(TransitError) -> JourneySearch {
        try JourneySearch(q, ends, updates: updates, feed: name)
    }
}

/// A journey question set up on a feed: its ends resolved, the real-time data read on the
/// query's clock, its service day and window in seconds, the rider's needs found in the
/// timetable (the routes avoided, the vias' stops), and the router of the window. Every answer
/// of `gtfs trips`, `reach`, `fares`, `journey` and the library is one of its functions.
package struct JourneySearch {
    package let query: JourneyQuery
    package let ends: QueryEnds
    package let updates: TripUpdates?
    /// The query's `now`, or the time of the recordings read (when every source was one).
    package let now: Date
    package let day: LocalDate
    package let clock: ServiceClock
    package let window: ServiceWindow.Seconds
    /// The query's needs with its routes avoided and its vias' stops found.
    package let needs: RiderNeeds
    /// The service days whose runs its journeys ride, as days after `day`: those before whose
    /// runs still run at the window's start, the day, the next two; each with its real-time data.
    package let days: ClosedRange<Int>
    /// The router of the query's window.
    package let router: Router
    /// What the answer cannot promise, said once (a feed that marks no trip step-free, …).
    package let notices: [String]

    package var timetable: Timetable { ends.timetable }

    /// `ends` as `GTFSFeed.ends(q)` resolved them; `updates` applied to their timetable; `feed`:
    /// its name, which an unknown route's error says.
    init(_ q: JourneyQuery, _ ends: QueryEnds, updates: TripUpdates?, feed: String?) throws(TransitError) {
        let t = ends.timetable
        query = q
        self.ends = ends
        self.updates = updates
        now = updates?.recordedAt.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? q.now
        var asked = q
        asked.now = now
        if q.wholeDay {
            clock = ServiceClock(day: asked.serviceDay(in: t.zone), zone: t.zone)
            window = ServiceWindow.Seconds()
        } else {
            // A date and a time mean a moment: the service day whose clock reads it is the moment's.
            (clock, window) = try q.window.moments(on: asked.date(in: t.zone), in: t.zone, now: now)
        }
        day = clock.day
        var needs = q.needs
        for typed in q.needs.avoid {
            let found = t.routes(named: typed)
            guard !found.isEmpty else { throw .usage("no route '\(typed)' in feed \(feed ?? "given"); 'transit gtfs routes' lists them") }
            needs.avoidRoutes.formUnion(found)
        }
        needs.vias = ends.vias.indices.map { k in
            RiderNeeds.Via(stops: ends.vias[k], staySeconds: k < q.vias.count ? q.vias[k].staySeconds : 0)
        }
        self.needs = needs
        // A reach's window closes its minutes after it opens; one arriving by a time, then
        // (tomorrow's 09:00 when asked at 14:00: the departures up to it, whatever the day).
        let after = q.reachMinutes == nil ? window.after : window.after ?? 0
        let before = q.reachMinutes.map { (after ?? 0) + $0 * 60 } ?? window.before ?? window.arriveBy
        // (Real-time data that changes no run, a source down or alerts alone, plans as the timetable.)
        let changesRuns = !(updates?.instances.isEmpty ?? true)
        // A window the rider closed by its departures rides the next days' runs too, searched
        // where the days its departures fall in leave room (`Router.Query.withheldAfter`).
        let closed = window.before != nil && q.reachMinutes == nil ? Self.daysAhead(t, day: day, before: before) : nil
        let searched = Self.days(t, day: day, after: after, before: before)
        days = closed == nil ? searched : searched.lowerBound...Self.daysAhead
        router = ends.router(day: day.dayNumber, after: after, before: before, rules: q.rules, needs: needs, updates: changesRuns ? updates : nil,
                             days: days, withheldAfter: closed, endsWithTheDay: !Self.goesOn(window, q), withOnFoot: true)
        notices = Self.notices(q.needs, t)
    }

    /// A router of this question's ends, rules and needs, leaving in [after, before] (without
    /// `before`, a window that goes on into the next days' departures), over `updates` (the
    /// question's unless given: a missed run hidden in them).
    private func router(after: Int, before: Int?, updates: TripUpdates? = nil) -> Router {
        let updates = updates ?? router.realtime.flatMap { _ in self.updates }
        return ends.router(day: day.dayNumber, after: after, before: before, rules: query.rules, needs: needs, updates: updates,
                           days: Self.days(timetable, day: day, after: after, before: before))
    }

    /// The days whose runs a journey leaving in [after, before] rides (`daysBack`, `daysAhead`).
    static func days(_ t: Timetable, day: LocalDate, after: Int?, before: Int?) -> ClosedRange<Int> {
        -daysBack(t, day: day, after: after ?? 0)...daysAhead(t, day: day, before: before)
    }

    /// The answer the query asks for: every Pareto-optimal journey of the window by departure
    /// (the first `limit`); with `arriveBy`, those arriving by then, the latest to leave first;
    /// with `fastest`, those no other beats on both times; with `earliest`, the first to arrive.
    package func journeys() -> [Router.Journey] { journeys(limit: query.limit) }

    /// The same with another limit (the table asks for more where it hides some).
    package func journeys(limit: Int?) -> [Router.Journey] { answer(limit: limit).journeys }

    /// The journeys the query asks for with `limit`, the router that found them, and where the
    /// rider gave no bound on changes and the asked window had no journey within the default,
    /// how many changes those found needed (`raised`).
    package func answer(limit: Int?) -> (journeys: [Router.Journey], router: Router, changes: Int?) {
        let asked = answerAsAsked(limit: limit)
        if let raised = raised(asked.journeys, by: asked.router, limit: limit) { return raised }
        return (asked.journeys, asked.router, nil)
    }

    /// The journeys the query asks for with `limit`, and the router that found them (its
    /// schedule says their rides' calls). A journey leaving in the window rides any run of the
    /// days around it (`days`): after the last train, tomorrow's first. Where the window is from
    /// a time with no end (`goesOn`), the answer goes on into the next days' departures while it
    /// has fewer than asked: `limit` journeys, the earliest to arrive, or (without a limit) the
    /// rest of the day's, and when those hold none, the next day's, then the day after's.
    func answerAsAsked(limit: Int?) -> (journeys: [Router.Journey], router: Router) {
        // Without a limit, the rest of the day's departures first.
        let restOfTheDay = goesOn && limit == nil && !query.earliest
        let found = restOfTheDay ? router.restOfTheDay() : Self.journeys(router, query, window: window, limit: limit)
        // (A journey on foot is no ride, but where it beat the day's rides, it is the answer.)
        guard restOfTheDay, found.allSatisfy(\.isOnFoot), router.onFootTally.beaten.isEmpty, router.searchesAcrossDays else { return (found, router) }
        for days in 2...(Self.daysAhead + 1) {
            var part = router.query
            part.before = Int(DaysSchedule<DaySchedule>.shift(from: day, days: days, in: timetable.zone)) - 1
            let next = router.search(part)
            if !next.isEmpty { return (router.withOnFoot(router.walkingLeast(next, before: part.before)), router) }
        }
        return (found, router)
    }

    /// Whether the answer goes on into the next days' departures when the day's hold fewer than
    /// asked: a window from a time (given, or now) with no end, by departure or the earliest to
    /// arrive.
    package var goesOn: Bool { Self.goesOn(window, query) }

    private static func goesOn(_ window: ServiceWindow.Seconds, _ q: JourneyQuery) -> Bool {
        window.after != nil && window.before == nil && window.arriveBy == nil && !q.fastest && !q.wholeDay && q.reachMinutes == nil
    }

    /// Days after the query's whose departures an answer goes on into.
    static let daysAhead = 2

    /// The days after `day` whose runs a journey may ride: the next two where the window has no
    /// end but the day's (the whole day, the rest of it, an answer that goes on); where it has
    /// one (an arrival by `--arrive-by`, a reach), those whose runs leave in it. A window closed
    /// by `--before` rides the next two as well, those after its departures' days withheld
    /// (`Router.Query.withheldAfter`).
    static func daysAhead(_ t: Timetable, day: LocalDate, before: Int?) -> Int {
        guard let before else { return daysAhead }
        return (1...daysAhead).last { Int(DaysSchedule<DaySchedule>.shift(from: day, days: $0, in: t.zone)) <= before } ?? 0
    }

    /// The days before service day `day` whose runs are still out at `after` on its clock: none
    /// for a feed whose latest time is 25:30 from 01:30 on, one before (a Monday run at 76:00
    /// reaches Thursday); one more over several feeds in other zones (their times are moved by
    /// hours).
    static func daysBack(_ t: Timetable, day: LocalDate, after: Int) -> Int {
        let latest = Int(t.latestTime), margin = t.isCombination ? 1 : 0
        var back = 0
        while back < 6, latest + Int(DaysSchedule<DaySchedule>.shift(from: day, days: -(back + 1), in: t.zone)) >= after - margin * 86_400 { back += 1 }
        return min(6, back + margin)
    }

    static func journeys(_ router: Router, _ q: JourneyQuery, window: ServiceWindow.Seconds, limit: Int?) -> [Router.Journey] {
        if q.earliest { return router.earliest(count: limit ?? 1) }
        // `limit` alone lets the router stop early; a filter after it needs the whole window.
        guard window.arriveBy != nil || q.fastest else { return limit.map { router.journeys(limit: $0) } ?? router.journeys() }
        var journeys = router.journeys()
        // The journey on foot stays first, whatever the filters do to the rides; by a time, it
        // arrives then.
        var onFoot = journeys.first.flatMap { $0.isOnFoot ? $0 : nil }
        if onFoot != nil { journeys.removeFirst() }
        if q.fastest { journeys = fastest(journeys) }
        if let by = window.arriveBy {
            // A filter on the day's Pareto set: every journey arriving in time, the latest to leave first.
            journeys = journeys.filter { $0.arrival <= by }.reversed()
            if let walk = router.query.onFoot, onFoot != nil { onFoot = Router.journey(walk, leaving: by - walk.seconds) }
        }
        journeys = (onFoot.map { [$0] } ?? []) + journeys
        if let limit { journeys = Array(journeys.prefix(limit)) }
        return journeys
    }

    /// The Pareto set over departure and arrival only (`fastest`): a journey goes when another
    /// leaves no earlier and arrives no later; of equal ones, the one with fewer changes stays.
    package static func fastest(_ journeys: [Router.Journey]) -> [Router.Journey] {
        var kept: [Router.Journey] = []
        var earliestLater = Int.max
        // Latest departure first: a journey stays when it arrives before every later one does.
        for j in journeys.sorted(by: { ($0.departure, -$0.arrival, -$0.transfers) > ($1.departure, -$1.arrival, -$1.transfers) }) where j.arrival < earliestLater {
            kept.append(j)
            earliestLater = j.arrival
        }
        return kept.reversed()
    }

    /// The next `count` journeys leaving at or after `after`, over `updates` (a run hidden in them).
    package func later(after: Int, updates: TripUpdates, count: Int) -> [Router.Journey] {
        router(after: after, before: nil, updates: updates).journeys(limit: count)
    }

    /// The next `count` journeys from `stop` (named by its id, so that it walks as `--from` that
    /// stop would) to the destination, leaving at or after `after`, by the query's rules and the
    /// rider's needs (its vias left out: where the journey stands with them is another
    /// question), over `updates` (with a missed run hidden in them).
    package func onward(from stop: Int, after: Int, updates: TripUpdates, count: Int) throws(TransitError) -> [Router.Journey] {
        let t = timetable
        let from = try QueryEnds(t, from: .stop(t.stop(stop).id), to: query.to, radius: query.rules.radiusMeters, zone: query.zone, streets: ends.streets,
                                 walkingSpeed: needs.walking.speed)
        var needs = self.needs
        needs.vias = []
        return from.router(day: day.dayNumber, after: after, before: nil, rules: query.rules, needs: needs, updates: updates,
                           days: Self.days(t, day: day, after: after, before: nil)).journeys(limit: count)
    }

    /// Every stop reached within `minutes` of the window's start: by a ride, or on foot from the
    /// origin (its stops' walk, a point's radius).
    package func reach(minutes: Int) -> [(stop: Int, arrival: Int, rides: Int)] {
        let opens = window.after ?? 0, closes = opens + minutes * 60
        let router = query.reachMinutes == minutes ? self.router : router(after: opens, before: closes)
        return router.reach(by: closes).filter { $0.arrival <= closes }
    }

    /// What the answer cannot promise, said once: a feed that marks no trip step-free, what a
    /// step-free walk is measured on, route types no mode names.
    static func notices(_ needs: RiderNeeds, _ t: Timetable) -> [String] {
        var out: [String] = []
        if needs.wheelchair {
            if !t.marksStepFreeTrips {
                out.append("--wheelchair: the feed marks no trip wheelchair_accessible=1, so nothing can be promised step-free")
            }
            // Walks measured on a map at import carry their step-free meters (a query's longer
            // walks and a point's are measured on the same map's step-free network).
            out.append(!t.hasStepFreeWalks
                ? "--wheelchair: walks are straight lines at 0.8 m/s: without a map (gtfs import --streets) steps on the way cannot be avoided; pathways.txt is not read"
                : "--wheelchair: walks at 0.8 m/s on the map's streets without steps (a stop off the map keeps a straight line); pathways.txt (lifts and stairs inside stations) is not read")
        }
        if needs.modes != nil {
            let unnamed = Set((0..<t.routeCount).map { t.route($0).type }.filter { RouteMode(routeType: $0) == nil })
            if !unnamed.isEmpty {
                out.append("--modes: route types \(unnamed.sorted().map(String.init).joined(separator: ", ")) name no mode and are never ridden")
            }
        }
        return out
    }
}
