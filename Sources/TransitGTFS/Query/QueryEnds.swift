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

    /// An end as typed, read once: a stop (an id, a code or a name), or a point `LAT,LON`.
    package enum Place: Sendable, Equatable {
        case stop(String)
        /// The point, and its text as typed.
        case point(Coordinate, text: String)

        package init(_ typed: String) {
            self = Coordinate(parsing: typed).map { .point($0, text: typed) } ?? .stop(typed)
        }

        package var point: (at: Coordinate, text: String)? {
            if case .point(let at, let text) = self { return (at, text) }
            return nil
        }

        /// What was typed.
        package var text: String {
            switch self {
            case .stop(let text), .point(_, let text): text
            }
        }
    }

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
    /// stop is a stop). `zone`: an IANA zone for `--date` and the window, over the origin's.
    /// `streets`: a map's walking network, on which the walks from and to a point are measured
    /// (and, by the router, changes on foot longer than those the feed stored).
    package init(_ t: Timetable, from: String, to: String? = nil, radius: Double = SearchDefaults.radiusMeters,
                 zone: String? = nil, points: Bool = true, streets: StreetWalker? = nil, vias: [String] = []) throws(TransitError) {
        try self.init(t, from: Place(from), to: to.map(Place.init), radius: radius, zone: zone, points: points, streets: streets, vias: vias)
    }

    /// The same, with the ends read already (`Place`).
    package init(_ t: Timetable, from: Place, to: Place?, radius: Double = SearchDefaults.radiusMeters,
                 zone: String? = nil, points: Bool = true, streets: StreetWalker? = nil, vias: [String] = []) throws(TransitError) {
        let index = StopIndex(t)
        let onFoot = streets.map { walker in { (point: Coordinate, stops: [(stop: Int, meters: Double)]) in walker.meters(from: point, to: stops, limit: radius * SearchDefaults.streetDetour, in: t) } }
        let origin: (stops: [Int], walks: [Int: Int]?, meters: [Int: Double]?) = points ? try index.end(from, radius: radius, onFoot: onFoot)
            : (try index.resolve(from.text), nil, nil)
        var destination = try to.map { place throws(TransitError) in
            let end = try index.end(place, radius: radius, onFoot: onFoot)
            return End(place: place, stops: end.stops, walks: end.walks, meters: end.meters)
        }
        if var end = destination {
            if Set(origin.stops) == Set(end.stops) { throw .usage("--from and --to are the same stops") }
            if origin.walks != nil || end.walks != nil { end.stops.removeAll { origin.stops.contains($0) } }
            guard !end.stops.isEmpty else { throw .usage("every stop near --to is near --from too: walk") }
            destination = end
        }
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

    /// The rules of a search between the ends, whatever its window: changes, walking, links.
    package struct Rules: Sendable, Equatable {
        package var transfers = SearchDefaults.transfers
        /// Seconds a change needs where transfers.txt does not say.
        package var minTransfer = SearchDefaults.minTransferSeconds
        /// Meters of a change on foot within a feed; nil: none.
        package var walk: Double? = SearchDefaults.walkMeters
        /// Meters of a change between feeds of a combination.
        package var link = SearchDefaults.linkMeters
        /// What the rider asks beyond the rules (its vias' stops are the ends' `vias`).
        package var needs = RiderNeeds()
        /// Seconds to stay at each via (0: staying seated is enough).
        package var viaStays: [Int] = []

        package init(transfers: Int = SearchDefaults.transfers, minTransfer: Int = SearchDefaults.minTransferSeconds,
                     walk: Double? = SearchDefaults.walkMeters, link: Double = SearchDefaults.linkMeters) {
            (self.transfers, self.minTransfer, self.walk, self.link) = (transfers, minTransfer, walk, link)
        }
    }

    /// The one way a search is set up: the router between the ends on the service day `day`,
    /// leaving in [after, before], by `rules`, on the query's clock, with real-time data laid
    /// over it. Journeys, reach and fares all start here.
    package func router(day: Int, after: Int?, before: Int?, rules: Rules, updates: TripUpdates? = nil) -> Router {
        Router(timetable, query(day: day, after: after, before: before, rules: rules), children: children, updates: updates, streets: streets)
    }

    /// The router's query between the ends.
    private func query(day: Int, after: Int?, before: Int?, rules: Rules) -> Router.Query {
        var query = Router.Query(origins: origin.stops, destinations: destination?.stops ?? [], day: day, after: after, before: before,
                                 maxTransfers: rules.transfers, minTransfer: rules.minTransfer, walkMeters: rules.walk)
        query.linkMeters = rules.link
        query.access = origin.walks ?? [:]
        query.egress = destination?.walks ?? [:]
        query.accessMeters = origin.meters ?? [:]
        query.egressMeters = destination?.meters ?? [:]
        // Stops named as ends are walked from and to, as a point's stops are (the router adds them).
        query.walksFromOrigins = origin.walks == nil
        query.walksToDestinations = destination.map { $0.walks == nil } ?? false
        query.needs = rules.needs
        query.needs.vias = vias.indices.map { RiderNeeds.Via(stops: vias[$0], staySeconds: $0 < rules.viaStays.count ? rules.viaStays[$0] : 0) }
        // A point's walks at the rider's pace (the ends measured them at 1.2 m/s).
        if rules.needs.walkingSpeed != SearchDefaults.walkingSpeed {
            for (stop, meters) in query.accessMeters { query.access[stop] = Int((meters / rules.needs.walkingSpeed).rounded(.up)) }
            for (stop, meters) in query.egressMeters { query.egress[stop] = Int((meters / rules.needs.walkingSpeed).rounded(.up)) }
        }
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
