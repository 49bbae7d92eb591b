import Foundation
import TransitSupport

/// The range search itself, its steps named as in the RAPTOR paper and in nigiri's `raptor.h`
/// and R5's `FastRaptorWorker`: for each departure at the origin, latest first, rounds of
/// `collectBoardings` (round 1: the origin at τ; then `relaxTransfers` from the stops the last
/// round reached by a ride), `scanPatterns` (ride each queued pattern from its earliest marked
/// position), and at the end `collectJourneys`. A journey (τ, a, k − 1 changes) is kept when
/// its round improved on both the later departures and the journeys with fewer changes.
///
/// No `Timetable` by value here (the edges hold it): the search is a struct that its mutating
/// methods pass to the others, and a 4 KB timetable in it made each boarding a 4 KB copy.
package struct RangeSearch<S: Schedule> {
    package let schedule: S
    package let query: Router.Query
    package let edges: TransferEdges
    package let rounds: Int
    package let state: SearchState
    /// Each round's best arrival at a destination, over the departures already processed.
    package var previousBest: [Int32]
    package var found: [Router.Journey] = []

    // Where each stop may be boarded this round: a list per stop (`state.head`), linked through
    // one flat array of entries.
    package var entries: [Entry] = []

    /// A way to board at a stop this round: the next entry of the same stop (-1: none) and the source.
    package struct Entry {
        package var next: Int32
        package var source: Source
    }
    package var touched: [Int] = []
    // Patterns to scan this round, each from its earliest position with a boarding
    // (`state.queued`) to its last (`state.queuedLast`: past it, a run that can no longer
    // improve anything ends the scan).
    package var queue: [Int] = []
    /// Which run each boarding may take (`Boarding`).
    package var boarding: Boarding<S>
    package var stamp: Int32 = 0
    /// Stops reached by a ride in the last round, and stops whose label changed in it.
    package var rideMarked: [Int] = []
    package var changed: [Int] = []
    /// Class arrivals, listed per stop from `arrivalHead`, and those the last round improved.
    package var arrivals: [Arrival] = []
    package var arrivalsMarked: [Int] = []
    /// The earliest arrival at a destination in this departure's rounds so far (with walks to a
    /// point: the earliest arrival there, less the shortest of those walks, so that no arrival
    /// that could still beat it is cut).
    package var destinationBound = SearchState.unreached
    /// Per stop: the walk from the point to it (an origin) and from it to the point (a
    /// destination), in seconds; zeros when the ends are stops.
    package let accessOf: Zeroed<Int32>
    package let egressOf: Zeroed<Int32>
    package let minEgress: Int32
    /// Lower bounds of the seconds left to the destination, from each stop and from boarding
    /// each pattern at each position (`TargetBounds`), where they pay for themselves.
    package var bounds = TargetBounds.none
    /// In a withholding window's searches: the fewest rides from each stop to a destination
    /// (`FewestRides`; empty: not counted), and the rides the departure being searched may take
    /// (fewer than `rounds` where `Router.Query.beatenThrough` says so).
    private var fewestRides: [Int32] = []
    private var ridesAllowed = Int.max
    /// The rider's needs where they leave stops out (asked at each boarding and alighting);
    /// where they leave rides out, `boarding` asks them.
    package let stopFilter: RideFilter?

    /// A search of one departure, from this time (`earliestArrival`); nil: the range search.
    package let leaving: Int32?
    /// The latest any run of the day sets down at a destination, plus the walk from there to the
    /// point: no journey arrives later, so from the first round nothing that would is searched
    /// (a search across a country that finds no journey otherwise spreads over all of it).
    package let latestEnd: Int64?
    /// Days after this are not ridden (`Router.Query.withheldAfter`).
    private let withheldAfter: Int

    /// What the search was made with, for another of the same (`earliestArrival`'s capped tries).
    private let filter: RideFilter?
    private let noAlighting: [Int]?
    /// Without vias' layers, an origin stop may be alighted at (a stop walked to from the start
    /// may lie on the way: the journey walks on from it or changes there, issue 65), as any
    /// stop; with them, it is never alighted at.
    private let originsAlighted: Bool
    /// Whether `bounds` are the Dijkstra's on the import's graph (`TargetBounds.graph`).
    private var boundsOnGraph = false

    /// A cap on arrivals known beforehand (`Router.Query.arrivingBy`, the day's last arrival):
    /// nothing arriving later is searched.
    /// (Asked at every departure: no array made for the two values.)
    package var searchCap: Int64? {
        let asked = query.arrivingBy.map(Int64.init)
        guard let latestEnd else { return asked }
        return min(asked ?? latestEnd, latestEnd)
    }

    /// `noAlighting`: the origins in every layer, where the schedule is layered (`ViaLayers`).
    /// `leaving`: a search for `earliestArrival` from then, not a range search.
    package init(schedule: S, query: Router.Query, edges: TransferEdges, filter: RideFilter? = nil, noAlighting: [Int]? = nil, leaving: Int32? = nil) {
        (self.filter, self.noAlighting, originsAlighted) = (filter, noAlighting, noAlighting == nil)
        let rideFilter = filter.flatMap { $0.needs.filtersRides ? $0 : nil }
        stopFilter = filter.flatMap { $0.needs.wheelchair ? $0 : nil }
        self.leaving = leaving
        withheldAfter = query.withheldAfter ?? Int.max
        // Leaving at a time, the first ride may be boarded up to `before` (a walk to it counted).
        let wait = leaving.map { time in query.before.map { Int32(clamping: max(Int64($0) - Int64(time), -1)) } ?? Int32.max }
        boarding = Boarding(schedule: schedule, edges: edges, filter: rideFilter,
                            rideableRuns: rideFilter == nil ? nil : RideableRuns(patterns: schedule.patternCount), runHint: RunHints(schedule),
                            firstRideWait: wait)
        self.schedule = schedule
        self.query = query
        self.edges = edges
        let s = schedule.stopCount
        rounds = query.maxTransfers + 1
        state = SearchState(stops: s, patterns: schedule.patternCount, rounds: rounds)
        for d in query.destinations where d >= 0 && d < s { state.isDestination[d] = true }
        for o in noAlighting ?? query.origins where o >= 0 && o < s { state.noAlighting[o] = true }
        previousBest = [Int32](repeating: SearchState.unreached, count: rounds + 1)
        (accessOf, egressOf) = (state.accessOf, state.egressOf)
        for (stop, seconds) in query.access where stop >= 0 && stop < s { accessOf[stop] = Int32(clamping: seconds) }
        for (stop, seconds) in query.egress where stop >= 0 && stop < s { egressOf[stop] = Int32(clamping: seconds) }
        let egress = state.egressOf
        minEgress = query.destinations.filter { $0 >= 0 && $0 < s }.map { egress[$0] }.min() ?? 0
        latestEnd = Self.latestEnd(schedule, destinations: query.destinations, egress: egress)
    }

    /// Whether being at `y` at `time` might still beat the best arrival known (no way from `y`
    /// is quicker than its bound).
    @inline(__always) package func promising(_ y: Int, _ time: Int64) -> Bool {
        time + Int64(bounds.stop(y)) < Int64(destinationBound)
    }

    /// Whether boarding pattern `q` at position `i`, ready at `time`, might.
    @inline(__always) package func promising(pattern q: Int, _ i: Int, _ time: Int64) -> Bool {
        time + Int64(bounds.ride(q, i)) < Int64(destinationBound)
    }

    /// The earliest a ride on pattern `q` from position `i` can leave, for a rider there at
    /// `time` (`Int32.max`: none can). In a search across days, a copy of another day's pattern
    /// leaves no earlier than its first run, and not at all once its last has left: the next
    /// days' copies are not scanned where today's journeys are found, nor the day before's
    /// after its runs past midnight.
    @inline(__always) package func leaving(_ q: Int, _ i: Int, ready time: Int64) -> Int64 {
        let offset = schedule.dayOffset(q)
        guard offset != 0 else { return time }
        if offset > withheldAfter { return Int64(Int32.max) }
        // No run of a later day leaves before that day starts (`opens`): most copies end here,
        // their runs never worked out.
        if offset > 0, case let start = max(time, schedule.opens(q)), !promising(pattern: q, i, start) { return start }
        let runs = schedule.runCount(q)
        guard runs > 0, Int64(schedule.departure(q, runs - 1, i)) >= time else { return Int64(Int32.max) }
        return offset > 0 ? max(time, Int64(schedule.departure(q, 0, i))) : time
    }

    /// An arrival at destination stop `d` as an arrival at the end (the point, when there is one).
    @inline(__always) package func atEnd(_ d: Int, _ arrival: Int32) -> Int32 {
        arrival == SearchState.unreached ? arrival : Int32(clamping: Int64(arrival) + Int64(egressOf[d]))
    }

    package mutating func run() -> [Router.Journey] {
        // Slots are Int32: no real feed comes near.
        guard schedule.stopCount < Int(Int32.max) / (rounds + 2) else { return [] }
        let (departures, calls) = originDepartures()
        buildBounds(departures: departures.count, earliest: departures.last?.time)
        // A withholding window's searches (the second covers three days' runs): far pairs change
        // up to the limit, so the rides left prune even where no departure's rounds are cut.
        if (query.beatenThrough != nil || query.withheldAfter != nil) && noAlighting == nil {
            fewestRides = FewestRides.rides(searching: schedule, destinations: query.destinations, edges: edges, limit: rounds)
        }
        if let end = query.beatenAfter { searchAfterTheWindow(Int32(clamping: end + 1)) }
        for (tau, range) in departures {
            let needed = roundsNeeded(leaving: tau)
            // (Departures come latest first, and the rounds they need never grow.)
            guard needed > 0, query.origins.contains(where: { reachesInTime($0, round: 1, rides: needed) }) else { break }
            ridesAllowed = needed
            let before = found.count
            rounds(tau, departing: calls[range], through: needed)
            collectJourneys(tau, through: needed)
            // Latest first: the first departure with a journey that is enough is the latest to
            // leave of those, and no earlier one can beat it (`Router.Query.enoughOnceFound`).
            if let enough = query.enoughOnceFound,
               found[before...].contains(where: { $0.arrival <= enough.arrival && $0.transfers <= enough.transfers }) { break }
        }
        found.sort { ($0.departure, $0.arrival, $0.transfers) < ($1.departure, $1.arrival, $1.transfers) }
        return found
    }

    /// The rounds a departure at `tau` needs (`Router.Query.beatenThrough`): one ride more than
    /// the fewest changes a journey found leaving then or later makes, arriving before any this
    /// search may add. Departures come latest first, so the count never grows: a round left out
    /// is never read again.
    @inline(__always) private func roundsNeeded(leaving tau: Int32) -> Int {
        guard let through = query.beatenThrough else { return rounds }
        return min(rounds, through.firstIndex { $0 >= Int(tau) } ?? rounds)
    }

    /// The rounds a departure searching `through` a round reads (all of them for nil).
    @inline(__always) package func searched(through last: Int?) -> ClosedRange<Int> { 1...max(1, min(rounds, last ?? rounds)) }

    /// Whether boarding at `y` in `round` may reach a destination within `rides` rides.
    @inline(__always) private func reachesInTime(_ y: Int, round: Int, rides: Int) -> Bool {
        fewestRides.isEmpty || (y >= 0 && y < fewestRides.count && Int(fewestRides[y]) + round - 1 <= rides)
    }

    /// Journeys leaving from `time` on, their first ride any run: searched first and kept out of
    /// the answer, their labels stay, so that a journey of the window that one leaving after it
    /// beats (leaves later, arrives no later, rides no more) is not kept, as one leaving later in
    /// the window would beat it (`Router.Query.beatenAfter`).
    private mutating func searchAfterTheWindow(_ time: Int32) {
        let inWindow = boarding
        boarding = inWindow.waiting(Int32.max)
        rounds(time, departing: originCalls().map { ($0.pattern, $0.position) }[...])
        boarding = inWindow
        collectJourneys(time, keeping: false)
    }

    /// The earliest arrival at the end of a journey leaving at or after `leaving` (and, with the
    /// query's `before`, by then), nil where none arrives: plain RAPTOR, one departure whose first
    /// ride is any run the rider can catch (`Boarding.firstRideWait`). With it, when the journey
    /// of the fewest rides arriving then leaves: no journey arriving then with as few rides
    /// leaves earlier and beats it, and its count of changes (nil where the journey could not be
    /// followed back).
    package mutating func earliestArrival() -> (arrival: Int32, departure: Int32, transfers: Int32?)? {
        guard let time = leaving, schedule.stopCount < Int(Int32.max) / (rounds + 2) else { return nil }
        buildBounds(departures: 1, earliest: time)
        // On the graph's bounds, first with arrivals capped at a few times the least a journey
        // can take (the bound from the origins): a journey across a country searched with no cap
        // spreads over every stop it can reach before its arrival is known, while the cap prunes
        // from the first round. A try that finds one has found the earliest (nothing arrives
        // earlier than a journey found under a cap); one that finds none only cost its search.
        if boundsOnGraph {
            let least = query.origins.filter { $0 >= 0 && $0 < schedule.stopCount }.map { Int64(accessOf[$0]) + Int64(bounds.stop($0)) }.min() ?? 0
            for factor in Self.capFactors {
                let cap = Int64(time) + Int64(Double(least) * factor) + Self.capSlack
                guard cap < searchCap ?? .max else { break }
                var capped = query
                capped.arrivingBy = Int(cap)
                var attempt = RangeSearch(schedule: schedule, query: capped, edges: edges, filter: filter, noAlighting: noAlighting, leaving: time)
                attempt.bounds = bounds
                if let found = attempt.earliestFrom(time) { return found }
            }
        }
        return earliestFrom(time)
    }

    /// `earliestArrival`'s caps: the least a journey takes times each, plus `capSlack` seconds.
    /// The ratio of the earliest arrival's journey to that least, on the national network's random
    /// pairs, has its median at 1.7 and its 90th percentile at 2.7 (docs/performance.md).
    /// Tried on 300 pairs: (1.5, 2.5), (1.7, 2.7), (2, 3.2) and (2.5, 4) with 5 to 15 minutes
    /// gave p95s within the machine's noise (±15 %) of each other.
    static var capFactors: [Double] { [2.0, 3.2] }
    static var capSlack: Int64 { 900 }

    /// One search from `time` with the bounds built: the earliest arrival, and when its journey
    /// of the fewest rides leaves and its changes.
    private mutating func earliestFrom(_ time: Int32) -> (arrival: Int32, departure: Int32, transfers: Int32?)? {
        rounds(time, departing: originCalls().map { ($0.pattern, $0.position) }[...])
        var best: (arrival: Int32, round: Int, stop: Int)?
        for d in query.destinations where d >= 0 && d < schedule.stopCount {
            for round in 1...rounds {
                let a = atEnd(d, state.arrival(d, round))
                if a != SearchState.unreached && (a, round) < (best?.arrival ?? .max, best?.round ?? .max) { best = (a, round, d) }
            }
        }
        guard let best else { return nil }
        // When its first ride's journey leaves: the ride's departure, less the walk to it.
        var departure = time, transfers: Int32?
        if let journey = reconstruct(best.stop, round: best.round, departure: time) {
            transfers = Int32(clamping: journey.transfers)
            if let ride = journey.legs.first(where: \.isRide) {
                departure = max(time, Int32(clamping: Int64(ride.departure.predicted) - Int64(accessOf[ride.from])))
            }
        }
        return (best.arrival, departure, transfers)
    }

    /// The lower bounds to the destinations: the Dijkstra's on the day's runs where they pay for
    /// themselves; else the Dijkstra's on the import's graph of least hops, no farther than the
    /// search can use (from `earliest`, its first departure, to the cap); else straight lines'
    /// (where the schedule has them).
    private mutating func buildBounds(departures: Int, earliest: Int32?) {
        let s = schedule.stopCount, egressOf = egressOf, minEgress = minEgress
        let destinations = query.destinations.filter { $0 >= 0 && $0 < s }
        guard !destinations.isEmpty else { return }
        if let shared = query.sharedBounds, let built = shared.bounds {
            (bounds, boundsOnGraph) = (built, shared.onGraph)
            return
        }
        let starts = destinations.map { ($0, egressOf[$0] - minEgress) }
        // Nothing arrives after the cap, and no label is earlier than the first departure.
        let limit = searchCap.flatMap { cap in earliest.map { cap - Int64(minEgress) - Int64($0) } } ?? .max
        let dayGraphPays = TargetBounds.worthBuilding(schedule, departures: departures)
        let graph = query.graphBoundsFirst || !dayGraphPays ? schedule.graphBounds(edges: edges, destinations: starts, within: limit) : nil
        if let graph {
            bounds = graph
            boundsOnGraph = true
        } else if dayGraphPays {
            bounds = schedule.targetBounds(edges: edges, destinations: starts)
        } else {
            bounds = schedule.straightLineBounds(destinations: destinations, changes: query.maxTransfers)
        }
        if let shared = query.sharedBounds { (shared.bounds, shared.onGraph) = (bounds, boundsOnGraph) }
    }

    /// One departure's rounds, up to `last`: leaving the origins at `tau` on the patterns `departing`.
    mutating func rounds(_ tau: Int32, departing: ArraySlice<(pattern: Int, position: Int)>, through last: Int? = nil) {
        // Emptied, not replaced: the lists keep their memory from one departure to the next.
        rideMarked.clear()
        changed.clear()
        arrivalsMarked.clear()
        destinationBound = searchCap.map { Int32(clamping: $0 + 1 - Int64(minEgress)) } ?? SearchState.unreached
        for round in searched(through: last) {
            carryOver(round)
            tightenBound(round)
            collectBoardings(round, tau: tau)
            if touched.isEmpty { break }
            queuePatterns(round, departing: departing)
            scanPatterns(round)
            if rideMarked.isEmpty && arrivalsMarked.isEmpty && round > 1 { break }
        }
    }

    /// Labels never get worse with another round: what changed last round carries into this one.
    package mutating func carryOver(_ round: Int) {
        for stop in changed {
            let k = Int(state.slotOf[stop]) + round
            if state.arrivals[k - 1] < state.arrivals[k] {
                state.arrivals[k] = state.arrivals[k - 1]
                state.labels[k] = state.labels[k - 1]
            }
        }
        stamp &+= 1
        var kept = 0
        for index in changed.indices {
            let stop = changed[index]
            guard state.changedStamp[stop] != stamp else { continue }
            state.changedStamp[stop] = stamp
            changed[kept] = stop
            kept += 1
        }
        changed.removeLast(changed.count - kept)
    }

    /// Target pruning: a journey of this round arriving no earlier than the destination's label
    /// (a later departure's, with as many rides or fewer) is beaten, and so is every stop reached
    /// at or after that time.
    package mutating func tightenBound(_ round: Int) {
        for d in query.destinations where d >= 0 && d < schedule.stopCount {
            destinationBound = min(destinationBound, Int32(clamping: Int64(atEnd(d, state.arrival(d, round))) - Int64(minEgress)))
        }
    }

    /// Where trips may be boarded this round, and from when: the origins at exactly τ in round
    /// 1; afterwards the changes out of the stops the last round reached by a ride.
    package mutating func collectBoardings(_ round: Int, tau: Int32) {
        for y in touched { state.head[y] = -1; state.exactEntryAt[y] = -1 }
        entries.clear()
        touched.clear()
        if round == 1 {
            let start = TransferEdges.Edge(to: -1, lowerBound: 0, walkSeconds: -1, exact: true)
            for o in query.origins where o >= 0 && o < schedule.stopCount {
                let ready = Int32(clamping: Int64(tau) + Int64(accessOf[o]))
                addBoarding(at: o, Source(from: -1, ready: ready, edge: start, reached: ready, fromTrip: -1))
            }
        } else {
            relaxTransfers(round)
        }
    }

    package mutating func relaxTransfers(_ round: Int) {
        for x in rideMarked {
            let label = Int(state.slotOf[x]) + round - 1
            let reached = state.arrivals[label]
            let fromTrip = tripOf(state.labels[label])
            for e in edges.edges(x) {
                let y = Int(e.to)
                let ready = Int64(reached) + Int64(e.lowerBound)
                guard promising(y, ready), reachesInTime(y, round: round, rides: ridesAllowed) else { continue }
                if e.exact {
                    // Ready no earlier than a boarding already tried at y in this round (now or
                    // for a later departure): nothing new can come of it.
                    let k = state.slot(y) + round
                    guard ready < Int64(state.bestReady[k]) else { continue }
                    state.bestReady[k] = Int32(ready)
                }
                addBoarding(at: y, Source(from: x, ready: Int32(ready), edge: e, reached: reached, fromTrip: fromTrip))
            }
        }
        // Class arrivals the last round improved: only the changes whose time depends on the
        // trip (an exact change is no sooner from a later arrival than from the stop's label).
        for index in arrivalsMarked {
            let arrival = arrivals[index], x = Int(arrival.stop)
            // The arrival that is the stop's label was relaxed above.
            let slot = Int(state.slotOf[x])
            if slot >= 0 && state.markedStamp[x] == stamp - 1 && state.arrivals[slot + round - 1] == arrival.time
                && state.labels[slot + round - 1].pattern == arrival.label.pattern && state.labels[slot + round - 1].run == arrival.label.run {
                continue
            }
            let fromTrip = tripOf(arrival.label)
            for e in edges.edges(x) where !e.exact {
                let ready = Int64(arrival.time) + Int64(e.lowerBound)
                guard promising(Int(e.to), ready), reachesInTime(Int(e.to), round: round, rides: ridesAllowed) else { continue }
                addBoarding(at: Int(e.to), Source(from: x, ready: Int32(ready), edge: e, arrival: Int32(index),
                                                  reached: arrival.time, fromTrip: fromTrip))
            }
        }
    }

    /// A boarding at `y`. Of the changes whose time is exact, only the earliest ready is kept:
    /// it catches every run a later one could (but the run it arrived on, which the earlier
    /// rounds already rode to every stop after), so one search per stop serves them all.
    package mutating func addBoarding(at y: Int, _ source: Source) {
        if let stopFilter, !stopFilter.allows(stop: y) { return }
        if state.head[y] < 0 { touched.append(y) }
        if source.edge.exact && source.arrival < 0 {
            let known = Int(state.exactEntryAt[y])
            if known >= 0 {
                if source.ready < entries[known].source.ready { entries[known].source = source }
                return
            }
            state.exactEntryAt[y] = Int32(entries.count)
        }
        entries.append(Entry(next: state.head[y], source: source))
        state.head[y] = Int32(entries.count - 1)
    }

    package mutating func queuePatterns(_ round: Int, departing: ArraySlice<(pattern: Int, position: Int)>) {
        func add(_ q: Int, _ i: Int) {
            if state.queued[q] < 0 {
                queue.append(q)
                state.queued[q] = Int32(i)
                state.queuedLast[q] = Int32(i)
            } else {
                state.queued[q] = min(state.queued[q], Int32(i))
                state.queuedLast[q] = max(state.queuedLast[q], Int32(i))
            }
        }
        if round == 1 {
            for (q, i) in departing { add(q, i) }
        } else {
            for y in touched {
                // The earliest any source is ready here: a pattern that even then cannot reach the
                // destination before the best arrival known is not scanned from here.
                var ready = Int64(SearchState.unreached), entry = Int(state.head[y])
                while entry >= 0 {
                    ready = min(ready, Int64(entries[entry].source.ready))
                    entry = Int(entries[entry].next)
                }
                for k in schedule.calls(at: y) {
                    let (q, i) = schedule.call(k)
                    if promising(pattern: q, i, leaving(q, i, ready: ready)) { add(q, i) }
                }
            }
        }
    }

    /// Ride each queued pattern from its first position with a boarding: alight where that
    /// improves a stop, and at each boarding switch to an earlier run when one can be caught.
    package mutating func scanPatterns(_ round: Int) {
        // The last round's ride-marked stops were relaxed already: this scan's take their place.
        rideMarked.clear()
        classMarked.clear()
        let boarding = boarding
        for q in queue {
            let startPosition = Int(state.queued[q]), lastBoarding = Int(state.queuedLast[q])
            state.queued[q] = -1
            let stops = schedule.stops(of: q), flags = schedule.flags(of: q), length = stops.count
            // A pattern found damaged where read has no stops.
            guard startPosition < length else { continue }
            var current = -1
            // The ridden run's (arrival, departure) pairs, read in place: its day's times, which
            // `shift` puts on the search's clock (0 but in a search across days).
            var ridden = UnsafeBufferPointer<Int32>(start: nil, count: 0)
            let shift = schedule.timeShift(q)
            var boarded = SearchState.Label()
            for i in startPosition..<length {
                let y = Int(stops[i])
                if i > lastBoarding {
                    // No boarding ahead: the run ridden is all there is, its arrivals only grow,
                    // and (where every run's times rise) so does the least it could still reach.
                    if current < 0 || ridden[2 * i] &+ shift >= destinationBound || (bounds.rising && !promising(y, Int64(ridden[2 * i] &+ shift))) { break }
                }
                // Alighting: only where something before the best arrival known can come of it.
                if current >= 0 && Timetable.canAlight(flags[i]) && (originsAlighted || !state.noAlighting[y]) && promising(y, Int64(ridden[2 * i] &+ shift))
                    && stopFilter?.allows(stop: y) ?? true {
                    let a = ridden[2 * i] &+ shift
                    if hasFromRules(y) {
                        var label = boarded
                        label.alightPosition = Int32(i)
                        keepClassArrival(at: y, round: round, time: a, trip: schedule.trip(q, current), label: label)
                    }
                    if a < state.arrival(y, round) {
                        let k = state.slot(y) + round
                        state.arrivals[k] = a
                        var label = boarded
                        label.alightPosition = Int32(i)
                        state.labels[k] = label
                        if state.markedStamp[y] != stamp { state.markedStamp[y] = stamp; rideMarked.append(y) }
                        if state.changedStamp[y] != stamp { state.changedStamp[y] = stamp; changed.append(y) }
                        // In 64 bits: a damaged file's times may lie near the ends of Int32.
                        if state.isDestination[y] { destinationBound = min(destinationBound, Int32(clamping: Int64(a) + Int64(egressOf[y]) - Int64(minEgress))) }
                    }
                }
                guard Timetable.canBoard(flags[i]), i < length - 1, state.head[y] >= 0 else { continue }
                var entry = Int(state.head[y])
                while entry >= 0 {
                    let source = entries[entry].source
                    entry = Int(entries[entry].next)
                    // A run already ridden that leaves before this source is ready: nothing to gain;
                    // nor from a boarding that cannot reach the destination before the best known.
                    if current >= 0 && source.ready > ridden[2 * i + 1] &+ shift { continue }
                    if !promising(pattern: q, i, leaving(q, i, ready: Int64(source.ready))) { continue }
                    // A run that leaves too late to reach the destination before the best known is
                    // not boarded: in a search across days, the next days' copies of a pattern once
                    // today's journeys are found; asked of those only (a day's own run is never
                    // alighted from unless promising, and the read cost 2 % of a day, issue 67).
                    if let run = boarding.boardable(q, i, source, round: round, current: current), current < 0 || run < current,
                       schedule.dayOffset(q) <= 0 || promising(pattern: q, i, Int64(schedule.departure(q, run, i))) {
                        current = run
                        ridden = schedule.times(of: q, run)
                        boarded = SearchState.Label(pattern: Int32(q), run: Int32(run), boardPosition: Int32(i), alightPosition: -1,
                                                    fromStop: Int32(source.from), legs: Int32(round), fromArrival: source.arrival)
                    }
                }
            }
        }
        queue.clear()
        swap(&arrivalsMarked, &classMarked)
    }

    /// The class arrivals improved in the scan under way.
    package var classMarked: [Int] = []

    /// Whether the changes out of `y` depend on the trip arrived on, worked out once per stop.
    @inline(__always) package func hasFromRules(_ y: Int) -> Bool {
        let known = state.fromRules[y]
        if known != 0 { return known == 2 }
        let has = !edges.fromRules(y).isEmpty
        state.fromRules[y] = has ? 2 : 1
        return has
    }

    /// Keeps `time` as the arrival at `y` of the class of `trip`, when it is the earliest of
    /// that class in this round (over every departure so far, as the stop labels are).
    package mutating func keepClassArrival(at y: Int, round: Int, time: Int32, trip: Int, label: SearchState.Label) {
        let arrivalClass = edges.arrivalClass(y, trip: trip)
        var index = Int(state.arrivalHead[y])
        while index >= 0 {
            if arrivals[index].round == Int32(round) && arrivals[index].arrivalClass == arrivalClass { break }
            index = Int(arrivals[index].next)
        }
        if index >= 0 {
            guard time < arrivals[index].time else { return }
            arrivals[index].time = time
            arrivals[index].label = label
        } else {
            index = arrivals.count
            arrivals.append(Arrival(stop: Int32(y), round: Int32(round), arrivalClass: arrivalClass, time: time, label: label,
                                    stamp: -1, next: state.arrivalHead[y]))
            state.arrivalHead[y] = Int32(index)
        }
        if arrivals[index].stamp != stamp {
            arrivals[index].stamp = stamp
            classMarked.append(index)
        }
    }

    /// Where a boarding comes from: the stop, the earliest it may board, and the change taken.
    package struct Source {
        package var from: Int
        package var ready: Int32
        package var edge: TransferEdges.Edge
        /// Which arrival at `from` it changes from: -1 the stop's label, else a class arrival.
        package var arrival: Int32 = -1
        /// That arrival and the trip it came on (-1: the origin), copied here once instead of
        /// looked up at each pattern the boarding is tried on.
        package var reached: Int32
        package var fromTrip: Int32
    }

    /// The trip of the run a label rode (-1: the origin). Inlined: called from the mutating
    /// `relaxTransfers`, a call copied the whole search first (5 % of a national query).
    @inline(__always) package func tripOf(_ label: SearchState.Label) -> Int32 {
        label.pattern >= 0 ? Int32(schedule.trip(Int(label.pattern), Int(label.run))) : -1
    }

    /// An arrival at a stop whose changes depend on the trip arrived on (transfers.txt rows
    /// by from_trip_id or from_route_id): there the earliest arrival does not dominate a later
    /// one by another trip, which may change where the first may not, or sooner. So such a stop
    /// keeps, per round, the earliest arrival of each class of trips its rules tell apart.
    package struct Arrival {
        package var stop: Int32
        package var round: Int32
        package var arrivalClass: Int64
        package var time: Int32
        package var label: SearchState.Label
        /// The stamp of the scan that last improved it.
        package var stamp: Int32
        /// The next class arrival of the same stop (-1: none).
        package var next: Int32
    }
}
