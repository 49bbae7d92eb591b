import Foundation
import TransitSupport

/// A query's ends as typed, resolved once (stop ids, codes, names, or `LAT,LON` and the stops
/// within a radius, reached on foot), and the clock the query is read on: `--tz`, else the zone
/// of the origin's feed. Journeys, reach and a board start here; nothing else resolves what the
/// user typed as an end.
package struct QueryEnds {
    /// The timetable on the query's clock.
    package let timetable: Timetable
    /// Each station's stops (the router reads them).
    package let children: StationChildren
    /// The origin: its stops, and the seconds on foot to each where it was a point.
    package let origin: End
    /// The destination (none for reach and a board); its stops never include an origin's
    /// where either end is a point (nobody rides to where they could have boarded).
    package let destination: End?
    /// The map's walking network the feed was imported with, when the query reads it (a point
    /// as an end, or walks longer than those stored).
    package let streets: StreetWalker?
    /// The stops each `--via` names (a station: its platforms), in order; never an end's.
    package let vias: [[Int]]
    /// The journey on foot between the ends, where they are within reach on foot of each other
    /// and the query asks for one (`Router.OnFoot`).
    package let onFoot: Router.OnFoot?

    /// An end as typed, read once (`JourneyQuery.Place`).
    package typealias Place = JourneyQuery.Place

    package struct End {
        /// What was typed.
        package var place: Place
        package var stops: [Int]
        /// Seconds on foot between the point and each stop; nil for stops named.
        package var walks: [Int: Int]?
        /// And meters.
        package var meters: [Int: Double]?
    }

    /// `radius`: meters around an end given as a point (`points`: a point is taken; a board's
    /// stop is a stop). `zone`: an IANA zone for the day and the window, over the origin's.
    /// `streets`: a map's walking network, on which the walks from and to a point are measured
    /// (and, by the router, changes on foot longer than those the feed stored). `walkingSpeed`:
    /// the rider's, at which a point's walks are timed, once.
    /// `walk`: `--walk`, a named end's reach on foot, where the query answers a journey on foot
    /// (nil: none); `map`: the map's walking network for it where `streets` is not read.
    package init(_ t: Timetable, from: Place, to: Place?, radius: Double = SearchDefaults.radiusMeters,
                 zone: String? = nil, points: Bool = true, streets: StreetWalker? = nil, vias: [String] = [],
                 walkingSpeed: Double = SearchDefaults.walkingSpeed, walk: Double? = nil,
                 map: (map: FeedMap, walking: RiderNeeds.Walking)? = nil) throws(TransitError) {
        let index = StopIndex(t)
        let pointWalks = streets.map { walker in { (point: Coordinate, stops: [(stop: Int, meters: Double)]) in walker.meters(from: point, to: stops, limit: radius * SearchDefaults.streetDetour, in: t) } }
        let origin: (stops: [Int], walks: [Int: Int]?, meters: [Int: Double]?) = points ? try index.end(from, radius: radius, speed: walkingSpeed, onFoot: pointWalks)
            : (try index.resolve(from.text), nil, nil)
        var destination = try to.map { place throws(TransitError) in
            let end = try index.end(place, radius: radius, speed: walkingSpeed, onFoot: pointWalks)
            return End(place: place, stops: end.stops, walks: end.walks, meters: end.meters)
        }
        var walkAlone: Router.OnFoot?
        if var end = destination {
            if let walk, walk > 0, vias.isEmpty {
                walkAlone = try Self.walkBetween(t, from, end.place, origin: origin.stops, destination: end.stops, walk: walk, radius: radius,
                                                 speed: walkingSpeed, streets: streets, map: map)
            }
            // Stops named alike are one place; two points whose stops are the same are walked between.
            if Set(origin.stops) == Set(end.stops) && (walkAlone == nil || (from.point == nil && end.place.point == nil)) {
                throw .usage(from.point == nil && end.place.point == nil ? "--from and --to are the same stop" : "every stop near --to is near --from too: walk")
            }
            if origin.walks != nil || end.walks != nil { end.stops.removeAll { origin.stops.contains($0) } }
            // (Where the journey on foot is the answer, it is the only one.)
            guard !end.stops.isEmpty || walkAlone != nil else { throw .usage("every stop near --to is near --from too: walk") }
            destination = end
        }
        onFoot = walkAlone
        // A via is a stop: never a point, never an end's stop, never another via's.
        var viaStops: [[Int]] = []
        for text in vias {
            let stops = try index.resolve(text)
            if !Set(stops).isDisjoint(with: origin.stops) { throw .usage("--via '\(text)' is the origin: a journey leaves it once") }
            if let end = destination, !Set(stops).isDisjoint(with: end.stops) { throw .usage("--via '\(text)' is the destination") }
            if let other = viaStops.firstIndex(where: { !Set($0).isDisjoint(with: stops) }) {
                throw .usage("--via '\(text)' is the same stop as --via '\(vias[other])'")
            }
            viaStops.append(stops)
        }
        self.vias = viaStops
        // Over feeds in several zones, the origin's feed's clock (a point: its nearest stop's).
        let first = origin.walks.flatMap { walks in walks.min { ($0.value, $0.key) < ($1.value, $1.key) }?.key } ?? origin.stops.first
        timetable = zone.map(t.onClock) ?? Self.onClock(ofStop: first, t)
        children = index.children
        self.streets = streets
        self.origin = End(place: from, stops: origin.stops, walks: origin.walks, meters: origin.meters)
        self.destination = destination
    }

    /// The journey on foot between the ends: within the larger of their reaches (`walk` for
    /// stops named, `radius` for a point) in a straight line, then on the map's streets where
    /// the feed has one (read only then).
    private static func walkBetween(_ t: Timetable, _ from: Place, _ to: Place, origin: [Int], destination: [Int], walk: Double, radius: Double,
                               speed: Double, streets: StreetWalker?, map: (map: FeedMap, walking: RiderNeeds.Walking)?) throws(TransitError) -> Router.OnFoot? {
        let a: Router.OnFoot.End = from.point.map { .point($0.at) } ?? .stops(origin)
        let b: Router.OnFoot.End = to.point.map { .point($0.at) } ?? .stops(destination)
        let reach = max(from.point == nil ? walk : radius, to.point == nil ? walk : radius)
        guard let straight = Router.OnFoot.between(a, b, reach: reach, walker: nil, speed: speed, in: t) else { return nil }
        var walker = streets
        if walker == nil, let map { walker = try map.map.walker(map.walking) }
        guard let walker else { return straight }
        return Router.OnFoot.between(a, b, reach: reach, walker: walker, speed: speed, in: t)
    }

    /// The one way a search is set up: the router between the ends on the service day `day`,
    /// leaving in [after, before], by `rules` and the rider's `needs` (their vias' stops found:
    /// `JourneySearch`), on the query's clock, with real-time data laid over it.
    package func router(day: Int, after: Int?, before: Int?, rules: JourneyQuery.Rules, needs: RiderNeeds = RiderNeeds(),
                        updates: TripUpdates? = nil, days: ClosedRange<Int> = 0...0, withheldAfter: Int? = nil, endsWithTheDay: Bool = false,
                        withOnFoot: Bool = false) -> Router {
        let query = routerQuery(day: day, after: after, before: before, rules: rules, needs: needs, days: days, withheldAfter: withheldAfter,
                                endsWithTheDay: endsWithTheDay, withOnFoot: withOnFoot)
        return Router(timetable, query, children: children, updates: updates, streets: streets)
    }

    /// The query `router` searches, before the router adds a named end's walked stops.
    package func routerQuery(day: Int, after: Int?, before: Int?, rules: JourneyQuery.Rules, needs: RiderNeeds = RiderNeeds(),
                             days: ClosedRange<Int> = 0...0, withheldAfter: Int? = nil, endsWithTheDay: Bool = false,
                             withOnFoot: Bool = false) -> Router.Query {
        var query = Router.Query(origins: origin.stops, destinations: destination?.stops ?? [], day: day, after: after, before: before,
                                 maxTransfers: rules.transfers, minTransfer: rules.minTransferSeconds, walkMeters: rules.walkMeters)
        query.linkMeters = rules.linkMeters
        // A point's walks, timed at the rider's pace when the ends were resolved.
        query.access = origin.walks ?? [:]
        query.egress = destination?.walks ?? [:]
        query.accessMeters = origin.meters ?? [:]
        query.egressMeters = destination?.meters ?? [:]
        // Stops named as ends are walked from and to, as a point's stops are (the router adds them).
        query.walksFromOrigins = origin.walks == nil
        query.walksToDestinations = destination.map { $0.walks == nil } ?? false
        query.needs = needs
        query.days = days
        query.withheldAfter = withheldAfter
        query.endsWithTheDay = endsWithTheDay
        if withOnFoot { query.onFoot = onFoot }
        return query
    }

    /// A combination on the clock of the feed `stop` belongs to (nil: the timetable's own). One
    /// feed keeps its clock; feeds that share one zone take it.
    private static func onClock(ofStop stop: Int?, _ t: Timetable) -> Timetable {
        guard t.isCombination else { return t }
        let zones = Set((0..<t.feedCount).map { t.feedZones[$0] })
        if zones.count == 1, let only = zones.first { return t.onClock(only) }
        return stop.map { t.onClock(t.feedZones[t.feed(ofStop: $0)]) } ?? t
    }
}

extension GTFSFeed {
    /// Whether the query reads the feed's map: an end given as a point, a change on foot longer
    /// than the walks stored at import, or walks drawn along the streets.
    package func needsStreets(_ q: JourneyQuery, destination: Bool = true) -> Bool {
        map != nil && (q.from.point != nil || (destination && q.to.point != nil) || q.rules.longestWalk > TimetableCombination.linkRadius || q.drawsWalks)
    }

    /// The query's ends, resolved once: the one place what a rider typed as an end or a via
    /// becomes stops (and a point's walks, on the map's streets for the rider's needs where the
    /// feed has a map), and the timetable is put on the query's clock. `destination` false: a
    /// question from one place (reach).
    package func ends(_ q: JourneyQuery, destination: Bool = true) throws(TransitError) -> QueryEnds {
        let streets = needsStreets(q, destination: destination) ? try map?.walker(q.needs.walking) : nil
        // A journey on foot (issue 65) where the query answers journeys between two ends.
        let walk = destination && q.reachMinutes == nil ? q.rules.walkMeters : nil
        let map = self.map.map { (map: $0, walking: q.needs.walking) }
        return try QueryEnds(timetable, from: q.from, to: destination ? q.to : nil, radius: q.rules.radiusMeters, zone: q.zone, streets: streets,
                             vias: q.vias.map(\.stop), walkingSpeed: q.needs.walking.speed, walk: walk, map: map)
    }

    /// A station board's stops: `stop` as typed (never a point), on the clock of its feed.
    package func boardStops(_ stop: String) throws(TransitError) -> QueryEnds {
        try QueryEnds(timetable, from: .stop(stop), to: nil, points: false)
    }
}
