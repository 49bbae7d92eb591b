import Foundation
import TransitSupport

/// A time of a leg: planned (the timetable) and predicted (realtime; equal to planned until
/// realtime comes), as the Friendly Public Transport Format keeps `plannedWhen` and `when`.
package struct LegTime: Equatable, Sendable {
    package var planned: Int
    package var predicted: Int

    package init(_ planned: Int, predicted: Int? = nil) {
        self.planned = planned
        self.predicted = predicted ?? planned
    }

    package var delay: Int { predicted - planned }
}

/// Every Pareto-optimal journey of one service day between two sets of stops: RAPTOR with its
/// range extension (Delling, Pajor, Werneck 2012), in `RangeSearch`. This type is the query
/// and the answer; the search reads the timetable through the `Schedule` seam only.
package struct Router {
    package struct Query {
        package var origins: [Int]
        package var destinations: [Int]
        /// The service day, as a day number.
        package var day: Int
        /// Departure window in seconds of the service day, both inclusive.
        package var after: Int?
        package var before: Int?
        /// Only journeys arriving at the end by then (a bound known beforehand, as `earliest`
        /// knows it): nothing arriving later is searched for.
        package var arrivingBy: Int?
        package var maxTransfers: Int
        /// Seconds needed for a change that no transfers.txt row decides.
        package var minTransfer: Int
        /// Walking between stops within this many meters, at 1.2 m/s (plus `minTransfer`).
        package var walkMeters: Double?
        /// Over several feeds: stops of different feeds within this many meters are linked, by
        /// the same rule as `walkMeters` (a walk is never chained to another).
        package var linkMeters: Double = SearchDefaults.linkMeters
        /// The walks at the ends: seconds on foot to each origin from the point (or from the stop
        /// named, `accessFrom`), and from each destination to the point (or to the stop named,
        /// `egressTo`). A stop without one is an end itself, reached at no cost.
        package var access: [Int: Int] = [:]
        package var egress: [Int: Int] = [:]
        /// How long those walks are, in meters (on a map's streets, or straight lines).
        package var accessMeters: [Int: Double] = [:]
        package var egressMeters: [Int: Double] = [:]
        /// Stops as the ends, walked from and to: every stop a vehicle calls at within
        /// `walkMeters` on foot of an origin (of a destination) is an origin (a destination) too,
        /// reached by a walk from the nearest (to the nearest), never a stop the other end names.
        /// Set by `Router.init` into `access` and `accessFrom` (`egress`, `egressTo`).
        package var walksFromOrigins = false
        package var walksToDestinations = false
        /// The stop each walked origin's walk starts at (each walked destination's ends at);
        /// absent: the point (`access` from a `LAT,LON`) or the stop itself.
        package var accessFrom: [Int: Int] = [:]
        package var egressTo: [Int: Int] = [:]
        /// What the rider asks beyond the rules: step-free, a bike, modes, routes avoided, a
        /// margin at every change, vias (`RiderNeeds`).
        package var needs = RiderNeeds()
        /// Where searches of the same ends on the same schedule share their lower bounds (the first
        /// builds them, the others read them): `earliest`'s second search then costs no Dijkstra.
        package var sharedBounds: SharedBounds?
        /// Bounds on the import's graph (`TargetBounds.graph`) wherever the schedule has them, even
        /// where the day's would pay for themselves: the differential tests ask both ways.
        package var graphBoundsFirst = false
        /// A range search that finds a journey arriving by `arrival` with no more than
        /// `transfers` changes stops after that departure (`earliest`: with the earliest arrival
        /// and the fewest changes arriving then, the latest departure to find one is the answer,
        /// and the span's earlier departures, which cost most of its search, cannot beat it).
        package var enoughOnceFound: (arrival: Int, transfers: Int)?
        /// The service days whose runs a journey may ride, as days after `day` (−1: the day
        /// before's runs that go on past midnight): a journey leaving in the window rides any run
        /// of them (`DaysSchedule`), on `day`'s clock, each day with the real-time data of its runs.
        package var days = 0...0
        /// Days after this one (as `days` counts them) are ridden only where the journeys of the
        /// days up to it leave room: a window the rider closed rides the next days' runs (a
        /// journey leaving at 22:50 may wait overnight at a change), but searched from its start
        /// they made an hour's window on the national network 7 times slower. So the window is
        /// searched without them first, then from where those journeys stop beating all they
        /// could add (`search`). nil: every day of `days` at once.
        package var withheldAfter: Int?
        /// Without `before`, the window ends with the last departure from the origins of the
        /// query's day's own runs (its whole service day, or the rest of it): journeys that leave
        /// then may still ride the next days' runs. Across days only; false: no end (an answer
        /// that goes on into the next days' departures).
        package var endsWithTheDay = false
        /// A journey that one leaving after this time beats (leaves later, arrives no later,
        /// changes no more) is not kept: after the day's last departure, the next morning's first
        /// beats the night's last journeys that wait for it (set where the window ends with the day).
        package var beatenAfter: Int?
        /// Element c: the latest departure of a journey already found (a withholding window's
        /// first search) that changes at most c times and arrives before any this search may
        /// add; a journey leaving no later with c changes or more is beaten, so a departure then
        /// searches only the rounds of fewer (`RangeSearch`). Never decreasing; nil: every round.
        package var beatenThrough: [Int]?
        /// The journey on foot between the ends, where they are within reach on foot of each
        /// other (`OnFoot.between`; never with vias): laid first beside the rides it does not beat.
        package var onFoot: OnFoot?
        /// Of journeys that are the same ride, only the one walking least (`walkingLeast`);
        /// false: the Pareto set as the search finds it (the differential tests ask both).
        package var walksLeast = true

        package init(origins: [Int], destinations: [Int], day: Int, after: Int? = nil, before: Int? = nil, maxTransfers: Int,
                     minTransfer: Int, walkMeters: Double? = nil) {
            self.origins = origins
            self.destinations = destinations
            self.day = day
            self.after = after
            self.before = before
            self.maxTransfers = maxTransfers
            self.minTransfer = minTransfer
            self.walkMeters = walkMeters
        }
    }

    package struct Leg: Equatable {
        package enum Mode: Equatable {
            /// `run` is the run's row among its pattern's runs of the day.
            case ride(trip: Int, pattern: Int, run: Int, fromPosition: Int, toPosition: Int)
            case walk(meters: Double)
        }

        package var mode: Mode
        package var from: Int
        package var to: Int
        package var departure: LegTime
        package var arrival: LegTime
        /// A ride's run, told apart from the other runs of its trip (frequencies.txt) by its first
        /// departure, in seconds of its own service day (`dayOffset`); 0 for a walk.
        package var runStart = 0
        /// The realtime instance the ride's run stands for (`TripUpdates.instances`), -1: as planned.
        package var instance = -1
        /// The stops a ride calls at, from boarding to alighting (both included).
        package var calls: [Int] = []
        /// The service day a ride's run belongs to, as days after the query's (`Query.days`).
        package var dayOffset = 0

        package var trip: Int? { if case .ride(let trip, _, _, _, _) = mode { trip } else { nil } }
        package var isRide: Bool { trip != nil }
    }

    package struct Journey: Equatable {
        package var legs: [Leg]
        /// Predicted times (planned until realtime comes).
        package var departure: Int
        package var arrival: Int
        package var transfers: Int
    }

    package static let walkingSpeed = SearchDefaults.walkingSpeed

    /// The seconds a change from ride `arrived` to ride `boarding` needs by the search's own rule
    /// (transfers.txt's row for the two stops and trips, else `--min-transfer` plus the walk);
    /// nil where no change joins the two stops, or a row forbids it.
    package func changeSeconds(from arrived: Leg, to boarding: Leg) -> Int? {
        changeSeconds(from: arrived.to, trip: arrived.trip ?? -1, to: boarding.from, trip: boarding.trip ?? -1)
    }

    /// The same, from stop `x` arrived at on `fromTrip` to stop `y` boarded on `toTrip`.
    package func changeSeconds(from x: Int, trip fromTrip: Int, to y: Int, trip toTrip: Int) -> Int? {
        guard let edge = edges.change(from: x, to: y) else { return nil }
        if edge.exact || edge.rows < 0 || Int(edge.rows) >= edges.pairRows.count { return Int(edge.lowerBound) }
        return edges.decided(x, y, edges.pairRows[Int(edge.rows)], fromTrip: fromTrip, toTrip: toTrip)
    }

    package let t: Timetable
    package let query: Query
    package let schedule: DaySchedule
    /// The day with realtime trip updates laid over it, when there are any.
    package let realtime: RealtimeSchedule?
    /// The days of `Query.days` with the realtime data of each laid over it, when there is some:
    /// what a search with real-time data reads (one day or several).
    package let realtimeDays: DaysSchedule<RealtimeSchedule>?

    /// The runs of the service day `offset` days after the query's with its real-time data,
    /// where the search holds that day.
    package func realtime(dayAfter offset: Int) -> RealtimeSchedule? {
        realtimeDays.flatMap { days in days.offsets.firstIndex(of: offset).map { days.days[$0] } }
    }
    package let edges: TransferEdges
    /// The rides the journey on foot left out of the last answer (its notice).
    package let onFootTally = OnFootTally()
    /// The rides and stops the rider's needs allow (nil: all).
    package let filter: RideFilter?
    /// A search through vias: the layered network, over the day as planned and as real-time
    /// data has it (built once: `journeys(limit:)` searches several windows).
    package let layers: ViaLayers?
    private let viaPlanned: ViaSchedule<DaySchedule>?
    private let viaRealtime: ViaSchedule<DaysSchedule<RealtimeSchedule>>?
    /// A search across days (`Query.days`): the days' runs as one schedule, and its vias' layers.
    package let acrossDays: DaysSchedule<DaySchedule>?
    private let viaAcrossDays: ViaSchedule<DaysSchedule<DaySchedule>>?
    /// Where a window withholds the days after `Query.withheldAfter`: the days up to it, which
    /// its first search reads (`search`), as planned and with real-time data (nil with vias, and
    /// where they are the query's day alone as planned: `schedule`). Their patterns have the
    /// same numbers as in `acrossDays` and `realtimeDays`, whose first days they are, so that
    /// journeys of either search read their rides' calls there.
    private let firstDays: DaysSchedule<DaySchedule>?
    private let firstRealtimeDays: DaysSchedule<RealtimeSchedule>?

    /// `children`: the feed's stations, when the caller already worked them out (a StopIndex has).
    /// `streets`: a map's walking network, for walks longer than those the feed stored.
    package init(_ timetable: Timetable, _ query: Query, children: StationChildren? = nil, updates: TripUpdates? = nil,
                 streets: StreetWalker? = nil) {
        t = timetable
        let schedule = DaySchedule(timetable, day: query.day)
        self.schedule = schedule
        let realtime = updates.map { RealtimeSchedule(timetable, day: query.day, updates: $0, base: schedule) }
        self.realtime = realtime
        let shifts = query.days.map { DaysSchedule<DaySchedule>.shift(from: LocalDate(dayNumber: query.day), days: $0, in: timetable.zone) }
        // The other days' runs start with the timetable's first (read once: a pass over the patterns).
        let earliest = query.days == 0...0 ? 0 : timetable.earliestTime
        func day(_ offset: Int) -> DaySchedule { offset == 0 ? schedule : DaySchedule(timetable, day: query.day + offset, earliest: earliest) }
        let acrossDays: DaysSchedule<DaySchedule>? = query.days == 0...0 || updates != nil ? nil : DaysSchedule(
            query.days.map(day), offsets: Array(query.days), shifts: shifts)
        self.acrossDays = acrossDays
        // Each day's runs with the data of that service day (SEMANTICS.md rule 8: an update's
        // start_date says its day): a delayed run of last night, tomorrow's first run canceled.
        realtimeDays = updates.flatMap { updates in
            realtime.map { today in
                DaysSchedule(query.days.map { $0 == 0 ? today : RealtimeSchedule(timetable, day: query.day + $0, updates: updates, base: day($0)) },
                             offsets: Array(query.days), shifts: shifts)
            }
        }
        let needs = query.needs
        let edges = TransferEdges(timetable, minTransfer: query.minTransfer, walkMeters: query.walkMeters,
                                  linkMeters: timetable.isCombination ? query.linkMeters : nil, children: children ?? StationChildren(timetable), streets: streets,
                                  margin: needs.margin, walkingSpeed: needs.walking.speed, stepFree: needs.walking.stepFree)
        self.edges = edges
        // The days a withholding window searches first: the first of the days, as many.
        let first = query.withheldAfter.flatMap { $0 < query.days.upperBound && needs.vias.isEmpty ? query.days.lowerBound...$0 : nil }
        func prefix<Day: Schedule>(_ all: DaysSchedule<Day>) -> DaysSchedule<Day>? {
            first.map { f in DaysSchedule(Array(all.days.prefix(f.count)), offsets: Array(all.offsets.prefix(f.count)), shifts: Array(all.shifts.prefix(f.count))) }
        }
        firstDays = first == 0...0 ? nil : acrossDays.flatMap(prefix)
        firstRealtimeDays = realtimeDays.flatMap(prefix)
        var query = Self.walkingEnds(query, edges)
        // Across days, the window starts no earlier than the query's day does, and where it has
        // no end but the day's, ends with the day's last departure from the origins.
        if query.days != 0...0 && query.after == nil { query.after = 0 }
        if query.days != 0...0 && query.endsWithTheDay { query = Self.endingWithTheDay(query, schedule, realtime) }
        self.query = query
        let filter = needs.filtersRides ? RideFilter(timetable, needs, updates: updates) : nil
        if needs.vias.isEmpty {
            (layers, viaPlanned, viaRealtime, viaAcrossDays) = (nil, nil, nil, nil)
        } else {
            let base: any Schedule = acrossDays.map { $0 as any Schedule } ?? realtimeDays.map { $0 as any Schedule } ?? schedule
            let layers = ViaLayers(stops: base.stopCount, patterns: base.patternCount, calls: base.callCount, vias: needs.vias)
            self.layers = layers
            viaPlanned = realtimeDays == nil && acrossDays == nil ? ViaSchedule(schedule, layers) : nil
            viaRealtime = realtimeDays.map { ViaSchedule($0, layers) }
            viaAcrossDays = acrossDays.map { ViaSchedule($0, layers) }
            edges.layers = layers
            filter?.layers = layers
        }
        self.filter = filter
    }

    /// `query` with the stops walked to from its origins and to its destinations added (where it
    /// asks for them and `walkMeters` allows walks): each on the walks a change takes (stored at
    /// import, on a map's streets where the feed was imported with one, or found at query time),
    /// from the named stop it is nearest on foot; a walk to a destination is the one measured from
    /// it. Seconds as a point's walks: meters at 1.2 m/s, rounded up, with no change margin.
    package static func walkingEnds(_ query: Query, _ edges: TransferEdges) -> Query {
        guard let walk = query.walkMeters, walk > 0, query.walksFromOrigins || query.walksToDestinations else { return query }
        // A via is reached by a ride or a change, never by a walk at the ends.
        let named = Set(query.origins).union(query.destinations).union(query.needs.vias.flatMap(\.stops))
        /// The stops walked to from `ends`: (seconds, meters, the end), the shortest walk each.
        func walked(from ends: [Int]) -> [Int: (seconds: Int, meters: Double, end: Int)] {
            var out: [Int: (seconds: Int, meters: Double, end: Int)] = [:]
            for end in Set(ends).sorted() {
                for (y, meters) in edges.onFoot(end) where edges.allows(walk, end, y, meters: meters) && !named.contains(y) && edges.t.isCalledAt(y) {
                    let seconds = Int((meters / query.needs.walkingSpeed).rounded(.up))
                    if out[y].map({ (meters, end) < ($0.meters, $0.end) }) ?? true { out[y] = (seconds, meters, end) }
                }
            }
            return out
        }
        var query = query
        if query.walksFromOrigins && query.access.isEmpty {
            for (y, w) in walked(from: query.origins).sorted(by: { $0.key < $1.key }) {
                query.origins.append(y)
                (query.access[y], query.accessMeters[y], query.accessFrom[y]) = (w.seconds, w.meters, w.end)
            }
        }
        if query.walksToDestinations && query.egress.isEmpty {
            for (y, w) in walked(from: query.destinations).sorted(by: { $0.key < $1.key }) {
                query.destinations.append(y)
                (query.egress[y], query.egressMeters[y], query.egressTo[y]) = (w.seconds, w.meters, w.end)
            }
        }
        return query
    }

    /// `query` without `before` ended with the day: at the last departure from its origins of
    /// the day's own runs (`lastDeparture`), a journey that one leaving later beats left out.
    static func endingWithTheDay(_ query: Query, _ schedule: DaySchedule, _ realtime: RealtimeSchedule?) -> Query {
        guard query.before == nil else { return query }
        var query = query
        let end = realtime.map { lastDeparture($0, query) } ?? lastDeparture(schedule, query)
        (query.before, query.beatenAfter) = (end, end)
        return query
    }

    /// The last departure of `schedule`'s runs that a journey from `query`'s origins can leave
    /// on (a point's walk to the stop taken off), or the window's start where there is none.
    static func lastDeparture<S: Schedule>(_ schedule: S, _ query: Query) -> Int {
        max(query.after ?? 0, schedule.departures(from: query.origins, access: query.access).max() ?? Int.min)
    }

    package func journeys() -> [Journey] { withOnFoot(walkingLeast(search(query))) }

    /// Whether its journeys may ride the runs of other days than the query's (`Query.days`).
    package var searchesAcrossDays: Bool { query.days != 0...0 }

    /// The journeys of the window up to the day's last departure, those that one leaving later
    /// beats left out (across days; else the window's): what a window from a time with no end
    /// lists at first.
    package func restOfTheDay() -> [Journey] {
        withOnFoot(walkingLeast(search(query.days == 0...0 ? query : Self.endingWithTheDay(query, schedule, realtime))))
    }

    /// One search of `query`'s window; with `withheldAfter`, two. A journey riding a run of a
    /// withheld day arrives no earlier than that day's first run leaves (`opens`), and changes
    /// at least once (its first ride leaves in the window, which the days up to `withheldAfter`
    /// hold) unless such a run leaves in the window: one of the first search's journeys that
    /// arrives by then, with no more changes, beats it wherever it leaves no later. So the
    /// second search, over every day, is of the departures after the latest such journey (none,
    /// where the day's journeys reach into the window's end), each searching only the rounds of
    /// fewer changes than a journey found leaving then or later and arriving by then
    /// (`Query.beatenThrough`).
    package func search(_ query: Query) -> [Journey] {
        // (A window the rider closed has no journeys beaten after its end: those are the day's.)
        guard let held = query.withheldAfter, held < query.days.upperBound, let before = query.before, query.beatenAfter == nil else {
            var query = query
            query.withheldAfter = nil
            return searching(query).journeys
        }
        let found = searching(query).journeys
        let opens = withheldDaysOpen(after: held), start = query.after ?? 0
        // The journeys found that arrive before a withheld day's first run leaves beat every
        // journey riding one that leaves no later with as many changes or more.
        let first = found.filter { Int64($0.arrival) <= opens }
        let beatenThrough = (0...max(0, query.maxTransfers)).map { c in first.filter { $0.transfers <= c }.map(\.departure).max() ?? start - 1 }
        let changes = opens <= Int64(before) ? 0 : 1, beaten = beatenThrough[min(changes, beatenThrough.count - 1)]
        guard beaten < before, changes == 0 || leavesFirstDays(after: beaten, by: before, query) else { return found }
        var rest = query
        (rest.after, rest.withheldAfter, rest.beatenThrough) = (max(start, beaten + 1), nil, beatenThrough)
        return Self.pareto(found + searching(rest).journeys)
    }

    /// Whether a first ride of the days a withholding window searches first leaves after `time`
    /// and by `before` (a point's walk to it taken off): where none does, no journey leaves then.
    private func leavesFirstDays(after time: Int, by before: Int, _ query: Query) -> Bool {
        func leaves<S: Schedule>(_ s: S) -> Bool { s.departures(from: query.origins, access: query.access).contains { $0 > time && $0 <= before } }
        switch firstSchedule(query) {
        case .realtimeDays(let days): return leaves(days)
        case .days(let days): return leaves(days)
        case .day: return leaves(schedule)
        case nil: return true
        }
    }

    /// What a withholding window's first search reads: the first days as real-time data has
    /// them, or as planned, or (where they are the query's day alone, as planned) `schedule`;
    /// nil with vias, whose layers withhold the days themselves.
    private enum FirstSchedule {
        case realtimeDays(DaysSchedule<RealtimeSchedule>), days(DaysSchedule<DaySchedule>), day
    }

    private func firstSchedule(_ query: Query) -> FirstSchedule? {
        if let firstRealtimeDays { return .realtimeDays(firstRealtimeDays) }
        if let firstDays { return .days(firstDays) }
        return layers == nil && acrossDays != nil && query.days.lowerBound == 0 && query.withheldAfter == 0 ? .day : nil
    }

    /// The earliest a run of a day after `held` may leave, on the query's clock: the next day's
    /// start and the timetable's first run (`Timetable.earliestTime`: 05:00 on a network whose
    /// night has no service, so that a journey of the day arriving by then beats what rides the
    /// next day).
    private func withheldDaysOpen(after held: Int) -> Int64 {
        let day = LocalDate(dayNumber: query.day), next = held + 1
        let shift = Int64(DaysSchedule<DaySchedule>.shift(from: day, days: next, in: t.zone))
        func earliest<Day: Schedule>(_ days: DaysSchedule<Day>) -> Int32 {
            days.days.indices.filter { days.offsets[$0] >= next }.map { days.days[$0].earliestDeparture }.min() ?? 0
        }
        return shift + Int64(realtimeDays.map(earliest) ?? acrossDays.map(earliest) ?? 0)
    }

    /// The journeys no other beats (leaves no earlier, arrives no later, changes no more), one
    /// of each (departure, arrival, changes), by departure, arrival and changes.
    static func pareto(_ journeys: [Journey]) -> [Journey] {
        // Latest to leave first: whatever beats a journey comes before it, and the least arrival
        // over each count of changes so far says whether one does (the first of equals stays).
        let order = journeys.indices.sorted { a, b in
            let x = journeys[a], y = journeys[b]
            return (-x.departure, x.arrival, x.transfers, a) < (-y.departure, y.arrival, y.transfers, b)
        }
        var least = [Int](repeating: Int.max, count: (journeys.map(\.transfers).max() ?? 0) + 1)
        var kept: [Journey] = []
        for k in order {
            let j = journeys[k], changes = max(0, j.transfers)
            guard (least[0...changes].min() ?? Int.max) > j.arrival else { continue }
            least[changes] = j.arrival
            kept.append(j)
        }
        return kept.sorted { ($0.departure, $0.arrival, $0.transfers) < ($1.departure, $1.arrival, $1.transfers) }
    }

    /// The earliest arrival at the end of `query`'s journeys leaving in its window, and when the
    /// one with the fewest changes found leaves: one RAPTOR search from the window's start, no
    /// whole range.
    package func earliestArrival(_ query: Query) -> (arrival: Int, departure: Int, transfers: Int?)? {
        var query = query
        query.withheldAfter = nil
        return searching(query, leaving: Int32(clamping: query.after ?? 0)).earliest.map { (Int($0.arrival), Int($0.departure), $0.transfers.map(Int.init)) }
    }

    /// The `count` journeys of the window that arrive first: by arrival, then fewer changes, then
    /// the later departure (`gtfs trips --earliest`). The first arrival comes from one RAPTOR
    /// search (`earliestArrival`), with a journey of the fewest changes arriving then. The one to
    /// give leaves no earlier than that one, and by the arrival: a range search of that span
    /// alone, with nothing arriving later searched for, finds it (of a Pareto set, the latest
    /// to leave), and stops at the first departure, latest first, with a journey arriving then
    /// with as few changes (the earlier ones were most of that search on the national network's
    /// slowest pairs, docs/performance.md). For more, the span grows from the window's start as
    /// `journeys(limit:)`'s does: no journey leaving after the span's end arrives before it, so
    /// once `count` arrive within it they are the first.
    package func earliest(count: Int = 1) -> [Journey] {
        var query = query
        query.sharedBounds = SharedBounds()
        let order = { (a: Journey, b: Journey) in (a.arrival, a.transfers, -a.departure) < (b.arrival, b.transfers, -b.departure) }
        // The journey on foot competes by the same order (where it arrives first, it is the answer).
        guard count > 0, let (arrival, leaves, transfers) = earliestArrival(query) else { return count > 0 ? withOnFoot([]) : [] }
        let start = query.after ?? 0
        if count == 1 {
            var part = query
            part.after = max(start, leaves)
            part.before = min(query.before ?? arrival, arrival)
            part.arrivingBy = arrival
            // (nil: its journey could not be followed back, and the count is not known.)
            part.enoughOnceFound = transfers.map { (arrival, $0) }
            if let best = search(part).min(by: order) { return Array(withOnFoot(walkingLeast([best])).sorted(by: order).prefix(1)) }
        }
        return first(count, by: order, span: max(arrival - start, 3600))
    }

    /// One search of `query`, on the schedule as planned or as realtime data has it, through the
    /// vias' layers where there are any (four concrete types, so each search is compiled for its
    /// own): the window's journeys, or with `leaving` the earliest arrival only.
    private func searching(_ query: Query, leaving: Int32? = nil) -> (journeys: [Journey], earliest: (arrival: Int32, departure: Int32, transfers: Int32?)?) {
        if let layers {
            let layered = layers.layered(query), noAlighting = layers.everyLayer(query.origins)
            if let viaAcrossDays {
                let (found, earliest) = Self.run(viaAcrossDays, layered, edges, filter, noAlighting, leaving)
                return (found.map { layers.unlayered($0, basePattern: viaAcrossDays.basePattern) }, earliest)
            }
            if let viaRealtime {
                let (found, earliest) = Self.run(viaRealtime, layered, edges, filter, noAlighting, leaving)
                return (found.map { layers.unlayered($0, basePattern: viaRealtime.basePattern) }, earliest)
            }
            guard let viaPlanned else { return ([], nil) }
            let (found, earliest) = Self.run(viaPlanned, layered, edges, filter, noAlighting, leaving)
            return (found.map { layers.unlayered($0, basePattern: viaPlanned.basePattern) }, earliest)
        }
        if query.withheldAfter != nil && leaving == nil, let first = firstSchedule(query) {
            switch first {
            case .realtimeDays(let days): return Self.run(days, query, edges, filter, nil, nil)
            case .days(let days): return Self.run(days, query, edges, filter, nil, nil)
            case .day: return Self.run(schedule, query, edges, filter, nil, nil)
            }
        }
        if let acrossDays { return Self.run(acrossDays, query, edges, filter, nil, leaving) }
        if let realtimeDays { return Self.run(realtimeDays, query, edges, filter, nil, leaving) }
        return Self.run(schedule, query, edges, filter, nil, leaving)
    }

    private static func run<S: Schedule>(_ schedule: S, _ query: Query, _ edges: TransferEdges, _ filter: RideFilter?, _ noAlighting: [Int]?,
                                         _ leaving: Int32?) -> (journeys: [Journey], earliest: (arrival: Int32, departure: Int32, transfers: Int32?)?) {
        var search = RangeSearch(schedule: schedule, query: query, edges: edges, filter: filter, noAlighting: noAlighting, leaving: leaving)
        return leaving == nil ? (search.run(), nil) : ([], search.earliestArrival())
    }

    /// Every stop a ride reaches from the origins, leaving in the query's window: its earliest
    /// arrival by vehicle, and the fewest rides that make it (`gtfs reach`). One range search with
    /// no destination: its labels are never reset between departures, so once the earliest
    /// departure is searched they hold, per stop and round, the best arrival over all of them.
    /// The origins walked to (from a point, or from the stops named) are reached on foot, leaving
    /// at the window's start: 0 rides (an origin is never alighted at).
    /// `by`: nothing arriving later is wanted (nor searched).
    package func reach(by arrival: Int? = nil) -> [(stop: Int, arrival: Int, rides: Int)] {
        var query = query
        if let arrival { query.arrivingBy = min(query.arrivingBy ?? arrival, arrival) }
        if let acrossDays { return reach(on: acrossDays, query) }
        if let realtimeDays { return reach(on: realtimeDays, query) }
        return reach(on: schedule, query)
    }

    private func reach<S: Schedule>(on schedule: S, _ query: Query) -> [(stop: Int, arrival: Int, rides: Int)] {
        var search = RangeSearch(schedule: schedule, query: query, edges: edges, filter: filter)
        _ = search.run()
        let state = search.state, origins = Set(query.origins)
        var out: [(stop: Int, arrival: Int, rides: Int)] = []
        for stop in 0..<schedule.stopCount where state.slotOf[stop] >= 0 && !origins.contains(stop) {
            let slot = Int(state.slotOf[stop])
            var best: (arrival: Int32, rides: Int32)?
            for round in 1..<state.stride {
                let a = state.arrivals[slot + round], legs = state.labels[slot + round].legs
                guard a != SearchState.unreached, legs > 0 else { continue }
                if best.map({ (a, legs) < ($0.arrival, $0.rides) }) ?? true { best = (a, legs) }
            }
            if let best { out.append((stop, Int(best.arrival), Int(best.rides))) }
        }
        for (stop, seconds) in query.access where stop >= 0 && stop < schedule.stopCount {
            out.append((stop, (query.after ?? 0) + seconds, 0))
        }
        return out.sorted { ($0.arrival, $0.stop) < ($1.arrival, $1.stop) }
    }

    /// The first `limit` journeys of the window (by departure), searching only as much of it as
    /// makes them certain. A journey (τ, a) can be beaten only by one leaving in (τ, a], so the
    /// answer for departures up to `until` is right for every journey arriving by `until`: when
    /// the first `limit` of that answer all do, they are the first `limit` of the whole window.
    /// Otherwise the searched span doubles (an hour, then two, …) and the search runs again.
    package func journeys(limit: Int) -> [Journey] { first(limit, span: 3600) }

    /// The first `count` journeys of the window's answer (by departure, or by `order`), searched
    /// over spans from the window's start that double from `initial`: certain once `count` of
    /// them arrive within the span searched, as no journey leaving after it arrives before it.
    private func first(_ count: Int, by order: ((Journey, Journey) -> Bool)? = nil, span initial: Int) -> [Journey] {
        let start = query.after ?? 0
        // By departure, a journey leaving after the span may leave within it as the same ride walking least.
        let advance = order == nil ? sameRideAdvance() : 0
        var span = initial
        while true {
            let end = start + span
            var part = query
            let whole = span >= 7 * 86_400 || (query.before.map { end >= $0 } ?? false)
            if !whole { part.before = end }
            // The journey on foot (first, or by `order`) is one of the `count`; it leaves at the
            // window's start whatever the span, so only the rides make the answer certain.
            var found = withOnFoot(walkingLeast(search(part)))
            if let order { found.sort(by: order) }
            let first = Array(found.prefix(count))
            if whole || (first.count == count && first.allSatisfy { $0.isOnFoot || $0.arrival <= end && $0.departure <= end - advance }) { return first }
            span *= 2
        }
    }
}

/// A ride as real-time data leaves it: the instance its run stands for, and what the data says
/// of its trip.
extension Router.Leg {
    /// The real-time instance the ride's run stands for, if any.
    package func instance(_ updates: TripUpdates?) -> TripUpdates.Instance? {
        guard let updates, instance >= 0, instance < updates.instances.count else { return nil }
        return updates.instances[instance]
    }

    /// Its route (-1: an added trip on a route the feed does not have, or a walk).
    package func route(_ t: Timetable, _ updates: TripUpdates?) -> Int {
        if let known = instance(updates) { return known.route }
        guard let trip, trip >= 0, trip < t.tripCount else { return -1 }
        return t.route(ofTrip: trip)
    }

    /// Its trip_id (an added trip's, where the data names it) and headsign; "" for a walk.
    package func tripID(_ t: Timetable, _ updates: TripUpdates?) -> String { instance(updates)?.tripID ?? trip.map { t.tripIDs[$0] } ?? "" }
    package func headsign(_ t: Timetable, _ updates: TripUpdates?) -> String { instance(updates)?.headsign ?? trip.map { t.headsign($0) } ?? "" }
}

extension TripUpdates {
    /// These updates with a ride's run hidden (`hiding(trip:start:instance:day:in:)`): what the
    /// journeys after a missed connection leave out. `day`: the query's service day (the ride's
    /// run may be of another).
    package func hiding(_ ride: Router.Leg, day: Int, in t: Timetable) -> TripUpdates {
        hiding(trip: ride.trip ?? -1, start: ride.runStart, instance: ride.instance, day: day + ride.dayOffset, in: t)
    }
}

/// Lower bounds to one query's destinations, built by the first search that needs them
/// (`Router.Query.sharedBounds`). A bound holds for any window and cap of the same ends.
package final class SharedBounds {
    package var bounds: TargetBounds?
    package var onGraph = false

    package init() {}
}
