import Foundation

/// Every Pareto-optimal journey of one service day between two sets of stops: RAPTOR with its
/// range extension (Delling, Pajor, Werneck 2012). Departures at the origin are processed from
/// the latest to the earliest; arrival labels carry over, since what a later departure reaches
/// an earlier one reaches too. A journey (departure τ, arrival a, k − 1 changes) is kept when
/// its round improved on both the later departures and the journeys with fewer changes.
///
/// State as nigiri and R5 lay it out: per round and stop the arrival by vehicle, with the leg
/// that made it; stops marked in the last round; patterns queued from their earliest marked
/// position. Transfers are edges with a lower bound; transfers.txt rows that depend on trips
/// or routes are checked exactly when a trip is boarded.
struct Router {
    struct Query {
        var origins: [Int]
        var destinations: [Int]
        /// The service day, as a day number.
        var day: Int
        /// Departure window in seconds of the service day, both inclusive.
        var after: Int?
        var before: Int?
        var maxTransfers: Int
        /// Seconds needed for a change that no transfers.txt row decides.
        var minTransfer: Int
        /// Walking between stops within this many meters, at 1.2 m/s.
        var walkMeters: Double?
    }

    enum Leg: Equatable {
        case ride(trip: Int, pattern: Int, from: Int, to: Int, fromPosition: Int, toPosition: Int, departure: Int, arrival: Int)
        case walk(from: Int, to: Int, departure: Int, arrival: Int, meters: Double)
    }

    struct Journey: Equatable {
        var legs: [Leg]
        var departure: Int
        var arrival: Int
        var transfers: Int
    }

    static let walkingSpeed = 1.2
    static let unreached = Int32.max

    let t: Timetable
    let query: Query
    let active: [Bool]
    let edges: TransferEdges
    // The timetable's big arrays as plain buffers (they live as long as `t`).
    let times: UnsafeBufferPointer<Int32>
    let patternStops: UnsafeBufferPointer<Int32>
    let patternFlags: UnsafeBufferPointer<UInt8>
    let patternTrips: UnsafeBufferPointer<Int32>
    let stopStart: UnsafeBufferPointer<Int32>
    let tripStart: UnsafeBufferPointer<Int32>
    let timeStart: UnsafeBufferPointer<Int64>
    let tripService: UnsafeBufferPointer<Int32>
    let callStart: UnsafeBufferPointer<Int32>
    let calls: UnsafeBufferPointer<Int32>

    /// `children`: the feed's stations, when the caller already worked them out (a StopIndex has).
    init(_ timetable: Timetable, _ query: Query, children: StationChildren? = nil) {
        t = timetable
        times = timetable.times.buffer
        patternStops = timetable.patternStops.buffer
        patternFlags = timetable.patternFlags.buffer
        patternTrips = timetable.patternTrips.buffer
        stopStart = timetable.patternStopStart.buffer
        tripStart = timetable.patternTripStart.buffer
        timeStart = timetable.patternTimeStart.buffer
        tripService = timetable.tripService.buffer
        callStart = timetable.stopPatternStart.buffer
        calls = timetable.stopPatterns.buffer
        self.query = query
        active = timetable.servicesRunning(on: query.day)
        edges = TransferEdges(timetable, minTransfer: query.minTransfer, walkMeters: query.walkMeters,
                              children: children ?? StationChildren(timetable))
    }

    @inline(__always) func length(_ q: Int) -> Int { Int(stopStart[q + 1] - stopStart[q]) }

    func tripRunsToday(_ trip: Int32) -> Bool {
        let service = Int(tripService[Int(trip)])
        return service < active.count && active[service]
    }

    @inline(__always) func departure(_ q: Int, _ row: Int, _ i: Int) -> Int32 {
        times[Int(timeStart[q]) + (row * length(q) + i) * 2 + 1]
    }

    @inline(__always) func arrival(_ q: Int, _ row: Int, _ i: Int) -> Int32 {
        times[Int(timeStart[q]) + (row * length(q) + i) * 2]
    }

    /// The first row of pattern `q` leaving position `i` at or after `time`.
    func firstRow(_ q: Int, _ i: Int, atOrAfter time: Int32) -> Int {
        var low = 0, high = Int(tripStart[q + 1] - tripStart[q])
        // Row r's departure at i is times[first + r * step].
        let first = Int(timeStart[q]) + i * 2 + 1, step = length(q) * 2
        while low < high {
            let mid = (low + high) / 2
            if times[first + mid * step] < time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The departures at the origin stops in the window, latest first, each with the patterns
    /// and positions that leave then (round 1 scans only those).
    func originDepartures() -> [(time: Int32, calls: [(pattern: Int, position: Int)])] {
        var byTime: [Int32: [(pattern: Int, position: Int)]] = [:]
        for o in query.origins {
            forEachCall(at: o) { q, i in
                guard patternFlags[Int(stopStart[q]) + i] & 1 == 0, i < length(q) - 1 else { return }
                let rows = Int(tripStart[q + 1] - tripStart[q])
                for row in 0..<rows where tripRunsToday(patternTrips[Int(tripStart[q]) + row]) {
                    let d = departure(q, row, i)
                    if let after = query.after, Int(d) < after { continue }
                    if let before = query.before, Int(d) > before { continue }
                    byTime[d, default: []].append((q, i))
                }
            }
        }
        return byTime.sorted { $0.key > $1.key }.map { (time: $0.key, calls: $0.value) }
    }

    func forEachCall(at stop: Int, _ body: (Int, Int) -> Void) {
        guard stop >= 0, stop < t.stopCount else { return }
        var k = Int(callStart[stop])
        while k + 1 < Int(callStart[stop + 1]) {
            body(Int(calls[k]), Int(calls[k + 1]))
            k += 2
        }
    }

    /// The leg that set a label: the ride, where it was boarded, and the label it came from.
    struct Label {
        var pattern: Int32 = -1
        var row: Int32 = -1
        var boardPosition: Int32 = -1
        var alightPosition: Int32 = -1
        var fromStop: Int32 = -1
        /// Rides in the journey this label ends (0: the origin).
        var legs: Int32 = 0
    }

    func journeys() -> [Journey] {
        let s = t.stopCount, rounds = query.maxTransfers + 1, stride = rounds + 1
        // Per-round state lives in slots, one per stop the search reaches, `stride` entries each
        // (round 0 to `rounds`): a query touches a few hundred stops of a feed's hundred thousand,
        // and a process answers one query, so it should not pay to fill arrays for all of them.
        guard s < Int(Int32.max) / (stride + 1) else { return [] }  // slots are Int32; no real feed comes near
        var slotOf = [Int32](repeating: -1, count: s)
        var arrivals: [Int32] = []
        // The earliest time each stop was ready for boarding, per round, over every departure so far.
        var bestReady: [Int32] = []
        var labels: [Label] = []
        func slot(_ stop: Int) -> Int {
            let known = Int(slotOf[stop])
            if known >= 0 { return known }
            let new = arrivals.count
            slotOf[stop] = Int32(new)
            arrivals.append(contentsOf: repeatElement(Self.unreached, count: stride))
            bestReady.append(contentsOf: repeatElement(Self.unreached, count: stride))
            labels.append(contentsOf: repeatElement(Label(), count: stride))
            return new
        }
        var isDestination = [Bool](repeating: false, count: s)
        for d in query.destinations where d >= 0 && d < s { isDestination[d] = true }
        var isOrigin = [Bool](repeating: false, count: s)
        for o in query.origins where o >= 0 && o < s { isOrigin[o] = true }
        var previousBest = [Int32](repeating: Self.unreached, count: rounds + 1)
        var found: [Journey] = []
        var queued = [Int32](repeating: -1, count: t.patternCount)
        var queue: [Int] = []
        // Where each stop may be boarded this round: a list per stop, linked through flat arrays
        // (head per stop, then next/from/ready/exact per entry).
        var head = [Int32](repeating: -1, count: s)
        var nextEntry: [Int32] = [], fromStop: [Int32] = [], readyAt: [Int32] = [], exactEntry: [Bool] = []
        func add(_ y: Int, _ x: Int, _ ready: Int32, _ exact: Bool, _ touched: inout [Int]) {
            if head[y] < 0 { touched.append(y) }
            nextEntry.append(head[y]); fromStop.append(Int32(x)); readyAt.append(ready); exactEntry.append(exact)
            head[y] = Int32(nextEntry.count - 1)
        }
        var touched: [Int] = []
        // Per-stop stamps that keep the marked lists free of repeats without sets.
        var markedStamp = [Int32](repeating: -1, count: s), changedStamp = [Int32](repeating: -1, count: s)
        var stamp: Int32 = 0

        for (tau, departing) in originDepartures() {
            var rideMarked: [Int] = []        // stops reached by a ride in the last round
            var changed: [Int] = []           // stops whose label changed in the last round
            var destinationBound = Self.unreached
            for round in 1...rounds {
                // Labels never get worse with another round.
                for stop in changed {
                    let k = Int(slotOf[stop]) + round
                    if arrivals[k - 1] < arrivals[k] {
                        arrivals[k] = arrivals[k - 1]
                        labels[k] = labels[k - 1]
                    }
                }
                stamp &+= 1
                var nextChanged: [Int] = []
                for stop in changed where changedStamp[stop] != stamp {
                    changedStamp[stop] = stamp
                    nextChanged.append(stop)
                }
                // Where trips may be boarded this round, and when.
                for y in touched { head[y] = -1 }
                nextEntry.removeAll(keepingCapacity: true); fromStop.removeAll(keepingCapacity: true)
                readyAt.removeAll(keepingCapacity: true); exactEntry.removeAll(keepingCapacity: true)
                touched.removeAll(keepingCapacity: true)
                if round == 1 {
                    for o in query.origins where o >= 0 && o < s {
                        add(o, -1, tau, true, &touched)
                    }
                } else {
                    for x in rideMarked {
                        let reached = arrivals[Int(slotOf[x]) + round - 1]
                        for e in edges.edges(x) {
                            let y = Int(e.to)
                            let ready = Int64(reached) + Int64(e.lowerBound)
                            guard ready < Int64(destinationBound) else { continue }
                            if e.exact {
                                // Ready no earlier than a boarding already tried at y in this round
                                // (now or for a later departure): nothing new can come of it.
                                let k = slot(y) + round
                                guard ready < Int64(bestReady[k]) else { continue }
                                bestReady[k] = Int32(ready)
                            }
                            add(y, x, Int32(ready), e.exact, &touched)
                        }
                    }
                }
                if touched.isEmpty { break }
                if round == 1 {
                    for (q, i) in departing {
                        if queued[q] < 0 { queue.append(q); queued[q] = Int32(i) } else if Int32(i) < queued[q] { queued[q] = Int32(i) }
                    }
                } else {
                    for y in touched {
                        forEachCall(at: y) { q, i in
                            if queued[q] < 0 { queue.append(q); queued[q] = Int32(i) } else if Int32(i) < queued[q] { queued[q] = Int32(i) }
                        }
                    }
                }
                var marked: [Int] = []
                for q in queue {
                    let startPosition = Int(queued[q])
                    queued[q] = -1
                    let length = length(q), stopBase = Int(stopStart[q]), tripBase = Int(tripStart[q])
                    var current = -1
                    var boarded = Label()
                    for i in startPosition..<length {
                        let y = Int(patternStops[stopBase + i])
                        let flags = patternFlags[stopBase + i]
                        if current >= 0 && flags & 2 == 0 {
                            let a = arrival(q, current, i)
                            if a < destinationBound && !isOrigin[y] && (slotOf[y] < 0 || a < arrivals[Int(slotOf[y]) + round]) {
                                let k = slot(y) + round
                                arrivals[k] = a
                                var label = boarded
                                label.alightPosition = Int32(i)
                                labels[k] = label
                                if markedStamp[y] != stamp { markedStamp[y] = stamp; marked.append(y) }
                                if changedStamp[y] != stamp { changedStamp[y] = stamp; nextChanged.append(y) }
                                if isDestination[y] { destinationBound = min(destinationBound, a) }
                            }
                        }
                        guard flags & 1 == 0, i < length - 1, head[y] >= 0 else { continue }
                        var entry = Int(head[y])
                        while entry >= 0 {
                            let source = (from: Int(fromStop[entry]), ready: readyAt[entry], exact: exactEntry[entry])
                            entry = Int(nextEntry[entry])
                            // A trip already ridden that leaves before this source is ready: nothing to gain.
                            if current >= 0 && source.ready > departure(q, current, i) { continue }
                            let row = boardable(q, i, y, source, round: round, current: current, tripBase: tripBase, labels: labels, arrivals: arrivals,
                                                fromSlot: source.from >= 0 ? Int(slotOf[source.from]) : -1)
                            if let row, current < 0 || row < current {
                                current = row
                                boarded = Label(pattern: Int32(q), row: Int32(row), boardPosition: Int32(i), alightPosition: -1,
                                                fromStop: Int32(source.from), legs: Int32(round))
                            }
                        }
                    }
                }
                queue.removeAll(keepingCapacity: true)
                rideMarked = marked
                changed = nextChanged
                if rideMarked.isEmpty && round > 1 { break }
            }
            // Keep each round's arrival that beats both the later departures and fewer changes.
            var fewer = Self.unreached
            for round in 1...rounds {
                var best = Self.unreached, at = -1
                for d in query.destinations where d >= 0 && d < s && slotOf[d] >= 0 && arrivals[Int(slotOf[d]) + round] < best {
                    best = arrivals[Int(slotOf[d]) + round]
                    at = d
                }
                if best < previousBest[round] && best < fewer && at >= 0, labels[Int(slotOf[at]) + round].legs == Int32(round) {
                    if let journey = reconstruct(at, round: round, labels: labels, arrivals: arrivals, slotOf: slotOf, departure: tau) {
                        found.append(journey)
                    }
                }
                previousBest[round] = best
                fewer = min(fewer, best)
            }
        }
        return found.sorted { ($0.departure, $0.arrival, $0.transfers) < ($1.departure, $1.arrival, $1.transfers) }
    }

    /// The earliest row of pattern `q` that can be boarded at position `i` of stop `y` from
    /// `source`: at exactly τ from the origin; otherwise after the change the rules ask for.
    func boardable(_ q: Int, _ i: Int, _ y: Int, _ source: (from: Int, ready: Int32, exact: Bool), round: Int, current: Int,
                   tripBase: Int, labels: [Label], arrivals: [Int32], fromSlot: Int) -> Int? {
        let rows = Int(tripStart[q + 1] - tripStart[q])
        var row = firstRow(q, i, atOrAfter: source.ready)
        if round == 1 {
            while row < rows && departure(q, row, i) == source.ready {
                if tripRunsToday(patternTrips[tripBase + row]) { return row }
                row += 1
            }
            return nil
        }
        let x = source.from
        guard fromSlot >= 0 else { return nil }
        let arrivedBy = labels[fromSlot + round - 1]
        let fromTrip = arrivedBy.pattern >= 0 ? Int(patternTrips[Int(tripStart[Int(arrivedBy.pattern)]) + Int(arrivedBy.row)]) : -1
        // The run arrived on: a frequencies.txt window's runs share a trip but are runs of their own.
        let sameRun = arrivedBy.pattern == Int32(q) ? Int(arrivedBy.row) : -1
        let reached = Int(arrivals[fromSlot + round - 1])
        while row < rows {
            if current >= 0 && row >= current { return nil }
            let trip = patternTrips[tripBase + row]
            if tripRunsToday(trip) && row != sameRun {
                // `ready` already holds the exact change time when no row depends on the trips.
                if source.exact { return row }
                if let needed = edges.seconds(from: x, to: y, fromTrip: fromTrip, toTrip: Int(trip), in: t) {
                    if Int(departure(q, row, i)) >= reached + needed { return row }
                }
            }
            row += 1
        }
        return nil
    }

    func reconstruct(_ destination: Int, round: Int, labels: [Label], arrivals: [Int32], slotOf: [Int32], departure tau: Int32) -> Journey? {
        let s = t.stopCount
        var legs: [Leg] = []
        var stop = destination
        guard stop >= 0, stop < s, slotOf[stop] >= 0 else { return nil }
        var label = labels[Int(slotOf[stop]) + round]
        var guardCount = 0
        while label.legs > 0 && guardCount <= query.maxTransfers + 1 {
            guardCount += 1
            let q = Int(label.pattern), row = Int(label.row)
            guard q >= 0, q < t.patternCount else { return nil }
            let stopBase = Int(stopStart[q])
            let boardStop = Int(patternStops[stopBase + Int(label.boardPosition)])
            let trip = Int(patternTrips[Int(tripStart[q]) + row])
            legs.append(.ride(trip: trip, pattern: q, from: boardStop, to: stop, fromPosition: Int(label.boardPosition),
                              toPosition: Int(label.alightPosition), departure: Int(departure(q, row, Int(label.boardPosition))),
                              arrival: Int(arrival(q, row, Int(label.alightPosition)))))
            let previous = Int(label.legs) - 1
            let from = Int(label.fromStop)
            if previous == 0 { break }
            guard from >= 0, from < s, slotOf[from] >= 0 else { return nil }
            let reached = Int(arrivals[Int(slotOf[from]) + previous])
            if from != boardStop {
                let meters = edges.meters(from, boardStop, in: t)
                // A walk shows the walk; a change by the rules shows the time the rules ask.
                let walk = edges.edges(from).first { Int($0.to) == boardStop && $0.walkSeconds >= 0 }
                let seconds = walk.map { Int($0.walkSeconds) } ?? edges.seconds(from: from, to: boardStop, fromTrip: -1, toTrip: -1, in: t) ?? 0
                legs.append(.walk(from: from, to: boardStop, departure: reached, arrival: reached + seconds, meters: meters))
            }
            stop = from
            label = labels[Int(slotOf[stop]) + previous]
        }
        legs.reverse()
        let rides = legs.filter { if case .ride = $0 { return true } else { return false } }.count
        guard rides == round, case .ride(_, _, _, _, _, _, let departure, _)? = legs.first, departure == Int(tau),
              case .ride(_, _, _, _, _, _, _, let arrival)? = legs.last else { return nil }
        return Journey(legs: legs, departure: departure, arrival: arrival, transfers: rides - 1)
    }
}

