import Foundation
import TransitSupport

/// A compiled GTFS feed for library users, and the one sequence `transit gtfs trips` runs too:
/// resolve the stops, pick the service day, ask the router.
public struct GTFSFeed: Sendable {
    package let timetable: Timetable

    package init(timetable: Timetable) {
        self.timetable = timetable
    }

    /// A feed imported under `cacheDirectory` (`transit gtfs import … --name NAME`).
    public static func imported(_ name: String, cacheDirectory: String) throws(TransitError) -> GTFSFeed {
        GTFSFeed(timetable: try FeedStore.load(FeedStore(cacheDirectory: cacheDirectory).path(of: name), named: name).1)
    }

    /// Several imported feeds searched as one (`--feed a --feed b`): ids written `feed:id`,
    /// stops of different feeds within `TripQuery.linkMeters` linked. Compiled on first use.
    public static func imported(_ names: [String], cacheDirectory: String) throws(TransitError) -> GTFSFeed {
        GTFSFeed(timetable: try FeedStore(cacheDirectory: cacheDirectory).resolve(names).1)
    }

    /// What a journey search asks: stops as a user types them (ids, codes or names), the
    /// service day, a window in seconds of that day, and the rules of changing.
    public struct TripQuery: Sendable {
        public var from: String
        public var to: String
        public var date: LocalDate
        public var after: Int?
        public var before: Int?
        public var transfers: Int
        public var minTransferSeconds: Int
        public var walkMeters: Double?
        /// Only the first `limit` journeys by departure (the search then covers only as much of
        /// the window as makes them certain).
        public var limit: Int?
        /// Only the journeys arriving first (`gtfs trips --earliest`): one, or `limit` of them,
        /// by arrival, then fewer changes, then the later departure.
        public var earliest = false
        /// Meters around an end given as `LAT,LON` within which every stop is a start (or an end).
        public var radius: Double
        /// Over several feeds: stops of different feeds this close are linked (a change of
        /// `minTransferSeconds` plus the walk).
        public var linkMeters: Double

        public init(from: String, to: String, date: LocalDate, after: Int? = nil, before: Int? = nil, transfers: Int = SearchDefaults.transfers,
                    minTransferSeconds: Int = SearchDefaults.minTransferSeconds, walkMeters: Double? = SearchDefaults.walkMeters, limit: Int? = nil,
                    radius: Double = SearchDefaults.radiusMeters, linkMeters: Double = SearchDefaults.linkMeters) {
            self.limit = limit
            self.linkMeters = linkMeters
            self.radius = radius
            self.from = from
            self.to = to
            self.date = date
            self.after = after
            self.before = before
            self.transfers = transfers
            self.minTransferSeconds = minTransferSeconds
            self.walkMeters = walkMeters
        }

        /// Its rules of changing, as the engine's search takes them.
        var rules: QueryEnds.Rules { QueryEnds.Rules(transfers: transfers, minTransfer: minTransferSeconds, walk: walkMeters, link: linkMeters) }
    }

    /// Every Pareto-optimal journey of the query, with its legs, on the clock of the origin's
    /// feed (`QueryEnds`).
    package func plan(_ q: TripQuery, realtime: Realtime? = nil) throws(TransitError) -> [Router.Journey] {
        try planned(q, realtime: realtime).journeys
    }

    /// The same, with the ends it resolved (their timetable on the query's clock) and the
    /// real-time data applied on that clock.
    package func planned(_ q: TripQuery, realtime: Realtime?) throws(TransitError) -> (ends: QueryEnds, updates: TripUpdates?, journeys: [Router.Journey]) {
        let ends = try QueryEnds(timetable, from: q.from, to: q.to, radius: q.radius)
        let updates = realtime?.updates(on: ends.timetable)
        let router = ends.router(day: q.date.dayNumber, after: q.after, before: q.before, rules: q.rules, updates: updates)
        let journeys = q.earliest ? router.earliest(count: q.limit ?? 1) : q.limit.map { router.journeys(limit: $0) } ?? router.journeys()
        try timetable.damage.refuse()
        return (ends, updates, journeys)
    }

    /// Every Pareto-optimal journey of the query, as (departure, arrival, transfers) in seconds
    /// of the service day (over several feeds, the day of the origin's feed, in its zone).
    public func journeys(_ q: TripQuery) throws(TransitError) -> [(departure: Int, arrival: Int, transfers: Int)] {
        try plan(q).map { ($0.departure, $0.arrival, $0.transfers) }
    }

    /// The same, with the defaults of `transit gtfs trips`.
    public func journeys(from: String, to: String, date: LocalDate, transfers: Int = SearchDefaults.transfers,
                         minTransferMinutes: Int = SearchDefaults.minTransferSeconds / 60,
                         after: Int? = nil, before: Int? = nil) throws(TransitError) -> [(departure: Int, arrival: Int, transfers: Int)] {
        try journeys(TripQuery(from: from, to: to, date: date, after: after, before: before, transfers: transfers,
                               minTransferSeconds: minTransferMinutes * 60))
    }
}
