import Foundation
@testable import TransitGTFS
@testable import TransitSupport

/// One random feed, compiled, and queries asked of both the router and the reference.
struct DifferentialCase {
    let seed: UInt64
    let feed: RandomFeed
    let timetable: Timetable

    /// `walkLimit`: a cap on each stop's walks smaller than the compiler's, applied to the
    /// compiled feed as the compiler applies its own, on the feed drawn five times closer
    /// together (so that a random feed of nine stops meets it: most are then within 300 m).
    /// `lateRuns`: half the trips moved 6 to 20 hours later (times to 46:00), so that a
    /// day's runs go on far into the next (its own generator: the feed's other draws stay).
    init(seed: UInt64, walkLimit: Int? = nil, lateRuns: Bool = false) throws {
        self.seed = seed
        var feed = RandomFeed(seed: seed)
        if lateRuns {
            var g = SeededGenerator(seed: seed ^ 0x4C41_5445)
            for k in feed.trips.indices where g.chance(0.5) {
                let later = g.int(6 * 4...20 * 4) * 900
                feed.trips[k].calls = ReferenceRouter.moved(feed.trips[k].calls, by: later)
                for w in feed.trips[k].windows.indices {
                    feed.trips[k].windows[w].start += later
                    feed.trips[k].windows[w].end += later
                }
            }
        }
        if walkLimit != nil {
            for k in feed.stops.indices {
                feed.stops[k].latitude = 37 + (feed.stops[k].latitude - 37) / 5
                feed.stops[k].longitude = -122 + (feed.stops[k].longitude + 122) / 5
            }
        }
        let directory = Paths.temporary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try feed.write(to: directory)
        var timetable = try GTFSCompiler.compile(try FeedFiles.open(directory)).0
        if let walkLimit {
            TimetableCombination.findLinks(&timetable, limit: walkLimit)
            feed.walkLimit = walkLimit
        }
        Self.drawFootpaths(&feed, &timetable, seed: seed)
        self.feed = feed
        self.timetable = timetable
    }

    /// Half the feeds walk on "streets": each stored walk (a straight line within 300 m) made
    /// longer by up to 2.2 times (up to 600 m kept, as a map's), or dropped (a river, a wall), as
    /// `StreetFootpaths` stores what a map measured; the reference learns the same walks. Its own
    /// generator, so that the feed's other draws stay as they were.
    static func drawFootpaths(_ feed: inout RandomFeed, _ t: inout Timetable, seed: UInt64) {
        var g = SeededGenerator(seed: seed ^ 0x57_5245_4554)
        guard g.chance(0.5), t.linkStart.count == t.stopCount + 1 else { return }
        let index = Dictionary(uniqueKeysWithValues: feed.stops.enumerated().map { ($0.element.id, $0.offset) })
        var paths: [Int: [Int: Double]] = [:]
        let before = t
        t.storeWalks { x in
            before.storedWalks(x).compactMap { y, straight in
                let meters = straight * (1 + Double(g.int(0...120)) / 100)
                guard !g.chance(0.2), meters <= TimetableCombination.longestWalk,
                      let rx = index[before.stopIDs[x]], let ry = index[before.stopIDs[Int(y)]] else { return nil }
                paths[rx, default: [:]][ry] = meters
                return (y, meters)
            }
        }
        feed.footpaths = paths
        feed.footpathFeeds = [0]
    }

    /// Two random feeds (seeds `seed` and `seed + 1 << 32`) each compiled alone, then combined as
    /// `--feed one --feed two` combines them; the reference reads their union (`RandomFeed.pair`).
    init(pairSeed seed: UInt64) throws {
        self.seed = seed
        var parts = [("one", RandomFeed(seed: seed)), ("two", RandomFeed(seed: seed &+ 1 << 32))]
        var compiled: [(String, Timetable)] = []
        for k in parts.indices {
            let directory = Paths.temporary()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try parts[k].1.write(to: directory)
            var t = try GTFSCompiler.compile(try FeedFiles.open(directory)).0
            Self.drawFootpaths(&parts[k].1, &t, seed: seed &+ UInt64(k))
            compiled.append((parts[k].0, t))
        }
        feed = RandomFeed.pair(parts)
        timetable = try TimetableCombination.combine(compiled)
    }

    /// A random query on this feed: a stop or a station at each end, a day, sometimes a window,
    /// a change limit, a change time and walking (at the ends too, as named ends walk).
    func query(_ g: inout SeededGenerator) -> ReferenceRouter.Query {
        func place() -> Set<Int> {
            let stop = g.int(0...feed.stops.count - 1)
            return feed.stops[stop].isStation ? Set(feed.children(stop)) : [stop]
        }
        let origins = place()
        var destinations = place()
        var tries = 0
        // Over two feeds, mostly from one feed to the other.
        let across = !feed.parts.isEmpty && g.chance(0.7)
        while (!destinations.isDisjoint(with: origins) || across && origins.contains { o in destinations.contains { feed.feed(of: $0) == feed.feed(of: o) } })
                && tries < 20 {
            destinations = place()
            tries += 1
        }
        var after: Int?, before: Int?
        if g.chance(0.4) { after = g.int(5 * 12...24 * 12) * 300 }
        if g.chance(0.3) { before = (after ?? 5 * 3600) + g.int(1...12) * 1800 }
        return ReferenceRouter.Query(origins: origins, destinations: destinations.subtracting(origins),
                                     day: RandomFeed.days[g.int(0...RandomFeed.days.count - 1)], after: after, before: before,
                                     maxTransfers: g.int(0...3), minTransfer: [0, 60, 120, 300][g.int(0...3)],
                                     walkMeters: g.chance(0.5) ? [100, 200, 300, 300, 300, 400, 800, 1600][g.int(0...7)] : nil,
                                     linkMeters: feed.parts.isEmpty ? 300 : [1, 150, 300, 800, 1500, 3000][g.int(0...5)],
                                     walksFromOrigins: true, walksToDestinations: true)
    }

    /// Rider's needs drawn at random into `q` (issue 46): each option now and then, vias among
    /// the stops and stations neither end names, in order, disjoint.
    func drawNeeds(_ q: inout ReferenceRouter.Query, _ g: inout SeededGenerator) {
        var n = ReferenceRouter.Needs()
        n.wheelchair = g.chance(0.3)
        n.bike = g.chance(0.25)
        if n.bike && g.chance(0.5) { n.bikeModes = Set(["rail", "subway", "ferry", "bus", "tram"].filter { _ in g.chance(0.5) }) }
        if g.chance(0.3) {
            let present = Set(feed.routeTypes.compactMap(ReferenceRouter.Needs.mode))
            n.modes = Set((present.sorted() + ["monorail"]).filter { _ in g.chance(0.6) })
        }
        if g.chance(0.25), !feed.routes.isEmpty { n.avoid = [g.int(0...feed.routes.count - 1)] }
        if g.chance(0.3) {
            n.marginSeconds = [0, 60, 120, 300][g.int(0...3)]
            n.marginFactor = [1, 1, 1.5, 2][g.int(0...3)]
        }
        // Vias mostly alone: with the filters above most feeds of nine stops keep no journey through one.
        if g.chance(0.5) {
            if g.chance(0.7) { (n.wheelchair, n.bike, n.modes) = (false, false, nil) }
            var taken = q.origins.union(q.destinations)
            for _ in 0..<g.int(1...2) {
                let stop = g.int(0...feed.stops.count - 1)
                let stops = feed.stops[stop].isStation ? Set(feed.children(stop)) : [stop]
                guard !stops.isEmpty, stops.isDisjoint(with: taken) else { continue }
                taken.formUnion(stops)
                n.vias.append((stops, [0, 0, 5, 10][g.int(0...3)]))
            }
        }
        q.needs = n
    }

    /// The query as `transit gtfs trips` takes it over the feed written to `feed` (nil where the
    /// ends are no stop or station the command can name: an end less the other's stops).
    func commandLine(_ q: ReferenceRouter.Query, feed directory: String) -> String? {
        func name(_ stops: Set<Int>) -> String? {
            if stops.count == 1, let stop = stops.first { return feed.stops[stop].id }
            guard let station = stops.first.flatMap({ feed.stops[$0].parent }), Set(feed.children(station)) == stops else { return nil }
            return feed.stops[station].id
        }
        guard feed.parts.isEmpty, let from = name(q.origins), let to = name(q.destinations) else { return nil }
        func clock(_ s: Int) -> String { String(format: "%02d:%02d", s / 3600, s / 60 % 60) }
        var words = ["transit", "gtfs", "trips", "--feed", directory, "--from", from, "--to", to, "--date", LocalDate(dayNumber: q.day).iso,
                     "--transfers", String(q.maxTransfers), "--min-transfer", String(q.minTransfer / 60), "--format", "json"]
        if let after = q.after { words += ["--after", clock(after)] }
        if let before = q.before { words += ["--before", clock(before)] }
        words += ["--walk", String(Int(q.walkMeters ?? 0))]
        return words.joined(separator: " ")
    }

    /// A sweep's answer for one query: the journeys compared, and nil, or what differs in words.
    func outcome(_ q: ReferenceRouter.Query, expected: [ReferenceRouter.Triple], got: [ReferenceRouter.Triple],
                 problems: [String]) -> (compared: Int, difference: String?) {
        guard got != expected || !problems.isEmpty else { return (expected.count, nil) }
        let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
        return (expected.count, "query \(q.describe(feed)): missing \(missing), extra \(extra), problems \(problems)")
    }

    func stopIndex(_ id: String) -> Int? { (0..<timetable.stopCount).first { timetable.stopIDs[$0] == id } }

    /// The reference's query as the router takes it: stops by the compiled timetable's indices.
    func routerQuery(_ q: ReferenceRouter.Query) -> Router.Query {
        let origins = q.origins.compactMap { stopIndex(feed.stops[$0].id) }, destinations = q.destinations.compactMap { stopIndex(feed.stops[$0].id) }
        var query = Router.Query(origins: origins.sorted(), destinations: destinations.sorted(), day: q.day, after: q.after, before: q.before,
                                 maxTransfers: q.maxTransfers, minTransfer: q.minTransfer, walkMeters: q.walkMeters)
        query.linkMeters = q.linkMeters
        query.days = q.days
        query.withheldAfter = q.withheldAfter
        (query.walksFromOrigins, query.walksToDestinations) = (q.walksFromOrigins, q.walksToDestinations)
        for (stop, seconds) in q.access { if let i = stopIndex(feed.stops[stop].id) { query.access[i] = seconds } }
        for (stop, seconds) in q.egress { if let i = stopIndex(feed.stops[stop].id) { query.egress[i] = seconds } }
        let n = q.needs
        query.needs.wheelchair = n.wheelchair
        query.needs.bike = n.bike
        query.needs.bikeModes = Set(n.bikeModes.compactMap { RouteMode(rawValue: $0) })
        query.needs.modes = n.modes.map { Set($0.compactMap { RouteMode(rawValue: $0) }) }
        query.needs.avoidRoutes = Set(n.avoid.compactMap { r in (0..<timetable.routeCount).first { timetable.routeIDs[$0] == feed.routes[r] } })
        query.needs.margin = RiderNeeds.ChangeMargin(seconds: n.marginSeconds, factor: n.marginFactor)
        query.needs.vias = n.vias.map { RiderNeeds.Via(stops: $0.stops.compactMap { stopIndex(feed.stops[$0].id) }.sorted(), staySeconds: $0.stay * 60) }
        // Stops named at both ends, walking, no via: the journey on foot, as `QueryEnds` finds it
        // between stops named (straight lines: no map here).
        if let points = q.points, n.vias.isEmpty {
            let at = { (p: (latitude: Double, longitude: Double)) in Router.OnFoot.End.point(Coordinate(latitude: p.latitude, longitude: p.longitude)) }
            query.onFoot = Router.OnFoot.between(at(points.from), at(points.to), reach: points.reach, walker: nil, speed: query.needs.walkingSpeed, in: timetable)
        } else if let walk = q.walkMeters, walk > 0, q.walksFromOrigins, q.walksToDestinations, q.access.isEmpty, q.egress.isEmpty, n.vias.isEmpty {
            query.onFoot = Router.OnFoot.between(.stops(origins), .stops(destinations), reach: walk, walker: nil, speed: query.needs.walkingSpeed, in: timetable)
        }
        return query
    }

    /// The router's answer as triples, and every way a journey it gave breaks the rules.
    /// With `updates`, the router plans on realtime data, and `reference` must be the reference
    /// with the same changes made to its runs.
    /// The triples are of the Pareto set as the search finds it (`Router.Query.walksLeast`
    /// false: the reference's `answer()`); the answer a rider gets, each journey the same ride
    /// walking least, is checked against the reference's own rule (`checkWalkingLeast`).
    func routed(_ q: ReferenceRouter.Query, updates: TripUpdates? = nil, reference given: ReferenceRouter? = nil) -> (triples: [ReferenceRouter.Triple], problems: [String]) {
        var asked = routerQuery(q)
        asked.walksLeast = false
        let router = Router(timetable, asked, updates: updates)
        let found = router.journeys()
        var problems: [String] = []
        // The first N alone, searched as far as makes them certain, are the first N of the whole.
        // (Compared as triples: an equally good journey may take other legs.)
        func triples(_ journeys: [Router.Journey]) -> [[Int]] { journeys.map { [$0.departure, $0.arrival, $0.transfers] } }
        for limit in [1, 3] where triples(router.journeys(limit: limit)) != triples(Array(found.prefix(limit))) {
            problems.append("--limit \(limit) differs from the first \(limit) of the whole answer")
        }
        // --earliest: the first to arrive (fewest changes, then the latest to leave), found
        // without the whole window, are the first of the whole answer in that order.
        let byArrival = found.sorted { ($0.arrival, $0.transfers, -$0.departure) < ($1.arrival, $1.transfers, -$1.departure) }
        for count in [1, 3] where triples(router.earliest(count: count)) != triples(Array(byArrival.prefix(count))) {
            problems.append("--earliest --limit \(count) differs from the first \(count) to arrive of the whole answer")
        }
        // Its one RAPTOR search, on its own: a wrong first arrival would only slow the above.
        // (Of the rides: the journey on foot is no label; the rides it beats are not in the answer.)
        let raptor = router.earliestArrival(router.query), rides = byArrival.filter { !$0.isOnFoot }
        if let walk = router.query.onFoot, let raptor, rides.first.map({ $0.arrival > raptor.arrival }) ?? true {
            // The first ride to arrive was beaten by the walk: the walk arrives before it.
            if raptor.arrival <= (router.query.after ?? 0) + walk.seconds { problems.append("the earliest ride \(raptor) arrives before the walk yet is left out") }
        } else if raptor?.arrival != rides.first?.arrival || (raptor.map { $0.departure > (rides.first?.departure ?? .min) } ?? false) {
            problems.append("the earliest arrival and departure \(raptor.map { "\($0)" } ?? "none") are not the whole answer's first's")
        }
        // On the import's graph of least hops (where the day's graph would be built): the same
        // answer, and the same first to arrive (its capped tries).
        var onGraph = asked
        onGraph.graphBoundsFirst = true
        let graphRouter = Router(timetable, onGraph, updates: updates)
        if triples(graphRouter.journeys()) != triples(found) { problems.append("the answer on the graph's bounds differs") }
        if triples(graphRouter.earliest(count: 1)) != triples(Array(byArrival.prefix(1))) { problems.append("--earliest on the graph's bounds differs") }
        let reference = given ?? ReferenceRouter(feed, q)
        var triples: [ReferenceRouter.Triple] = []
        for (k, journey) in found.enumerated() {
            triples.append(.init(departure: journey.departure, arrival: journey.arrival, transfers: journey.transfers))
            if let problem = journey.isOnFoot ? checkOnFoot(journey, first: k == 0, reference) : check(journey, reference) {
                problems.append("\(triples.last.map(\.description) ?? ""): \(problem)")
            }
        }
        return (triples, problems + checkWalkingLeast(router.search(router.query), Router(timetable, routerQuery(q), updates: updates), reference))
    }

    /// Whether the rider's answer (`walking`'s, `Query.walksLeast`) is `rides` (the rides of the
    /// Pareto set the search found, before the journey on foot beat any), each as the reference
    /// makes it the same ride walking least (`ReferenceRouter.walkingLeast`), with the journey
    /// on foot laid beside them as `answer()` lays it: when each leaves, arrives, changes, and
    /// the seconds walked at its ends.
    func checkWalkingLeast(_ rides: [Router.Journey], _ walking: Router, _ reference: ReferenceRouter) -> [String] {
        var expected: [[Int]] = []
        for journey in rides {
            guard case .rides(let ridden) = referenceRides(journey, reference),
                  let least = reference.walkingLeast(ridden.map { .init(run: $0.run, board: $0.board, alight: $0.alight) }, arrival: journey.arrival) else {
                return ["\(journey.departure)-\(journey.arrival): not the reference's rides, or none of them walks"]
            }
            expected.append([least.departure, journey.arrival, journey.transfers, least.walk])
        }
        if let walk = reference.onFootSeconds {
            let start = reference.query.after ?? 0
            expected = [[start, start + walk, 0, walk]] + expected.filter { $0[0] + walk >= $0[1] }
        }
        expected = Array(Set(expected.map { Array($0.prefix(3)) })).sorted { $0.lexicographicallyPrecedes($1) }.map { triple in
            expected.filter { Array($0.prefix(3)) == triple }.map { $0[3] }.min().map { triple + [$0] } ?? triple
        }
        var problems: [String] = []
        let got = walking.journeys()
        for journey in got where !journey.isOnFoot {
            if let problem = check(journey, reference) { problems.append("walking least, \(journey.departure)-\(journey.arrival): \(problem)") }
        }
        let gotRows = got.map { j in
            let rides = j.legs.filter(\.isRide)
            let walk = j.isOnFoot ? j.arrival - j.departure
                : (rides.first.map { $0.departure.predicted - j.departure } ?? 0) + (rides.last.map { j.arrival - $0.arrival.predicted } ?? 0)
            return [j.departure, j.arrival, j.transfers, walk]
        }.sorted { $0.lexicographicallyPrecedes($1) }
        if gotRows != expected { problems.append("walking least: \(gotRows), the reference's \(expected)") }
        return problems
    }

    /// Whether a journey on foot the router gave is the reference's: first, one walk from a
    /// named origin to a named destination, leaving at the window's start, its seconds the
    /// reference's.
    func checkOnFoot(_ journey: Router.Journey, first: Bool, _ reference: ReferenceRouter) -> String? {
        guard first, let leg = journey.legs.first, journey.legs.count == 1, case .walk = leg.mode else { return "a journey on foot not first, or not one walk" }
        guard let seconds = reference.onFootSeconds else { return "a journey on foot where the reference has none" }
        let start = reference.query.after ?? 0
        guard journey.departure == start, journey.arrival == start + seconds, journey.transfers == 0 else {
            return "a journey on foot of \(journey.arrival - journey.departure) s leaving at \(journey.departure), the reference's \(seconds) s"
        }
        // Between points: from the one to the other; between stops named: the pair walked is that long.
        if reference.query.points != nil { return leg.from == -1 && leg.to == -1 ? nil : "a journey on foot between points from or to a stop" }
        func stop(_ index: Int) -> Int? { feed.stops.firstIndex { $0.id == timetable.stopIDs[index] } }
        guard leg.from >= 0, leg.to >= 0, let from = stop(leg.from), let to = stop(leg.to) else { return "a journey on foot from or to no stop" }
        guard Int((reference.meters(from, to) / reference.query.needs.speed).rounded(.up)) == seconds else {
            return "a journey on foot from \(feed.stops[from].id) to \(feed.stops[to].id) is not the reference's \(seconds) s"
        }
        return nil
    }

    /// Whether a journey the router gave can be ridden under the reference's rules.
    /// A ride of a journey the router gave, as the reference's model has it.
    struct ReferenceRide {
        var run: Int, from: Int, to: Int, departure: Int, arrival: Int
        /// Its boarding and alighting calls, indices of the run's calls.
        var board: Int, alight: Int
    }

    enum ReferenceRides {
        case rides([ReferenceRide])
        case broken(String)
    }

    /// The journey's rides on the reference's runs, or why a ride is none of them.
    func referenceRides(_ journey: Router.Journey, _ reference: ReferenceRouter) -> ReferenceRides {
        let t = timetable
        func stop(_ index: Int) -> Int? { feed.stops.firstIndex { $0.id == t.stopIDs[index] } }
        var rides: [ReferenceRide] = []
        for leg in journey.legs {
            guard let trip = leg.trip else { continue }
            let fromIndex = leg.from, toIndex = leg.to, departure = leg.departure.predicted, arrival = leg.arrival.predicted
            guard let from = stop(fromIndex), let to = stop(toIndex), let tripIndex = feed.trips.firstIndex(where: { $0.id == t.tripIDs[trip] }) else {
                return .broken("a leg names what the feed does not have")
            }
            var found: ReferenceRide?
            for r in reference.runs.indices where found == nil && reference.runs[r].trip == tripIndex {
                let calls = reference.runs[r].calls
                for b in calls.indices where found == nil && calls[b].stop == from && calls[b].departure == departure && !calls[b].noPickup {
                    if let c = calls.indices.first(where: { $0 > b && calls[$0].stop == to && calls[$0].arrival == arrival && !calls[$0].noDropOff }) {
                        found = ReferenceRide(run: r, from: from, to: to, departure: departure, arrival: arrival, board: b, alight: c)
                    }
                }
            }
            guard let found else { return .broken("no run the rider may take of \(t.tripIDs[trip]) goes \(t.stopIDs[fromIndex]) \(departure) → \(t.stopIDs[toIndex]) \(arrival)") }
            guard reference.usable(from), reference.usable(to) else { return .broken("boards or alights where the rider cannot") }
            rides.append(found)
        }
        return .rides(rides)
    }

    func check(_ journey: Router.Journey, _ reference: ReferenceRouter) -> String? {
        let q = reference.query
        let rides: [ReferenceRide]
        switch referenceRides(journey, reference) {
        case .rides(let found): rides = found
        case .broken(let why): return why
        }
        guard let first = rides.first, let last = rides.last else { return "no ride" }
        // From and to a point: the walks at the ends.
        let leaves = first.departure - (q.access[first.from] ?? 0), arrives = last.arrival + (q.egress[last.to] ?? 0)
        guard q.origins.contains(first.from), reference.inWindow(leaves) else { return "does not leave an origin in the window" }
        guard q.destinations.contains(last.to) else { return "does not reach a destination" }
        guard journey.departure == leaves, journey.arrival == arrives, journey.transfers == rides.count - 1,
              rides.count <= q.maxTransfers + 1 else { return "its times or changes are not its legs'" }
        // The vias, called at in order: seated through one without a stay, alighting at one with a
        // stay (which the next change waits out), or a change that ends at one.
        let vias = q.needs.vias
        var v = 0, stay = 0
        for (k, ride) in rides.enumerated() {
            if k > 0 {
                let a = rides[k - 1]
                var extra = stay
                stay = 0
                if reference.isVia(ride.from, v) { extra += vias[v].stay * 60; v += 1 }
                guard let need = reference.change(a.to, ride.from, from: reference.runs[a.run].trip, to: reference.runs[ride.run].trip) else {
                    return "the change \(feed.stops[a.to].id) → \(feed.stops[ride.from].id) is not allowed"
                }
                guard ride.departure >= a.arrival + need + extra else { return "the change at \(feed.stops[a.to].id) needs \(need) s and \(extra) s of stay" }
            }
            let calls = reference.runs[ride.run].calls, c = ride.alight
            for p in (ride.board + 1)...c where reference.isVia(calls[p].stop, v) {
                if vias[v].stay == 0 && (!calls[p].noPickup || !calls[p].noDropOff) {
                    v += 1
                } else if vias[v].stay > 0 && p == c {
                    stay = vias[v].stay * 60
                    v += 1
                }
            }
        }
        guard v == vias.count else { return "calls at \(v) of \(vias.count) vias" }
        return nil
    }
}

/// The loop of every differential test: random feeds from a seed on, a few queries each, until
/// enough are asked (`TRANSIT_DIFFERENTIAL_QUERIES` and `TRANSIT_DIFFERENTIAL_SEED` override the
/// defaults; `scale` divides the first for tests whose queries cost more). `ask` answers one
/// query: nil when it skipped it, else how many results it compared and a difference, if any.
struct DifferentialSweep {
    /// Queries asked of each random feed before the next is drawn.
    static let queriesPerFeed = 5
    /// The most national networks a sweep makes.
    static let nationalNetworks = 250

    var asked = 0
    var compared = 0
    var differences: [String] = []
    var seeds: Range<UInt64> = 0..<0

    init(queries defaultQueries: Int, seed defaultSeed: UInt64, scale: Int = 1, perFeed: Int = DifferentialSweep.queriesPerFeed,
         salt: UInt64, pairs: Bool = false, national: Bool = false, walkLimit: Int? = nil, lateRuns: Bool = false, _ ask: (DifferentialCase, inout SeededGenerator) throws -> (compared: Int, difference: String?)?) throws {
        let environment = ProcessInfo.processInfo.environment
        let queries = environment["TRANSIT_DIFFERENTIAL_QUERIES"].flatMap(Int.init).map { $0 / scale } ?? defaultQueries
        let firstSeed = environment["TRANSIT_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? defaultSeed
        var feedSeed = firstSeed
        // A national network costs about a second to make (more than its queries): past
        // `nationalNetworks` of them, more queries each (`scripts/differential 20000`).
        let perFeed = national ? max(perFeed, queries / Self.nationalNetworks) : perFeed
        while asked < queries {
            let test = national ? try DifferentialCase(nationalSeed: feedSeed)
                : pairs ? try DifferentialCase(pairSeed: feedSeed) : try DifferentialCase(seed: feedSeed, walkLimit: walkLimit, lateRuns: lateRuns)
            var g = SeededGenerator(seed: feedSeed &* salt)
            for _ in 0..<perFeed where asked < queries {
                guard let answer = try ask(test, &g) else { continue }
                asked += 1
                compared += answer.compared
                if let difference = answer.difference { differences.append("seed \(feedSeed) " + difference) }
            }
            feedSeed += 1
        }
        seeds = firstSeed..<feedSeed
    }
}

extension ReferenceRouter.Query {
    func describe(_ feed: RandomFeed) -> String {
        let names = { (s: Set<Int>) in s.sorted().map { feed.stops[$0].id }.joined(separator: "+") }
        return "\(names(origins))→\(names(destinations)) day \(LocalDate(dayNumber: day).iso) after \(after.map(Trip.clock) ?? "-") "
            + "before \(before.map(Trip.clock) ?? "-") K\(maxTransfers) min \(minTransfer) walk \(walkMeters.map { String(Int($0)) } ?? "-")"
            + (needs.wheelchair ? " wheelchair" : "") + (needs.bike ? " bike \(needs.bikeModes.sorted())" : "")
            + (needs.modes.map { " modes \($0.sorted())" } ?? "") + (needs.avoid.isEmpty ? "" : " avoid \(needs.avoid.map { feed.routes[$0] })")
            + (needs.marginSeconds == 0 && needs.marginFactor == 1 ? "" : " buffer \(needs.marginSeconds) s × \(needs.marginFactor)")
            + needs.vias.map { " via \($0.stops.sorted().map { feed.stops[$0].id }.joined(separator: "+"))/\($0.stay)" }.joined()
            + (days == 0...0 ? "" : " days \(days.lowerBound)...\(days.upperBound)")
    }
}

extension RandomFeed.Transfer {
    init(fromStop: Int?, toStop: Int?, fromTrip: Int? = nil, toTrip: Int? = nil, type: Int) {
        self.init(fromStop: fromStop, toStop: toStop, fromRoute: nil, toRoute: nil, fromTrip: fromTrip, toTrip: toTrip, type: type, minTime: nil)
    }
}
