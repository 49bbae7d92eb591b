import Foundation
import TransitSupport

/// The changes allowed between stops, with the seconds each needs: the same stop, stops of one
/// parent station, pairs transfers.txt lists (a station standing for its stops), with `--walk`
/// stops within walking distance, and over several feeds the links between stops of different
/// feeds within `--link`. A transfers.txt row applies within its own feed only. Each edge has a lower bound over every pair of
/// trips; rows that name trips or routes are decided exactly at boarding. A stop's edges are
/// worked out the first time a search reaches it, so a query pays only for the stops it touches.
///
/// Its stored `var`s are caches read at every stop a search reaches, by one search on one thread
/// at a time (as `DaySchedule`'s runs are): Swift's dynamic exclusivity checks on a class's `var`s
/// (`swift_beginAccess`, a thread-local set of accesses) were a tenth of a far national query's
/// instructions, so they are off for them (`@exclusivity(unchecked)`). No access to one of them
/// overlaps another here: each is read or written whole within one statement.
package final class TransferEdges {
    package struct Edge {
        package var to: Int32
        package var lowerBound: Int32
        /// Walking seconds for a pair allowed only by distance; -1 for the others.
        package var walkSeconds: Int32
        /// The bound is the exact time for every pair of trips (no row names a trip or route).
        package var exact: Bool
        /// The transfers.txt rows that may decide the pair, as an index into `pairRows` (-1: none).
        package var rows: Int32 = -1
        /// Some row names a to_trip_id: the time may differ between runs of one pattern (a
        /// pattern is one route's, so rows by route decide alike for all its runs).
        package var namesToTrip = false
        /// Some row names a from_trip_id: the time may differ between runs arrived on.
        package var namesFromTrip = false
        /// Seconds on top of what the rules decide: a via's stay (`ViaLayers`), in `lowerBound` too.
        package var extra: Int32 = 0
    }

    package let t: Timetable
    /// Each trip's route, read in place (`TripRoutes`).
    private let tripRoutes: TripRoutes
    /// Stations, their stops and the stored walks, read in place (`StopNeighbours`).
    package let neighbours: StopNeighbours
    package let minTransfer: Int
    package let walkMeters: Double?
    package let linkMeters: Double?
    /// The rider's margin at every change (applied to what the rules decide), and walking speed.
    package let margin: RiderNeeds.ChangeMargin
    package let walkingSpeed: Double
    /// Walks a rider who needs them step-free can make: the stored walks' step-free meters
    /// (`Timetable.linkStepFree`); `streets` is then the map's step-free network.
    package let stepFree: Bool
    /// The layered network of a search through vias, whose stops' changes are their base stops'
    /// led into the layer they reach (nil: the feed's own stops).
    @exclusivity(unchecked) package var layers: ViaLayers? {
        didSet { layeredAt = layers.map { [Int32](repeating: -1, count: $0.layeredStops) } ?? [] }
    }
    /// Per layered stop, its edges' place in `runs` once worked out (-1: not yet).
    @exclusivity(unchecked) private var layeredAt: [Int32] = []
    /// Each stop's feed, in a combination (empty for one feed).
    package let stopFeed: [Int32]
    /// transfers.txt rows by (from stop, to stop) key, stations included.
    @exclusivity(unchecked) package var rulesByPair: [Int64: [Int]] = [:]
    /// Per stop, whether a row of `rulesByPair` names it, from or to (empty: no row names a stop).
    /// A stop's edges ask it of both stops of each pair and their stations: as a set, its
    /// hashing was a twentieth of a far national query.
    @exclusivity(unchecked) private var namedByRows: [Bool] = []
    /// Rows naming no stop, by feed.
    @exclusivity(unchecked) package var wildcardRules: [[Int]] = []
    /// Stops named as a transfers.txt row's to_stop_id, by from stop (stations expanded).
    @exclusivity(unchecked) package var listed: [Int: [Int]] = [:]
    @exclusivity(unchecked) package var grid: StopGrid?
    /// A map's streets, on which the walks found through `grid` are measured (nil: straight).
    package let streets: StreetWalker?
    /// Those walks, by stop, once measured (a change's meters are printed from here).
    @exclusivity(unchecked) private var measured: [Int: [(stop: Int, meters: Double)]] = [:]
    /// Each stop's edges once worked out: per stop, where in `runs` (-1: not yet; in zeroed
    /// memory, so a feed's million stops cost nothing until a search reaches them).
    private let workedAt: UnsetInt32s
    /// The edges worked out, each stop's (or layered stop's) one run in `blocks`: blocks that
    /// never move, so what `edges` gives stays valid while more stops are worked out. An array
    /// per stop was an allocation each and, at the end of a far national query reaching a
    /// hundred thousand stops, as many releases (a twentieth of its instructions).
    @exclusivity(unchecked) private var runs: [UnsafeBufferPointer<Edge>] = []
    @exclusivity(unchecked) private var blocks: [UnsafeMutableBufferPointer<Edge>] = []
    /// How much of the last block is taken.
    @exclusivity(unchecked) private var blockUsed = 0
    /// A stop's pairs and edges while they are worked out, kept between stops (arrays of their
    /// own were two allocations a stop).
    @exclusivity(unchecked) private var scratchPairs: [Int] = []
    @exclusivity(unchecked) private var scratchEdges: [Edge] = []
    /// Small enough (57 kB) to come from the allocator's heap: blocks of 16,384 were mapped
    /// afresh by the kernel at each query, and on this project's machine a page touched for
    /// the first time costs more than the allocations they replaced (docs/performance.md).
    private static let blockEdges = 2_048
    /// Candidate rows per edge, found once.
    @exclusivity(unchecked) package private(set) var pairRows: [[Int]] = []
    /// The changes read backward (`TargetBounds.changesInto`), worked out once: a query's
    /// Dijkstra bounds and its `FewestRides` share them (55 ms on the national network).
    @exclusivity(unchecked) private var backward: (start: [Int32], stops: [Int32])?

    package func changesInto(stops n: Int) -> (start: [Int32], stops: [Int32]) {
        if let backward, backward.start.count == n + 1 { return backward }
        let made = TargetBounds.changesInto(self, stops: n)
        backward = made
        return made
    }

    /// The bounds on the import's graph last worked out (`TargetBounds.graph`), by the
    /// destinations and their starts: a withholding window's second search reads the first's
    /// (a second Dijkstra was a seventh of a national hour). Cut where the first search could
    /// go no farther, they are true lower bounds still (a stop not settled is at least that
    /// far), for a search of any reach, if less tight for one that reaches farther.
    @exclusivity(unchecked) private var graphBounds: (starts: [Int], bounds: TargetBounds?)?

    package func graphBounds(from destinations: [(stop: Int, start: Int32)], _ make: () -> TargetBounds?) -> TargetBounds? {
        let starts = destinations.flatMap { [$0.stop, Int($0.start)] }
        if let graphBounds, graphBounds.starts == starts { return graphBounds.bounds }
        let made = make()
        graphBounds = (starts, made)
        return made
    }

    /// The fewest rides to `destinations` over the timetable's planned layout (`FewestRides`),
    /// worked out once a query: a withholding window's two searches ask the same (every planned
    /// day has the same patterns and calls, and the count reads no run).
    @exclusivity(unchecked) private var plannedRides: (destinations: [Int], limit: Int, rides: [Int32])?

    package func plannedRides(to destinations: [Int], limit: Int, _ make: () -> [Int32]) -> [Int32] {
        if let plannedRides, plannedRides.destinations == destinations, plannedRides.limit == limit { return plannedRides.rides }
        let made = make()
        plannedRides = (destinations, limit, made)
        return made
    }
    /// Decided changes by (edge rows, from route, to route), for rows that name no trip: a
    /// direct-mapped cache (a key and its seconds, -1 forbidden), asked at most boardings of a
    /// feed whose transfers.txt names routes, where a dictionary's hashing was a tenth of a query.
    private static let routeCacheBits = 12
    private let routeKeys: UnsafeMutableBufferPointer<Int64>
    private let routeSeconds: UnsafeMutableBufferPointer<Int32>

    package init(_ t: Timetable, minTransfer: Int, walkMeters: Double?, linkMeters: Double? = nil, children: StationChildren,
                 streets: StreetWalker? = nil, margin: RiderNeeds.ChangeMargin = .init(), walkingSpeed: Double = SearchDefaults.walkingSpeed,
                 stepFree: Bool = false) {
        self.t = t
        tripRoutes = t.tripRoutes
        neighbours = t.neighbours
        self.stepFree = stepFree
        self.margin = margin
        self.walkingSpeed = walkingSpeed
        self.streets = streets
        self.minTransfer = minTransfer
        self.walkMeters = walkMeters
        self.linkMeters = linkMeters
        stopFeed = t.isCombination ? (0..<t.feedCount).flatMap { f in
            [Int32](repeating: Int32(f), count: Int(t.feedStopStart[f + 1] - t.feedStopStart[f]))
        } : []
        wildcardRules = Array(repeating: [], count: t.feedCount)
        workedAt = UnsetInt32s(t.stopCount)
        routeKeys = .allocate(capacity: 1 << Self.routeCacheBits)
        routeKeys.initialize(repeating: -1)
        routeSeconds = .allocate(capacity: 1 << Self.routeCacheBits)
        routeSeconds.initialize(repeating: -1)
        for (index, rule) in t.transfers.enumerated() {
            // A row applies where each stop it names matches: both, one (the other any), or none.
            if (rule.fromStop >= 0 || rule.toStop >= 0) && namedByRows.isEmpty { namedByRows = [Bool](repeating: false, count: t.stopCount) }
            if rule.fromStop >= 0 && Int(rule.fromStop) < namedByRows.count { namedByRows[Int(rule.fromStop)] = true }
            if rule.toStop >= 0 && Int(rule.toStop) < namedByRows.count { namedByRows[Int(rule.toStop)] = true }
            switch (rule.fromStop >= 0, rule.toStop >= 0) {
            case (true, true): rulesByPair[Self.key(Int(rule.fromStop), Int(rule.toStop)), default: []].append(index)
            case (true, false): rulesByPair[Self.key(Int(rule.fromStop), -1), default: []].append(index)
            case (false, true): rulesByPair[Self.key(-1, Int(rule.toStop)), default: []].append(index)
            case (false, false): wildcardRules[t.feed(ofTransfer: index)].append(index)
            }
        }
        let expand = children.expand
        for rule in t.transfers where rule.fromStop >= 0 && rule.toStop >= 0 {
            for x in expand(Int(rule.fromStop)) { listed[x, default: []] += expand(Int(rule.toStop)) }
        }
        // Walks and links no longer than those compiled are read from the timetable (measured on
        // the streets when the feed was, at import); a longer `--walk` or `--link` looks through a
        // grid as wide as the longer of the two, and measures what it finds on `streets`.
        let reach = max(walkMeters ?? 0, linkMeters ?? 0)
        let compiled = t.linkStart.count == t.stopCount + 1 && reach <= TimetableCombination.linkRadius
        if reach > 0 && !compiled { grid = StopGrid(t, cell: reach) }
    }

    /// Whether every change these edges make is one of the import's graph of least hops' ways, in
    /// no less than its seconds (`BoundGraph`): no grid of walks longer than those stored, no
    /// layers, walking no faster than the default, no margin that shortens a change.
    package var keepsToBoundGraph: Bool {
        grid == nil && layers == nil && !t.isCombination && walkingSpeed <= SearchDefaults.walkingSpeed && minTransfer >= 0
            && margin.factor >= 1 && margin.seconds >= 0
    }

    deinit {
        for block in blocks { block.deallocate() }
        workedAt.release()
        routeKeys.deallocate()
        routeSeconds.deallocate()
    }

    /// The changes out of stop `x` (a layered stop, in a search through vias); valid as long as
    /// these edges are.
    package func edges(_ x: Int) -> UnsafeBufferPointer<Edge> {
        if let layers { return layeredEdges(x, layers) }
        return baseEdges(x)
    }

    /// Keeps `edges` as one run of the blocks; its index in `runs`.
    private func keep(_ edges: [Edge]) -> Int32 {
        if blocks.isEmpty || blockUsed + edges.count > blocks[blocks.count - 1].count {
            let block = UnsafeMutableBufferPointer<Edge>.allocate(capacity: max(Self.blockEdges, edges.count))
            blocks.append(block)
            blockUsed = 0
        }
        let block = blocks[blocks.count - 1]
        let run = UnsafeMutableBufferPointer(rebasing: block[blockUsed..<(blockUsed + edges.count)])
        _ = run.initialize(from: edges)
        blockUsed += edges.count
        runs.append(UnsafeBufferPointer(run))
        return Int32(clamping: runs.count - 1)
    }

    private static var none: UnsafeBufferPointer<Edge> { UnsafeBufferPointer(start: nil, count: 0) }

    /// The changes out of layered stop `x`: its base stop's, each into the layer it reaches.
    private func layeredEdges(_ x: Int, _ layers: ViaLayers) -> UnsafeBufferPointer<Edge> {
        guard x >= 0, x < layeredAt.count else { return Self.none }
        let known = Int(layeredAt[x])
        if known >= 0 { return runs[known] }
        let start = layers.changesStart(x)
        let out = baseEdges(start.base).map { e in
            var e = e
            let (to, more) = layers.arrive(Int(e.to), layer: start.layer)
            e.to = Int32(to)
            e.extra = Int32(clamping: start.extra + more)
            e.lowerBound = Int32(clamping: Int64(e.lowerBound) + Int64(e.extra))
            return e
        }
        let at = keep(out)
        layeredAt[x] = at
        return runs[Int(at)]
    }

    /// The change from stop `x` to stop `y` of the timetable (no layers), if one joins them.
    package func change(from x: Int, to y: Int) -> Edge? { baseEdges(x).first { Int($0.to) == y } }

    /// A layered stop's base stop (itself without layers).
    @inline(__always) private func base(_ x: Int) -> Int { layers?.base(x) ?? x }

    /// The changes out of stop `x` of the timetable.
    private func baseEdges(_ x: Int) -> UnsafeBufferPointer<Edge> {
        guard x >= 0, x < t.stopCount else { return Self.none }
        let known = Int(workedAt[x])
        if known >= 0 { return runs[known] }
        // The stop itself, its station's other stops, the pairs transfers.txt lists; each once
        // (a handful: a list, not a set).
        var pairs = scratchPairs, out = scratchEdges
        scratchPairs = []
        scratchEdges = []
        pairs.removeAll(keepingCapacity: true)
        out.removeAll(keepingCapacity: true)
        defer { (scratchPairs, scratchEdges) = (pairs, out) }
        pairs.append(x)
        let parent = neighbours.parent(of: x)
        if parent >= 0 { for y in neighbours.children(ofStation: parent) where Int(y) != x { pairs.append(Int(y)) } }
        if let more = listed[x] { for y in more where !pairs.contains(y) { pairs.append(y) } }
        for y in pairs {
            let rows = candidates(x, y)
            if let (bound, exact) = Self.bound(x, y, rows, t.transfers, routes: tripRoutes, minTransfer: minTransfer) {
                var edge = Edge(to: Int32(y), lowerBound: Int32(clamping: margin.apply(Int(bound))), walkSeconds: -1, exact: exact)
                if !exact {
                    edge.rows = Int32(pairRows.count)
                    edge.namesToTrip = rows.contains { t.transfers[$0].toTrip >= 0 }
                    edge.namesFromTrip = rows.contains { t.transfers[$0].fromTrip >= 0 }
                    pairRows.append(rows)
                }
                out.append(edge)
            }
        }
        // The walks (each stop once already: stored so, or found once in the grid), to the stops
        // not paired above.
        for (y, meters) in onFoot(x) where !pairs.contains(y) {
            // A link joins stops a vehicle calls at (not stations or entrances) of two feeds.
            let link = feed(x) != feed(y) && allows(linkMeters, x, y, meters: meters) && t.isCalledAt(y)
            guard link || allows(walkMeters, x, y, meters: meters), !forbidden(x, y) else { continue }
            // Walk plus a margin, as OpenTripPlanner, R5 and Navitia reckon it: a change to a stop
            // 0 m away needs what a change at the same stop needs.
            let seconds = Int32(clamping: Int((meters / walkingSpeed).rounded(.up)))
            out.append(Edge(to: Int32(y), lowerBound: Int32(clamping: margin.apply(minTransfer + Int(seconds))), walkSeconds: seconds, exact: true))
        }
        let at = keep(out)
        workedAt[x] = at
        return runs[Int(at)]
    }

    /// Does a bound of `bound` meters (`--walk`, `--link`; nil: none) allow the walk from `x` to
    /// `y` of `meters`? Its straight line within the bound, and the walk (on a map's streets;
    /// else that line) within `SearchDefaults.streetDetour` times it, as a point's `--radius`.
    /// A stored walk's straight line is within `TimetableCombination.linkRadius`: looked at only
    /// for a shorter bound, or a walk found through the grid.
    @inline(__always) package func allows(_ bound: Double?, _ x: Int, _ y: Int, meters: Double) -> Bool {
        guard let bound, meters <= bound * SearchDefaults.streetDetour else { return false }
        if grid == nil && bound >= TimetableCombination.linkRadius { return true }
        return straightMeters(x, y) <= bound
    }

    /// The straight line from stop `x` to stop `y`, as the walks were found (`findLinks`, the grid).
    private func straightMeters(_ x: Int, _ y: Int) -> Double {
        guard x >= 0, y >= 0, x < t.stopCount, y < t.stopCount else { return .infinity }
        let meters = Coordinate(latitude: t.stopLat[x], longitude: t.stopLon[x]).meters(to: Coordinate(latitude: t.stopLat[y], longitude: t.stopLon[y]))
        return meters.isFinite ? meters : .infinity
    }

    /// The stops near `x` that a walk might reach, with their distances: through the grid (on
    /// the streets, with a map: a stop beyond the reach's detour on foot is left out, and the
    /// same rule as the stored walks', `StreetFootpaths`, keeps a straight line where either stop
    /// joins no street), or the walks stored when the feed or combination was compiled.
    /// `allows` says which of them a bound keeps.
    package func onFoot(_ x: Int) -> [(stop: Int, meters: Double)] {
        guard x >= 0, x < t.stopCount, !t.stopLat[x].isNaN else { return [] }
        if let grid {
            if let known = measured[x] { return known }
            let here = Coordinate(latitude: t.stopLat[x], longitude: t.stopLon[x])
            let reach = max(walkMeters ?? 0, linkMeters ?? 0)
            // The stored walks' rule: the nearest `maxWalksPerStop` (ties by index), so that a
            // pair within 300 m is a walk whichever way it was found.
            let within = Array(grid.near(x, t).compactMap { y -> (stop: Int, meters: Double)? in
                let meters = here.meters(to: Coordinate(latitude: t.stopLat[y], longitude: t.stopLon[y]))
                return y != x && meters <= reach ? (y, meters) : nil
            }.sorted(by: NearestStops.WorstFirst.before).prefix(TimetableCombination.maxWalksPerStop))
            guard let streets else { return within }
            let longest = reach * SearchDefaults.streetDetour
            let street = streets.meters(fromStop: x, to: within, limit: longest, in: t)
            let out = within.compactMap { y, straight in
                let meters = street[y] ?? straight
                return meters <= longest ? (stop: y, meters: meters) : nil
            }
            measured[x] = out
            return out
        }
        guard (walkMeters ?? 0) > 0 || linkMeters != nil else { return [] }
        return neighbours.storedWalks(x, stepFree: stepFree).map { (Int($0.stop), $0.meters) }
    }

    /// A pair's key; -1 stands for a row's empty stop field.
    package static func key(_ a: Int, _ b: Int) -> Int64 { Int64(a) << 32 | Int64(UInt32(bitPattern: Int32(b))) }

    /// The feed of a stop (0 for a feed of its own).
    @inline(__always) package func feed(_ stop: Int) -> Int32 { stop < stopFeed.count ? stopFeed[stop] : 0 }

    /// Candidate rows for (x, y): exact stops, their stations, and rows without stops, of their
    /// feed; none between feeds (a row never names another feed's stop).
    package func candidates(_ x: Int, _ y: Int) -> [Int] {
        guard feed(x) == feed(y) else { return [] }
        // Most pairs: no row names either stop or its station (on a national network a query
        // asked this at every stop it reached, each time with arrays and a dictionary).
        let named = { (stop: Int) in stop >= 0 && stop < self.namedByRows.count && self.namedByRows[stop] }
        let (px, py) = (neighbours.parent(of: x), neighbours.parent(of: y))
        if !named(x) && !named(y) && !named(px) && !named(py) { return wildcardRules[Int(feed(x))] }
        return Self.candidates(x, y, parents: (px, py), rulesByPair: rulesByPair, wildcard: wildcardRules[Int(feed(x))])
    }

    package func forbidden(_ x: Int, _ y: Int) -> Bool { candidates(x, y).contains { t.transfers[$0].type == 3 } }

    /// Candidate rows for (x, y): exact stops, their stations, and rows without stops.
    package static func candidates(_ x: Int, _ y: Int, parents: (x: Int, y: Int), rulesByPair: [Int64: [Int]], wildcard: [Int]) -> [Int] {
        let (px, py) = parents
        // The stop, its station, and -1 for a row that leaves the field empty.
        let froms = px >= 0 ? [x, px, -1] : [x, -1], tos = py >= 0 ? [y, py, -1] : [y, -1]
        var rows: [Int] = []
        for a in froms {
            for b in tos where a >= 0 || b >= 0 { rows += rulesByPair[key(a, b)] ?? [] }
        }
        return rows + wildcard
    }

    /// The least seconds any pair of trips could need at (x, y) under its candidate `rows`, and
    /// whether that is exact (no row names a trip or a route); nil when every pair is forbidden.
    package static func bound(_ x: Int, _ y: Int, _ rows: [Int], _ transfers: [TransferRule], routes: TripRoutes, minTransfer: Int) -> (seconds: Int32, exact: Bool)? {
        if rows.allSatisfy({ transfers[$0].fromTrip < 0 && transfers[$0].toTrip < 0 && transfers[$0].fromRoute < 0 && transfers[$0].toRoute < 0 }) {
            return decide(x, y, rows, transfers, routes: routes, fromTrip: -1, toTrip: -1, minTransfer: minTransfer).map { (Int32($0), true) }
        }
        var least = minTransfer
        for row in rows {
            if let seconds = seconds(of: transfers[row], minTransfer: minTransfer) { least = min(least, seconds) }
        }
        return (Int32(least), false)
    }

    /// What a row asks for: nil for type 3 (forbidden).
    package static func seconds(of rule: TransferRule, minTransfer: Int) -> Int? {
        switch rule.type {
        case 3: return nil
        case 2: return max(0, Int(rule.minTime))
        case 1: return 0
        default: return minTransfer
        }
    }

    /// The deciding row among `rows` for trips (s, t), in GTFS's order of specificity: both
    /// trips; a trip and a route; one trip; both routes; one route; stops only. Exact stops beat
    /// stations; on a tie the most restrictive row wins. nil: forbidden.
    package static func decide(_ x: Int, _ y: Int, _ rows: [Int], _ transfers: [TransferRule], routes: TripRoutes, fromTrip: Int, toTrip: Int, minTransfer: Int) -> Int? {
        let fromRoute = fromTrip >= 0 ? routes.route(ofTrip: fromTrip) : -2, toRoute = toTrip >= 0 ? routes.route(ofTrip: toTrip) : -2
        var best: (rank: Int, exact: Int, seconds: Int?)?
        for index in rows {
            let r = transfers[index]
            if r.fromTrip >= 0 && Int(r.fromTrip) != fromTrip { continue }
            if r.toTrip >= 0 && Int(r.toTrip) != toTrip { continue }
            if r.fromRoute >= 0 && Int(r.fromRoute) != fromRoute { continue }
            if r.toRoute >= 0 && Int(r.toRoute) != toRoute { continue }
            let trips = (r.fromTrip >= 0 ? 1 : 0) + (r.toTrip >= 0 ? 1 : 0)
            let routes = (r.fromRoute >= 0 ? 1 : 0) + (r.toRoute >= 0 ? 1 : 0)
            let rank: Int
            switch (trips, routes) {
            case (2, _): rank = 1
            case (1, 1...): rank = 2
            case (1, _): rank = 3
            case (0, 2): rank = 4
            case (0, 1): rank = 5
            default: rank = 6
            }
            let exact = (Int(r.fromStop) == x ? 1 : 0) + (Int(r.toStop) == y ? 1 : 0)
            let seconds = self.seconds(of: r, minTransfer: minTransfer)
            if let current = best {
                if rank > current.rank { continue }
                if rank == current.rank && exact < current.exact { continue }
                if rank == current.rank && exact == current.exact {
                    // The more restrictive: forbidden, else the longer.
                    guard let new = seconds else { best = (rank, exact, nil); continue }
                    guard let old = current.seconds, new > old else { continue }
                }
            }
            best = (rank, exact, seconds)
        }
        guard let best else { return minTransfer }
        return best.seconds
    }

    /// What of an arriving trip the changes out of `x` depend on: the trips and routes that
    /// transfers.txt rows applying there name as from_trip_id or from_route_id (empty where
    /// no row does: then the earliest arrival at `x` is the only one worth keeping).
    package struct FromRules {
        package var trips: Set<Int> = []
        package var routes: Set<Int> = []
        package var isEmpty: Bool { trips.isEmpty && routes.isEmpty }
    }

    @exclusivity(unchecked) private var fromRulesCache: [Int: FromRules] = [:]
    /// Whether any transfers.txt row names an arriving trip or route: where none does (most
    /// feeds), no stop's changes depend on the trip, and no stop's edges are worked out to say
    /// so (on a national network that was a tenth of a query, at each stop alighted at).
    private lazy var rowsNameArrivals = t.transfers.contains { $0.fromTrip >= 0 || $0.fromRoute >= 0 }

    package func fromRules(_ x: Int) -> FromRules {
        guard rowsNameArrivals else { return FromRules() }
        let x = base(x)
        if let known = fromRulesCache[x] { return known }
        var rules = FromRules()
        for e in baseEdges(x) where !e.exact && e.rows >= 0 && Int(e.rows) < pairRows.count {
            for row in pairRows[Int(e.rows)] {
                let r = t.transfers[row]
                if r.fromTrip >= 0 { rules.trips.insert(Int(r.fromTrip)) }
                if r.fromRoute >= 0 { rules.routes.insert(Int(r.fromRoute)) }
            }
        }
        fromRulesCache[x] = rules
        return rules
    }

    /// The class of an arrival at `x` by `trip` under those rules: arrivals of one class change
    /// alike, so the earliest of each class is kept (-1: x's rules do not look at the trip).
    package func arrivalClass(_ x: Int, trip: Int) -> Int64 {
        let rules = fromRules(x)
        if rules.isEmpty { return -1 }
        let named = rules.trips.contains(trip) ? Int64(trip) : -1
        // An added trip (GTFS-Realtime) has no trip of the feed, and so no route its rules name.
        let route = trip >= 0 && trip < tripRoutes.count ? tripRoutes.route(ofTrip: trip) : -1
        return (named + 1) << 32 | Int64(rules.routes.contains(route) ? route + 1 : 0)
    }

    /// Seconds a change along `edge` (out of `x`) needs between these trips; nil if forbidden.
    /// Where no row names a trip the answer depends on the two routes only, and is kept.
    package func seconds(_ edge: Edge, from x: Int, fromTrip: Int, toTrip: Int) -> Int? {
        if edge.walkSeconds >= 0 || edge.exact || edge.rows < 0 || Int(edge.rows) >= pairRows.count { return Int(edge.lowerBound) }
        return decided(edge, from: base(x), to: base(Int(edge.to)), fromTrip: fromTrip, toTrip: toTrip).map { $0 + Int(edge.extra) }
    }

    /// What the rows of `edge` decide for the change x → y between these trips, with the margin.
    private func decided(_ edge: Edge, from x: Int, to y: Int, fromTrip: Int, toTrip: Int) -> Int? {
        let fromRoute = fromTrip >= 0 ? Int64(tripRoutes.route(ofTrip: fromTrip)) : -1, toRoute = toTrip >= 0 ? Int64(tripRoutes.route(ofTrip: toTrip)) : -1
        let fits = (0..<(1 << 21)).contains(fromRoute) && (0..<(1 << 21)).contains(toRoute) && edge.rows < 1 << 21  // the key's fields
        guard fits, !edge.namesToTrip, !edge.namesFromTrip else {
            return decided(x, y, pairRows[Int(edge.rows)], fromTrip: fromTrip, toTrip: toTrip)
        }
        let key = Int64(edge.rows) << 42 | fromRoute << 21 | toRoute
        let slot = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.routeCacheBits))
        if routeKeys[slot] == key {
            let known = routeSeconds[slot]
            return known < 0 ? nil : Int(known)
        }
        let seconds = decided(x, y, pairRows[Int(edge.rows)], fromTrip: fromTrip, toTrip: toTrip)
        routeKeys[slot] = key
        routeSeconds[slot] = Int32(clamping: seconds ?? -1)
        return seconds
    }

    /// Seconds a change from `x` to `y` needs between these trips (-1: any); nil if forbidden.
    package func seconds(from x: Int, to y: Int, fromTrip: Int, toTrip: Int) -> Int? {
        for e in edges(x) where Int(e.to) == y {
            if e.walkSeconds >= 0 { return Int(e.lowerBound) }
            return decided(base(x), base(y), candidates(base(x), base(y)), fromTrip: fromTrip, toTrip: toTrip).map { $0 + Int(e.extra) }
        }
        return nil
    }

    /// What `rows` decide for the change x → y between these trips (`decide`; no row:
    /// `--min-transfer`), with the rider's margin; nil: forbidden.
    package func decided(_ x: Int, _ y: Int, _ rows: [Int], fromTrip: Int, toTrip: Int) -> Int? {
        let usual = rows.isEmpty ? minTransfer : Self.decide(x, y, rows, t.transfers, routes: tripRoutes, fromTrip: fromTrip, toTrip: toTrip, minTransfer: minTransfer)
        return usual.map(margin.apply)
    }

    /// How far a walk from `x` to `y` is: as the feed stored it (on a map's streets, if it was
    /// imported with one) where the walks are read from there, as measured on `streets` where
    /// they were, else the straight line.
    package func meters(_ x: Int, _ y: Int) -> Double {
        let (x, y) = (base(x), base(y))
        if grid == nil, let stored = neighbours.storedWalks(x, stepFree: stepFree).first(where: { Int($0.stop) == y }) { return stored.meters }
        if streets != nil, let walked = onFoot(x).first(where: { $0.stop == y }) { return walked.meters }
        let a = Coordinate(latitude: t.stopLat[x], longitude: t.stopLon[x]), b = Coordinate(latitude: t.stopLat[y], longitude: t.stopLon[y])
        let m = a.meters(to: b)
        return m.isFinite ? m : 0
    }
}
