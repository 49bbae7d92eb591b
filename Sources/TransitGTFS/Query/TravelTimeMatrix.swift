import Foundation
import TransitSupport

/// Many origins to many destinations over a window of departures, as percentiles: what
/// accessibility researchers ask (r5r's and r5py's `travel_time_matrix` with `time_window` and
/// `percentiles`), `transit gtfs matrix`'s question and the library's.
///
/// Each cell means what `gtfs trips --earliest` answers at each minute T, T+1, … of the window:
/// the earliest arrival at the destination leaving the origin then (walking to and from stops as
/// `trips` does, the journey on foot where it is faster), less the minute, in whole minutes
/// rounded down. A percentile p is the value at rank ⌈p/100 × window⌉ of those minutes sorted, a
/// minute with no arrival within `maxMinutes` counting as beyond it.
public struct TravelTimeQuery: Sendable, Equatable {
    /// A place of a points file: its id, and a stop or a point.
    public struct Point: Sendable, Equatable {
        public var id: String
        public var place: JourneyQuery.Place
        /// Where it was read (`points.csv line 4`), which an error about it names.
        public var source: String?
        /// What an opportunities file counts there (jobs, say); nil: not an opportunities file's.
        public var count: Double?

        public init(id: String, place: JourneyQuery.Place, source: String? = nil, count: Double? = nil) {
            (self.id, self.place, self.source, self.count) = (id, place, source, count)
        }
    }

    public var origins: [Point]
    public var destinations: [Point]
    /// The service day.
    public var day: JourneyQuery.Day = .inProgress
    /// The window's first minute (nil: now on today's service day, else the start of the day).
    public var after: ServiceTime?
    /// Towards a deadline instead (`after` nil): the window's minutes are arrival deadlines
    /// T−windowMinutes+1 … T, and a minute's time is the deadline less the latest departure
    /// from the origin that arrives by it (waiting at the destination counts).
    public var arriveBy: ServiceTime?
    /// Minutes of departures: T, T+1, … T+windowMinutes−1 (1 to 1440); with `arriveBy`, of deadlines.
    public var windowMinutes = 60
    /// Percentiles, 1 to 99, ascending, each once.
    public var percentiles = [50]
    /// A minute arriving later than this counts as beyond (1 to 1440).
    public var maxMinutes = 120
    /// What `now` and today are counted from.
    public var now = Date()
    /// An IANA zone the day and `after` are read in; nil: the zone of the first origin's feed.
    public var zone: String?
    /// Changes and walks, as given: never raised.
    public var rules = JourneyQuery.Rules()
    /// What the rider asks beyond the rules (vias are a journey's, not a matrix's).
    public var needs = RiderNeeds()

    public init(origins: [Point], destinations: [Point], day: JourneyQuery.Day = .inProgress, after: ServiceTime? = nil, windowMinutes: Int = 60,
                percentiles: [Int] = [50], maxMinutes: Int = 120, now: Date = Date(), rules: JourneyQuery.Rules = JourneyQuery.Rules(),
                needs: RiderNeeds = RiderNeeds()) {
        (self.origins, self.destinations, self.day, self.after, self.windowMinutes) = (origins, destinations, day, after, windowMinutes)
        (self.percentiles, self.maxMinutes, self.now, self.rules, self.needs) = (percentiles, maxMinutes, now, rules, needs)
    }

    public static let windowRange = 1...1440
    public static let maxMinutesRange = 1...1440
    public static let percentileRange = 1...99
}

/// One origin's row of a matrix: each destination reached within the maximum at some
/// percentile, with its minutes at each percentile (nil: beyond).
public struct TravelTimeRow: Sendable, Equatable {
    public let origin: Int
    public let cells: [(destination: Int, minutes: [Int?])]

    public static func == (a: TravelTimeRow, b: TravelTimeRow) -> Bool {
        a.origin == b.origin && a.cells.count == b.cells.count && zip(a.cells, b.cells).allSatisfy { $0.destination == $1.destination && $0.minutes == $1.minutes }
    }
}

extension GTFSFeed {
    /// A matrix set up: every point resolved and checked (an unknown stop, a point no file
    /// reads, is an error here, before any row), the window read on the clock of the first
    /// origin's feed (or `q.zone`). `realtime`: data laid over the timetable (none: as planned).
    public func travelTimeMatrix(_ q: TravelTimeQuery, realtime: Realtime? = nil) throws(TransitError) -> TravelTimeMatrix {
        try TravelTimeMatrix(self, q, updates: { realtime?.updates(on: $0) })
    }

    /// The same with trip updates already applied to this feed (the command line's sources).
    package func travelTimeMatrix(_ q: TravelTimeQuery, updates: TripUpdates?) throws(TransitError) -> TravelTimeMatrix {
        try TravelTimeMatrix(self, q, updates: { _ in updates })
    }
}

/// A travel-time matrix ready to be worked out, an origin at a time (`rows`): one range search
/// per origin over the window (`Router.byMinutes`), its labels read at each minute, each
/// destination's arrival the least over its stops of the label there plus the walk on.
public final class TravelTimeMatrix: @unchecked Sendable {
    public let query: TravelTimeQuery
    /// What the answer says of itself once (points reached on foot only, …).
    public let notices: [String]
    let origins: [MatrixEnd]
    let destinations: [MatrixEnd]
    /// The clock the window is read on, its minutes in seconds of `day` (departures, or with
    /// `arriving` deadlines), and the latest arrival searched.
    let minutes: [Int32]
    let cap: Int
    /// Towards deadlines (`TravelTimeQuery.arriveBy`).
    let arriving: Bool
    /// Per stop: its entries in `egressEntries` (the destinations it walks to), as offsets.
    let egressStart: [Int32]
    let egressEntries: [EgressEntry]
    /// What each worker's router is made from (nil: no point has a stop; every answer is on foot).
    let setup: RouterSetup?
    let feed: GTFSFeed

    struct EgressEntry {
        var destination: Int32
        var seconds: Int32
        /// A stop walked to from a named destination's stops (`Router.walkingEnds`), not one of them.
        var walked: Bool
    }

    struct RouterSetup {
        var timetable: Timetable
        var query: Router.Query
        var children: StationChildren
        var updates: TripUpdates?
    }

    init(_ feed: GTFSFeed, _ q: TravelTimeQuery, updates: (Timetable) -> TripUpdates?) throws(TransitError) {
        guard TravelTimeQuery.windowRange.contains(q.windowMinutes) else { throw .usage("the window is 1 to 1440 minutes") }
        guard TravelTimeQuery.maxMinutesRange.contains(q.maxMinutes) else { throw .usage("the maximum is 1 to 1440 minutes") }
        guard !q.percentiles.isEmpty, q.percentiles.allSatisfy(TravelTimeQuery.percentileRange.contains), q.percentiles == Array(Set(q.percentiles)).sorted()
        else { throw .usage("percentiles are 1 to 99, ascending, each once") }
        guard q.needs.vias.isEmpty else { throw .usage("a matrix takes no vias") }
        guard q.after == nil || q.arriveBy == nil else { throw .usage("--after and --arrive-by: a matrix leaves after a time or arrives by one, not both") }
        arriving = q.arriveBy != nil
        self.feed = feed
        query = q
        let t = feed.timetable
        let streets = feed.map != nil && (q.origins.contains { $0.place.point != nil } || q.destinations.contains { $0.place.point != nil })
            ? try feed.map?.walker(q.needs.walking) : nil
        let index = StopIndex(t)
        // The stops a vehicle calls at, in cells as wide as the radius: a point's are in the nine around it.
        let grid = StopGrid(t, cell: q.rules.radiusMeters, calledAtOnly: true)
        var walkingOnly = 0
        func resolve(_ points: [TravelTimeQuery.Point]) throws(TransitError) -> [MatrixEnd] {
            var out: [MatrixEnd] = []
            out.reserveCapacity(points.count)
            for point in points {
                do {
                    let end = try MatrixEnd(point.place, index, grid, radius: q.rules.radiusMeters, speed: q.needs.walking.speed, streets: streets)
                    if end.stops.isEmpty { walkingOnly += 1 }
                    out.append(end)
                } catch {
                    throw .usage((point.source ?? "'\(point.id)'") + ": " + error.message, hint: error.hint)
                }
            }
            return out
        }
        origins = try resolve(q.origins)
        destinations = try resolve(q.destinations)
        var notices: [String] = []
        if walkingOnly > 0 {
            let all = q.origins.count + q.destinations.count
            notices.append("\(walkingOnly) of \(all) points (origins and destinations) \(walkingOnly == 1 ? "has" : "have") no stop within \(Int(q.rules.radiusMeters)) m (--radius): reached and left on foot only")
        }
        // The window's clock and days, as a reach from the first end with a stop asks them: its
        // departures run to the window's last minute plus the maximum.
        let first = (origins + destinations).first { !$0.stops.isEmpty }
        var setup: RouterSetup?
        // `latest`: the last departure searched, and the last arrival (the cap).
        var start = 0, latest = 0, deadline = 0
        if let first {
            var jq = JourneyQuery(from: first.place, to: first.place, day: q.day, window: ServiceWindow(after: q.arriveBy ?? q.after), now: q.now, rules: q.rules, needs: q.needs)
            jq.zone = q.zone
            jq.reachMinutes = q.windowMinutes + q.maxMinutes
            // (An origin's ends do not depend on the window.)
            let ends = try feed.ends(jq, destination: false)
            if q.arriveBy != nil {
                // The last deadline on the clock (as --after reads a time), then the departures that
                // arrive by the first within the maximum: from its minute less the maximum on.
                deadline = try feed.search(jq, ends, updates: updates(ends.timetable)).window.after ?? 0
                let from = max(0, deadline - (q.windowMinutes - 1) * 60 - (q.maxMinutes + 1) * 60 + 1)
                jq.window = ServiceWindow(after: .asWritten(seconds: from))
                jq.reachMinutes = (deadline - from) / 60 + 1
            }
            let search = try feed.search(jq, ends, updates: updates(ends.timetable))
            let after = search.window.after ?? 0
            // Towards deadlines, nothing leaves or arrives after the last; else the departures run to
            // the window's last minute plus the maximum (a later one may still arrive first).
            start = q.arriveBy != nil ? deadline - (q.windowMinutes - 1) * 60 : after
            latest = q.arriveBy != nil ? deadline : after + (q.windowMinutes - 1) * 60 + (q.maxMinutes + 1) * 60 - 1
            var query = ends.routerQuery(day: search.day.dayNumber, after: after, before: latest, rules: q.rules,
                                         needs: search.needs, days: search.days)
            (query.origins, query.access, query.accessMeters) = ([], [:], [:])
            setup = RouterSetup(timetable: ends.timetable, query: query, children: ends.children, updates: search.router.realtime == nil ? nil : search.updates)
            notices += search.notices
        }
        self.setup = setup
        minutes = (0..<q.windowMinutes).map { Int32(clamping: start + $0 * 60) }
        cap = latest
        // Each destination's stops and the walks from them: a point's (as resolved), a named
        // stop's own (no walk) and those its walk reaches (as a named destination walks).
        var perStop: [Int: [EgressEntry]] = [:]
        let edges = setup.map { Router($0.timetable, $0.query, children: $0.children, streets: streets).edges }
        for (d, end) in destinations.enumerated() {
            if let walks = end.walks {
                for (stop, seconds) in walks { perStop[stop, default: []].append(EgressEntry(destination: Int32(d), seconds: Int32(clamping: seconds), walked: false)) }
                continue
            }
            for stop in end.stops { perStop[stop, default: []].append(EgressEntry(destination: Int32(d), seconds: 0, walked: false)) }
            guard let edges, var dq = setup?.query else { continue }
            (dq.destinations, dq.walksToDestinations, dq.walksFromOrigins) = (end.stops, true, false)
            for (stop, seconds) in Router.walkingEnds(dq, edges).egress {
                perStop[stop, default: []].append(EgressEntry(destination: Int32(d), seconds: Int32(clamping: seconds), walked: true))
            }
        }
        var starts = [Int32](repeating: 0, count: t.stopCount + 1), entries: [EgressEntry] = []
        for stop in 0..<t.stopCount {
            starts[stop] = Int32(entries.count)
            entries += perStop[stop] ?? []
        }
        starts[t.stopCount] = Int32(entries.count)
        (egressStart, egressEntries) = (starts, entries)
        self.notices = notices
    }

    public var originCount: Int { origins.count }
    public var destinationCount: Int { destinations.count }
}

/// An end of a matrix, resolved once: its stops, and a point's walks to them.
struct MatrixEnd {
    var place: JourneyQuery.Place
    var stops: [Int]
    /// Seconds on foot from the point to each stop (nil: stops named).
    var walks: [Int: Int]?
    var meters: [Int: Double]?
    /// Where it is: the point, or its stops (as the journey on foot measures from).
    var coordinates: [Coordinate] = []

    var isPoint: Bool { place.point != nil }

    /// `place` as `QueryEnds` resolves it; a point with no stop within `radius` has none.
    init(_ place: JourneyQuery.Place, _ index: StopIndex, _ grid: StopGrid, radius: Double, speed: Double, streets: StreetWalker?) throws(TransitError) {
        self.place = place
        let t = index.t
        guard let point = place.point else {
            (stops, walks, meters) = (try index.resolve(place.text), nil, nil)
            coordinates = stops.filter { $0 >= 0 && $0 < t.stopCount && !t.stopLat[$0].isNaN && !t.stopLon[$0].isNaN }.map { t.coordinate(ofStop: $0) }
            return
        }
        coordinates = [point.at]
        let pointWalks = streets.map { walker in { (at: Coordinate, stops: [(stop: Int, meters: Double)]) in walker.meters(from: at, to: stops, limit: radius * SearchDefaults.streetDetour, in: t) } }
        do {
            let end = try index.end(place, radius: radius, speed: speed, onFoot: pointWalks, near: { at in grid.near(at, t) })
            (stops, walks, meters) = (end.stops, end.walks, end.meters)
        } catch {
            // No stop within the radius (or every one farther on the streets than the detour allows).
            (stops, walks, meters) = ([], [:], [:])
        }
    }

    /// Whether two ends are the same place: one point, or the same stops named.
    func isSame(as other: MatrixEnd) -> Bool {
        switch (place.point, other.place.point) {
        case let (a?, b?): return a.at == b.at
        case (nil, nil): return Set(stops) == Set(other.stops)
        default: return false
        }
    }
}
