import Foundation
@testable import TransitGTFS
@testable import TransitSupport

/// Every Pareto-optimal journey, found the slow and obvious way, on a `RandomFeed`'s own model.
/// It shares no code with the router: runs are expanded, changes decided and journeys
/// enumerated here from the rules as README states them.
///
/// For each departure time τ at the origin, rounds of rides: round k holds, for every run, the
/// earliest call at which it can be boarded by a journey of k rides leaving at τ (any later
/// call with drop-off allowed can end the ride); the earliest arrival at a destination after
/// exactly k rides is R(τ, k). Every journey (τ, a, k − 1 changes) is matched or beaten by the
/// candidate (τ, R(τ, k), k − 1), so the Pareto set of all journeys is the Pareto set of those
/// candidates. A journey leaves its origin once: it never alights at an origin stop. A change may
/// board any run, the one it left too (a loop's vehicle caught again after a via's stay).
struct ReferenceRouter {
    struct Run {
        var trip: Int
        var calls: [RandomFeed.Call]
    }

    struct Query {
        var origins: Set<Int>
        var destinations: Set<Int>
        var day: Int
        var after: Int?
        var before: Int?
        var maxTransfers: Int
        var minTransfer: Int
        var walkMeters: Double?
        /// Coordinates as the ends: seconds on foot from the point to each origin stop, and from
        /// each destination stop to the point (none: the stops themselves are the ends).
        var access: [Int: Int] = [:]
        var egress: [Int: Int] = [:]
        /// Those points, and the larger of their radii: the journey on foot between them.
        var points: Points?
        /// Over two feeds: stops of different feeds this close are linked.
        var linkMeters: Double = 300
        /// Stops as ends that walk: every stop a trip calls at within `walkMeters` on foot of a
        /// named origin (destination), other than the stops either end names, is an origin (a
        /// destination) too, with the walk from (to) the nearest as its access (egress).
        var walksFromOrigins = false
        var walksToDestinations = false
        var needs = Needs()
        /// The service days whose runs a journey may ride, as days after `day`, each day's runs
        /// on `day`'s clock (a later day's start is 86,400 s later, 3,600 less or more across a
        /// clock change).
        var days = 0...0
        /// The engine's way of searching some of `days` (`Router.Query.withheldAfter`): passed
        /// to the router, never read here (the answer is over all of `days`).
        var withheldAfter: Int?
    }

    struct Points {
        var from: (latitude: Double, longitude: Double)
        var to: (latitude: Double, longitude: Double)
        var reach: Double
    }

    /// A rider's needs, as the README states them (issue 46).
    struct Needs {
        var wheelchair = false
        var bike = false
        /// Route types whose unmarked trips take bikes, by their mode's name.
        var bikeModes: Set<String> = ["rail", "subway", "ferry"]
        var modes: Set<String>?
        /// Route indices never ridden.
        var avoid: Set<Int> = []
        var marginSeconds = 0
        var marginFactor = 1.0
        /// Stops (a station's platforms) called at in order, and the minutes stayed.
        var vias: [(stops: Set<Int>, stay: Int)] = []

        var speed: Double { wheelchair ? 0.8 : 1.2 }

        /// A change's usual time as the rider wants it.
        func margin(_ usual: Int) -> Int {
            marginSeconds == 0 && marginFactor == 1 ? usual : Int((Double(usual) * marginFactor).rounded(.up)) + marginSeconds
        }

        /// The mode of a route_type, as the issue lists the groups.
        static func mode(_ type: Int) -> String? {
            switch type {
            case 0, 900...999: "tram"
            case 1, 400...499: "subway"
            case 2, 100...199: "rail"
            case 3, 200...299, 700...799: "bus"
            case 4, 1000...1299: "ferry"
            case 5: "cable tram"
            case 6, 1300...1399: "aerial lift"
            case 7, 1400...1499: "funicular"
            case 11, 800...899: "trolleybus"
            case 12: "monorail"
            default: nil
            }
        }
    }

    struct Triple: Hashable, Comparable, CustomStringConvertible {
        var departure: Int
        var arrival: Int
        var transfers: Int

        static func < (a: Triple, b: Triple) -> Bool { (a.departure, a.arrival, a.transfers) < (b.departure, b.arrival, b.transfers) }
        var description: String { "\(Trip.clock(departure))-\(Trip.clock(arrival)) x\(transfers)" }
    }

    let feed: RandomFeed
    private(set) var query: Query
    var runs: [Run] = []
    /// Each station's platforms, and the changes already decided and the stops ranked nearest
    /// each: saved work, not other answers.
    let stations: [[Int]]
    struct ChangeKey: Hashable { var x, y, a, b: Int }
    struct RankKey: Hashable { var x: Int, radius: Double, ownFeed: Bool }
    final class Memo {
        var changes: [ChangeKey: Int?] = [:]
        var nearest: [RankKey: Set<Int>] = [:]
    }
    let memo = Memo()
    /// The journey on foot's seconds (issue 65): where both ends are stops named that walk, no
    /// via, and two of their stops are within `walkMeters` in a straight line, the nearest pair
    /// at the rider's pace, rounded up. It leaves at the window's start; a ride that the walk,
    /// leaving when the ride leaves, beats is no journey.
    let onFootSeconds: Int?

    init(_ feed: RandomFeed, _ query: Query) {
        self.feed = feed
        self.query = query
        onFootSeconds = Self.onFoot(feed, query)
        var stations: [[Int]] = feed.stops.map { _ in [] }
        for (k, stop) in feed.stops.enumerated() { if let p = stop.parent, stations.indices.contains(p) { stations[p].append(k) } }
        self.stations = stations
        self.query = walkedEnds(query)
        for offset in query.days {
            let moved = Self.dayStart(query.day + offset, zone: feed.zone) - Self.dayStart(query.day, zone: feed.zone)
            for (index, trip) in feed.trips.enumerated() where runsOn(feed.services[trip.service], query.day + offset) && rides(trip) {
                if trip.windows.isEmpty {
                    runs.append(Run(trip: index, calls: Self.moved(trip.calls, by: moved)))
                }
                for window in trip.windows {
                    var start = window.start
                    while start < window.end {
                        runs.append(Run(trip: index, calls: Self.moved(trip.calls, by: start - trip.calls[0].departure + moved)))
                        start += window.headway
                    }
                }
            }
        }
    }

    /// May the rider ride this trip: its route's mode asked for and not avoided; marked
    /// wheelchair_accessible=1 for a wheelchair; bikes_allowed=1, or unmarked on a bike mode.
    func rides(_ trip: RandomFeed.Trip) -> Bool {
        let n = query.needs
        let type = trip.route < feed.routeTypes.count ? feed.routeTypes[trip.route] : 3
        if n.avoid.contains(trip.route) { return false }
        if let modes = n.modes, !(Needs.mode(type).map(modes.contains) ?? false) { return false }
        if n.wheelchair && trip.wheelchair != 1 { return false }
        if n.bike && (trip.bikes == 2 || trip.bikes == 0 && !(Needs.mode(type).map(n.bikeModes.contains) ?? false)) { return false }
        return true
    }

    /// May the rider board and alight at `stop`: not with a wheelchair where it says 2 (a
    /// platform's unknown is its station's).
    ///
    /// This and the loops of `journeys` are written with `guard`s and commas rather than `&&`,
    /// `||` and `??` wherever a right side reads `self`: that side is a closure, and in the
    /// debug build the tests run in, forming it copies the whole router (its feed's every array
    /// retained and released) at every call. Half the national differential's time went so.
    func usable(_ stop: Int) -> Bool {
        guard query.needs.wheelchair else { return true }
        let own = feed.stops[stop].wheelchair
        if own != 0 { return own != 2 }
        guard let parent = feed.stops[stop].parent else { return true }
        return feed.stops[parent].wheelchair != 2
    }

    /// The via a stop is of, if it is the next one after `v` vias.
    func isVia(_ stop: Int, _ v: Int) -> Bool {
        guard v < query.needs.vias.count else { return false }
        return query.needs.vias[v].stops.contains(stop)
    }

    /// Calls `seconds` later.
    static func moved(_ calls: [RandomFeed.Call], by seconds: Int) -> [RandomFeed.Call] {
        calls.map { call in
            var c = call
            c.arrival += seconds
            c.departure += seconds
            return c
        }
    }

    /// The instant (seconds since 1970) service day `day` starts in `zone`: noon minus 12 hours,
    /// worked out with Foundation's calendar here, not the engine's clock.
    static func dayStart(_ day: Int, zone: String) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let date = LocalDate(dayNumber: day)
        let noon = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
        return Int(noon.timeIntervalSince1970) - 12 * 3600
    }

    func runsOn(_ s: RandomFeed.Service, _ day: Int) -> Bool {
        if s.removed.contains(day) { return false }
        if s.added.contains(day) { return true }
        guard let weekdays = s.weekdays, day >= s.start, day <= s.end else { return false }
        // 1970-01-01 was a Thursday; index 0 is Monday.
        return weekdays[((day % 7) + 10) % 7]
    }

    // MARK: walks at the ends

    /// The query with the stops walked to from its named ends added: a walk as a change on foot
    /// would take it (within a feed: the footpath or straight line, within the nearest kept;
    /// between feeds: the straight line), at most `walkMeters`, measured from the stop named;
    /// its seconds the meters at 1.2 m/s rounded up, with no margin.
    func walkedEnds(_ query: Query) -> Query {
        guard let walk = query.walkMeters, walk > 0 else { return query }
        let named = query.origins.union(query.destinations).union(query.needs.vias.flatMap(\.stops))
        let called = Set(feed.trips.flatMap { $0.calls.map(\.stop) })
        let reach = max(query.linkMeters, walk)
        func length(_ x: Int, _ y: Int) -> Double? {
            if feed.feed(of: x) != feed.feed(of: y) {
                return isNearEnough(x, y, reach: reach, ownFeed: false) ? meters(x, y) : nil
            }
            // Past the cap, the walks stored keep the stops of x's station and those a
            // transfers.txt row pairs it with (any type: a row decides a change, not a walk).
            let kept = reach <= 300 && meters(x, y) <= 300
                && (parent(x) != nil && parent(x) == parent(y) || feed.transfers.contains { $0.feed == feed.feed(of: x) && lists($0, x, y) })
            guard kept || isNearEnough(x, y, reach: reach, ownFeed: true) else { return nil }
            if let paths = feed.footpaths, feed.footpathFeeds.contains(feed.feed(of: x)), reach <= 300 { return paths[x]?[y] }
            return meters(x, y)
        }
        func walks(from ends: Set<Int>) -> [Int: Int] {
            var out: [Int: Int] = [:]
            for y in feed.stops.indices where !named.contains(y) && called.contains(y) {
                for x in ends {
                    guard let d = length(x, y), allows(walk, x, y, d) else { continue }
                    out[y] = min(out[y] ?? Int.max, Int((d / query.needs.speed).rounded(.up)))
                }
            }
            return out
        }
        var q = query
        if q.walksFromOrigins && q.access.isEmpty {
            q.access = walks(from: q.origins)
            q.origins.formUnion(q.access.keys)
        }
        if q.walksToDestinations && q.egress.isEmpty {
            q.egress = walks(from: q.destinations)
            q.destinations.formUnion(q.egress.keys)
        }
        return q
    }

    // MARK: changes

    func parent(_ stop: Int) -> Int? { feed.stops[stop].parent }

    /// A transfers.txt stop field names `stop`: the stop itself, or its station.
    func names(_ field: Int?, _ stop: Int) -> Bool { field == nil || field == stop || (field != nil && field == parent(stop)) }

    /// A row with both stops lists the pair (a station standing for its platforms).
    func lists(_ r: RandomFeed.Transfer, _ x: Int, _ y: Int) -> Bool {
        guard let from = r.fromStop, let to = r.toStop else { return false }
        func covers(_ field: Int, _ stop: Int) -> Bool { stations[field].isEmpty ? field == stop : parent(stop) == field }
        return covers(from, x) && covers(to, y)
    }

    func meters(_ x: Int, _ y: Int) -> Double { Self.meters(feed, x, y) }

    static func meters(_ feed: RandomFeed, _ x: Int, _ y: Int) -> Double {
        haversine((feed.stops[x].latitude, feed.stops[x].longitude), (feed.stops[y].latitude, feed.stops[y].longitude))
    }

    static func haversine(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let rad = Double.pi / 180
        let h = pow(sin((b.latitude - a.latitude) * rad / 2), 2)
            + cos(a.latitude * rad) * cos(b.latitude * rad) * pow(sin((b.longitude - a.longitude) * rad / 2), 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(h)))
    }

    /// The cap on walks (`TimetableCombination.maxWalksPerStop`): `y` is among the
    /// `feed.walkLimit` stops nearest `x` (ties by index) within the radius. Walks stored at
    /// compile time (a reach within 300 m) rank within 300 m, over `x`'s own feed for a walk
    /// within a feed (each feed's own were stored alone) and over every stop for a link; a longer
    /// reach ranks every stop within it.
    func isNearEnough(_ x: Int, _ y: Int, reach: Double, ownFeed: Bool) -> Bool {
        let stored = reach <= 300, radius = stored ? 300 : reach
        let key = RankKey(x: x, radius: radius, ownFeed: stored && ownFeed)
        if let nearest = memo.nearest[key] { return nearest.contains(y) }
        let ranked = feed.stops.indices.filter { z in
            z != x && (!(stored && ownFeed) || feed.feed(of: z) == feed.feed(of: x)) && meters(x, z) <= radius
        }.sorted { (meters(x, $0), $0) < (meters(x, $1), $1) }
        let nearest = Set(ranked.prefix(feed.walkLimit))
        memo.nearest[key] = nearest
        return nearest.contains(y)
    }

    /// Does a bound (`--walk`) allow the walk from `x` to `y` of `d` meters (a map's footpath, or
    /// the straight line)? The straight line within the bound, the walk within twice it.
    func allows(_ bound: Double, _ x: Int, _ y: Int, _ d: Double) -> Bool { meters(x, y) <= bound && d <= 2 * bound }

    /// How long a walk within a feed is: the footpath a map measured (none: no walk) when the
    /// feed has them and the query's walks and links stay within the 300 m they were stored
    /// for; else the straight line.
    func walkLength(_ x: Int, _ y: Int, walk: Double) -> Double? {
        guard isNearEnough(x, y, reach: max(walk, query.linkMeters), ownFeed: true) else { return nil }
        if let paths = feed.footpaths, feed.footpathFeeds.contains(feed.feed(of: x)), max(walk, query.linkMeters) <= 300 { return paths[x]?[y] }
        return meters(x, y)
    }

    /// Seconds a change from `x` (off trip `a`) to `y` (onto trip `b`) needs; nil: not allowed.
    func change(_ x: Int, _ y: Int, from a: Int, to b: Int) -> Int? {
        let key = ChangeKey(x: x, y: y, a: a, b: b)
        if let known = memo.changes[key] { return known }
        let seconds = decideChange(x, y, from: a, to: b)
        memo.changes[key] = .some(seconds)
        return seconds
    }

    func decideChange(_ x: Int, _ y: Int, from a: Int, to b: Int) -> Int? {
        // Between feeds: a link, or a walk, never a transfers.txt row.
        if feed.feed(of: x) != feed.feed(of: y) {
            let d = meters(x, y)
            guard d <= query.linkMeters || query.walkMeters.map({ d <= $0 }) == true,
                  isNearEnough(x, y, reach: max(query.linkMeters, query.walkMeters ?? 0), ownFeed: false) else { return nil }
            return query.needs.margin(query.minTransfer + Int((d / query.needs.speed).rounded(.up)))
        }
        let sameStation = parent(x) != nil && parent(x) == parent(y)
        if x == y || sameStation || feed.transfers.contains(where: { lists($0, x, y) }) {
            return decided(x, y, from: a, to: b).map(query.needs.margin)
        }
        if let walk = query.walkMeters, let d = walkLength(x, y, walk: walk), allows(walk, x, y, d),
           !feed.transfers.contains(where: { $0.type == 3 && $0.feed == feed.feed(of: x) && names($0.fromStop, x) && names($0.toStop, y) }) {
            return query.needs.margin(query.minTransfer + Int((d / query.needs.speed).rounded(.up)))
        }
        return nil
    }

    /// The most specific applying transfers.txt row decides: both trips; a trip and a route;
    /// one trip; both routes; one route; stops only. Then exact stops over stations; then the
    /// most restrictive (forbidden, else the longest). No row: `--min-transfer`.
    func decided(_ x: Int, _ y: Int, from a: Int, to b: Int) -> Int? {
        let routeA = feed.trips[a].route, routeB = feed.trips[b].route
        let applying = feed.transfers.filter { r in
            r.feed == feed.feed(of: x) && names(r.fromStop, x) && names(r.toStop, y)
                && (r.fromTrip == nil || r.fromTrip == a) && (r.toTrip == nil || r.toTrip == b)
                && (r.fromRoute == nil || r.fromRoute == routeA) && (r.toRoute == nil || r.toRoute == routeB)
        }
        func seconds(_ r: RandomFeed.Transfer) -> Int? {
            switch r.type {
            case 3: return nil
            case 2: return r.minTime ?? 0
            case 1: return 0
            default: return query.minTransfer
            }
        }
        func rank(_ r: RandomFeed.Transfer) -> Int {
            let trips = [r.fromTrip, r.toTrip].compactMap { $0 }.count, routes = [r.fromRoute, r.toRoute].compactMap { $0 }.count
            if trips == 2 { return 1 }
            if trips == 1 { return routes > 0 ? 2 : 3 }
            return routes == 2 ? 4 : routes == 1 ? 5 : 6
        }
        func exact(_ r: RandomFeed.Transfer) -> Int { (r.fromStop == x ? 1 : 0) + (r.toStop == y ? 1 : 0) }
        func restriction(_ r: RandomFeed.Transfer) -> Int { seconds(r) ?? Int.max }
        guard let best = applying.min(by: { p, q in
            (rank(p), -exact(p), -restriction(p)) < (rank(q), -exact(q), -restriction(q))
        }) else { return query.minTransfer }
        return seconds(best)
    }

    // MARK: journeys

    /// Across days, the window starts no earlier than the query's day does.
    func inWindow(_ t: Int) -> Bool {
        if let after = query.after, t < after { return false }
        if query.after == nil, query.days != 0...0, t < 0 { return false }
        if let before = query.before, t > before { return false }
        return true
    }

    func journeys() -> [Triple] {
        // A departure is when one leaves the origin: from a point, the walk to the stop before the run.
        func leave(_ call: RandomFeed.Call) -> Int { call.departure - (query.access[call.stop] ?? 0) }
        // Every call at an origin a run can be boarded at, and when one leaves for it.
        var starts: [(run: Int, call: Int, leave: Int)] = []
        // The rules of the loops below read from locals: `query`'s fields, read in a debug build,
        // copy the whole query at every read (see `usable`).
        let origins = query.origins, viaStops = query.needs.vias.map(\.stops)
        let usableStops = feed.stops.indices.map { self.usable($0) }
        func usable(_ stop: Int) -> Bool { usableStops[stop] }
        func isVia(_ stop: Int, _ v: Int) -> Bool { v < viaStops.count && viaStops[v].contains(stop) }
        for (r, run) in runs.enumerated() {
            for (b, call) in run.calls.enumerated().dropLast() where origins.contains(call.stop) && !call.noPickup {
                guard usable(call.stop) else { continue }
                starts.append((r, b, leave(call)))
            }
        }
        let departures = Set(starts.map(\.leave).filter(inWindow))
        let vias = query.needs.vias, n = vias.count
        // Every call a run can be boarded at (not its last), by its stop.
        var boardingsAt: [Int: [(run: Int, call: Int)]] = [:]
        for r in runs.indices {
            for (b, call) in runs[r].calls.enumerated().dropLast() where !call.noPickup {
                guard usable(call.stop) else { continue }
                boardingsAt[call.stop, default: []].append((r, b))
            }
        }
        // The stops a change from x can end at: the stop itself, its station's, a transfers.txt
        // row's pair, a walk or a link within its meters (a meter over, for a map's walk of the
        // same length). `change` refuses every other, so looking only here finds the same.
        let reach = max(query.walkMeters ?? 0, query.linkMeters) + 1
        var ends: [Int: [Int]] = [:]
        func changeEnds(_ x: Int) -> [Int] {
            if let known = ends[x] { return known }
            let station = parent(x)
            let found = boardingsAt.keys.filter { y in
                if y == x { return true }
                if let station, station == parent(y) { return true }
                if feed.transfers.contains(where: { lists($0, x, y) }) { return true }
                return meters(x, y) <= reach
            }
            ends[x] = found
            return found
        }
        // Where no transfers.txt row names a trip or a route, a change does not depend on the runs
        // either side: per (stop, vias) the earliest the rider can change on is all that counts,
        // whichever run brought them (one slot, trip 0 asked for the change).
        let tripBlind = feed.transfers.allSatisfy { $0.fromTrip == nil && $0.toTrip == nil && $0.fromRoute == nil && $0.toRoute == nil }
        var candidates: [Triple] = []
        for tau in departures {
            // Round 1: the runs leaving an origin at τ, no via called at yet. A key is (run, vias
            // called at); an alighting's (stop, vias called at).
            var boarded: [Int: Int] = [:]
            for (r, b, leave) in starts where leave == tau {
                boarded[r * 4] = min(boarded[r * 4] ?? b, b)
            }
            for k in 1...(query.maxTransfers + 1) {
                // Alight anywhere after the boarding: per (stop, vias, run) the earliest the rider
                // can change on, the arrival with the stay then made (at a via that asks for one).
                // Not the earliest arrival: a loop that calls at a via twice arrives there as the
                // stop, having stayed already, and as the via, to stay (seed 9300483 of the
                // differential over two feeds with needs lost a journey so).
                var alighted: [Int: [Int: (arrival: Int, stay: Int)]] = [:]
                for (key, b) in boarded {
                    let r = key / 4
                    var v = key % 4
                    // An origin stop may be alighted at as any other (issue 65: a stop walked to
                    // from the start may lie on the way, the journey walking on from it or
                    // changing there). With vias, as before: never alighted at.
                    for call in runs[r].calls[(b + 1)...] {
                        // Seated through a via without a stay, where the run picks up or sets down.
                        if isVia(call.stop, v) && vias[v].stay == 0 && (!call.noPickup || !call.noDropOff) { v += 1 }
                        guard !call.noDropOff, n == 0 || !origins.contains(call.stop), usable(call.stop) else { continue }
                        var w = v, stay = 0
                        if isVia(call.stop, v) && vias[v].stay > 0 { (w, stay) = (v + 1, vias[v].stay * 60) }
                        let at = call.stop * 4 + w, slot = tripBlind ? 0 : r
                        if alighted[at]?[slot].map({ $0.arrival + $0.stay > call.arrival + stay }) ?? true { alighted[at, default: [:]][slot] = (call.arrival, stay) }
                    }
                }
                let best = query.destinations.compactMap { d in alighted[d * 4 + n]?.values.map(\.arrival).min().map { $0 + (query.egress[d] ?? 0) } }.min()
                if let best { candidates.append(Triple(departure: tau, arrival: best, transfers: k - 1)) }
                if k == query.maxTransfers + 1 { break }
                // Change (a change that ends at the next via calls at it, and stays), then board another run.
                var next: [Int: Int] = [:]
                if tripBlind {
                    // The earliest the rider stands at y with v vias called at, changed from any
                    // alighting (the stay there made; a change takes no negative time, so never
                    // before the arrival), then every run boarded there from then on (after a stay
                    // where y is the next via).
                    var ready: [Int: Int] = [:]
                    for (at, byRun) in alighted {
                        guard let arrived = byRun[0] else { continue }
                        let x = at / 4, v = at % 4
                        for y in changeEnds(x) {
                            guard let need = change(x, y, from: 0, to: 0) else { continue }
                            ready[y * 4 + v] = min(ready[y * 4 + v] ?? Int.max, arrived.arrival + arrived.stay + need)
                        }
                    }
                    for (key, time) in ready {
                        let y = key / 4, v = key % 4
                        let (w, stay) = isVia(y, v) ? (v + 1, vias[v].stay * 60) : (v, 0)
                        for (r2, b) in boardingsAt[y] ?? [] where runs[r2].calls[b].departure >= time + stay && (next[r2 * 4 + w] ?? Int.max) > b {
                            next[r2 * 4 + w] = b
                        }
                    }
                    boarded = next
                    if boarded.isEmpty { break }
                    continue
                }
                for (at, byRun) in alighted {
                    let x = at / 4, v = at % 4
                    for (r, arrived) in byRun {
                        for (r2, b) in changeEnds(x).flatMap({ boardingsAt[$0] ?? [] }) {
                            let call = runs[r2].calls[b], y = call.stop
                            let (w, stay) = isVia(y, v) ? (v + 1, vias[v].stay * 60) : (v, 0)
                            guard (next[r2 * 4 + w] ?? Int.max) > b, call.departure >= arrived.arrival,
                                  let need = change(x, y, from: runs[r].trip, to: runs[r2].trip),
                                  call.departure >= arrived.arrival + arrived.stay + stay + need else { continue }
                            next[r2 * 4 + w] = b
                        }
                    }
                }
                boarded = next
                if boarded.isEmpty { break }
            }
        }
        return Self.pareto(candidates)
    }

    static func onFoot(_ feed: RandomFeed, _ q: Query) -> Int? {
        if let points = q.points {
            let d = haversine(points.from, points.to)
            return q.needs.vias.isEmpty && d <= points.reach ? Int((d / q.needs.speed).rounded(.up)) : nil
        }
        guard let walk = q.walkMeters, walk > 0, q.walksFromOrigins, q.walksToDestinations, q.access.isEmpty, q.egress.isEmpty,
              q.needs.vias.isEmpty else { return nil }
        let shortest = q.origins.flatMap { o in q.destinations.filter { $0 != o }.map { d in Self.meters(feed, o, d) } }.min()
        guard let shortest, shortest <= walk else { return nil }
        return Int((shortest / q.needs.speed).rounded(.up))
    }

    /// The answer whole: the journey on foot first, then the rides it does not beat.
    func answer() -> [Triple] {
        let rides = journeys()
        guard let walk = onFootSeconds else { return rides }
        let start = query.after ?? 0
        return [Triple(departure: start, arrival: start + walk, transfers: 0)] + rides.filter { $0.departure + walk >= $0.arrival }
    }

    // MARK: the same ride, walking least (issue 66)

    /// A journey's rides as this model has them: each ride's run, and its boarding and
    /// alighting calls (indices of the run's calls).
    struct Ridden {
        var run: Int
        var board: Int
        var alight: Int
    }

    /// Of the journeys that ride `rides`' runs and change at the same calls, arriving at
    /// `arrival`, the one walking least at the ends (ties: the later departure): when it leaves,
    /// and the seconds walked at its ends. The first run may be boarded at any call at an origin
    /// where the rider may board, leaving in the window; the last left at any call at a
    /// destination where the rider may alight, arriving then; through vias, neither moves past a
    /// call at a via's stop, and (as anywhere with vias) no origin is alighted at.
    func walkingLeast(_ rides: [Ridden], arrival: Int) -> (departure: Int, walk: Int)? {
        guard let first = rides.first, let last = rides.last else { return nil }
        let calls = runs[first.run].calls, lastCalls = runs[last.run].calls
        let viaStops = Set(query.needs.vias.flatMap(\.stops))
        func passes(_ calls: [RandomFeed.Call], _ range: ClosedRange<Int>) -> Bool { range.contains { viaStops.contains(calls[$0].stop) } }
        var best: (walk: Int, departure: Int)?
        for a in lastCalls.indices {
            let stop = lastCalls[a].stop, egress = query.egress[stop] ?? 0
            guard query.destinations.contains(stop), !lastCalls[a].noDropOff, usable(stop), lastCalls[a].arrival + egress == arrival,
                  viaStops.isEmpty || !query.origins.contains(stop) && (a >= last.alight || !passes(lastCalls, (a + 1)...last.alight)),
                  a > (rides.count == 1 ? 0 : last.board) else { continue }
            for b in calls.indices where b < (rides.count == 1 ? a : first.alight) {
                let stop = calls[b].stop, access = query.access[stop] ?? 0, leaves = calls[b].departure - access
                guard query.origins.contains(stop), !calls[b].noPickup, usable(stop), inWindow(leaves),
                      viaStops.isEmpty || b <= first.board || !passes(calls, (first.board + 1)...b) else { continue }
                if best.map({ (access + egress, -leaves) < ($0.walk, -$0.departure) }) ?? true { best = (access + egress, leaves) }
            }
        }
        return best.map { ($0.departure, $0.walk) }
    }

    static func pareto(_ all: [Triple]) -> [Triple] {
        let unique = Array(Set(all))
        return unique.filter { c in
            !unique.contains { o in o != c && o.departure >= c.departure && o.arrival <= c.arrival && o.transfers <= c.transfers }
        }.sorted()
    }
}
