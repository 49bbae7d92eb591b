import Foundation
import TransitSupport

extension TravelTimeMatrix {
    /// Works out the origins of `range` (nil: all), `jobs` of them at once on threads of their
    /// own (not the async pool: each holds a core for as long as its search), handing each
    /// origin's row to `each` on the calling thread, in origin order whatever the threads. At
    /// most a few rows per thread wait to be handed on, so memory does not grow with the matrix.
    /// An error `each` throws stops the work (the threads finish the origin they are on) and is
    /// thrown.
    public func rows(_ range: Range<Int>? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                     each: (TravelTimeRow) throws(TransitError) -> Void) throws(TransitError) {
        let range = range ?? 0..<origins.count
        guard range.lowerBound >= 0, range.upperBound <= origins.count else { throw .usage("origins \(range) are not of the matrix's \(origins.count)") }
        let jobs = max(1, min(jobs, range.count))
        if jobs == 1 {
            let worker = MatrixWorker(self)
            for o in range { try each(worker.row(o)) }
            return
        }
        let shared = OrderedRows(range, window: jobs * 4)
        var threads: [Thread] = []
        for _ in 0..<jobs {
            let thread = Thread { [self] in
                let worker = MatrixWorker(self)
                while let o = shared.take() { shared.put(worker.row(o)) }
                shared.finished()
            }
            thread.stackSize = 8 << 20
            threads.append(thread)
            thread.start()
        }
        defer { shared.stopAndWait(threads: jobs) }
        for o in range {
            try each(shared.next(o))
        }
    }
}

/// Rows worked out by several threads and handed on in order: a thread takes the next origin
/// only while fewer than `window` rows wait to be handed on.
final class OrderedRows: @unchecked Sendable {
    private let condition = NSCondition()
    private var nextToTake: Int
    private let end: Int
    private var handedOn: Int
    private let window: Int
    private var done: [Int: TravelTimeRow] = [:]
    private var stopped = false
    private var running = 0

    init(_ range: Range<Int>, window: Int) {
        (nextToTake, end, handedOn, self.window) = (range.lowerBound, range.upperBound, range.lowerBound, window)
    }

    /// The next origin to work out, once the window leaves room; nil: none left, or stopped.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && nextToTake < end && nextToTake - handedOn >= window { condition.wait() }
        guard !stopped, nextToTake < end else { return nil }
        nextToTake += 1
        return nextToTake - 1
    }

    func put(_ row: TravelTimeRow) {
        condition.lock()
        done[row.origin] = row
        condition.broadcast()
        condition.unlock()
    }

    /// Origin `o`'s row, once worked out.
    func next(_ o: Int) -> TravelTimeRow {
        condition.lock()
        defer { condition.unlock() }
        while done[o] == nil { condition.wait() }
        handedOn = o + 1
        condition.broadcast()
        return done.removeValue(forKey: o) ?? TravelTimeRow(origin: o, cells: [])
    }

    func finished() {
        condition.lock()
        running += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Stops handing out origins and waits until every thread has finished the one it is on.
    func stopAndWait(threads: Int) {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running < threads { condition.wait() }
        condition.unlock()
    }
}

/// One thread's search and scratch, used for origin after origin: its own router (a schedule
/// and changes worked out as they are read, which no two threads may share) and street walker.
final class MatrixWorker {
    private let matrix: TravelTimeMatrix
    private let router: Router?
    /// The map's walks for the journeys on foot (nil: straight lines, as without a map).
    private let walker: StreetWalker?
    private let destinationCount: Int
    /// The rules' walks, read once (a pair's look at them copied the query each time).
    private let walkMeters: Double
    private let radiusMeters: Double
    private let isPointDestination: [Bool]
    /// Per stop: the earliest arrival by a ride so far (this origin), and whether it is one of
    /// the origin's own stops (`originStamp`).
    private var best: [Int32]
    private var touched: [Int] = []
    private var originMark: [Int32]
    private var originStamp: Int32 = 0
    /// Per destination: its arrival over the departures searched so far; and per minute (in
    /// rows of `destinationCount`), the same when that minute's departures were searched.
    private var arrival: [Int32]
    private var record: [Int32]
    /// Towards deadlines: the destinations a departure improved, and per destination the first
    /// deadline (of the window's, ascending) already met; `record` then holds, per deadline, the
    /// latest departure that meets it (`Int32.min`: none yet).
    private var improvedDestinations: [Int] = []
    private var firstMet: [Int]

    init(_ matrix: TravelTimeMatrix) {
        self.matrix = matrix
        let t = matrix.feed.timetable
        let walking = matrix.query.needs.walking
        // (Read where the preparation read it already, or for a walk: the map is known to be there.)
        walker = try? matrix.feed.map?.walker(walking)
        let streets = walker
        router = matrix.setup.map { Router($0.timetable, $0.query, children: $0.children, updates: $0.updates, streets: streets) }
        destinationCount = matrix.destinations.count
        (walkMeters, radiusMeters) = (matrix.query.rules.walkMeters ?? 0, matrix.query.rules.radiusMeters)
        isPointDestination = matrix.destinations.map(\.isPoint)
        best = [Int32](repeating: SearchState.unreached, count: t.stopCount)
        originMark = [Int32](repeating: 0, count: t.stopCount)
        arrival = [Int32](repeating: SearchState.unreached, count: destinationCount)
        record = [Int32](repeating: SearchState.unreached, count: destinationCount * matrix.minutes.count)
        firstMet = [Int](repeating: matrix.minutes.count, count: destinationCount)
    }

    /// Origin `o`'s row.
    func row(_ o: Int) -> TravelTimeRow {
        let origin = matrix.origins[o], minutes = matrix.minutes, count = destinationCount
        for stop in touched { best[stop] = SearchState.unreached }
        touched.removeAll(keepingCapacity: true)
        for d in 0..<count { arrival[d] = SearchState.unreached }
        originStamp &+= 1
        for stop in origin.stops where stop >= 0 && stop < originMark.count { originMark[stop] = originStamp }
        if matrix.arriving {
            for k in record.indices { record[k] = Int32.min }
            for d in 0..<count { firstMet[d] = minutes.count }
            if let router, !origin.stops.isEmpty {
                router.byDepartures(origins: origin.stops, access: origin.walks, accessMeters: origin.meters, cap: matrix.cap) { tau, stops, state in
                    self.improve(stops, state, pointOrigin: origin.isPoint)
                    self.meet(leaving: tau)
                }
            }
        } else if let router, !origin.stops.isEmpty {
            router.byMinutes(origins: origin.stops, access: origin.walks, accessMeters: origin.meters, cap: matrix.cap, minutes: minutes,
                             improved: { stops, state in self.improve(stops, state, pointOrigin: origin.isPoint) },
                             minute: { k in self.keep(minute: k) })
        } else {
            for k in minutes.indices { keep(minute: k) }
        }
        return TravelTimeRow(origin: o, cells: cells(origin))
    }

    /// The stops a departure improved: their destinations' arrivals, where the walk from the
    /// stop is one the journey query takes (a stop of both ends is not walked on from where either
    /// is a point, nor a named destination's walked stop that the origin names: `QueryEnds`).
    private func improve(_ stops: [Int], _ state: SearchState, pointOrigin: Bool) {
        let starts = matrix.egressStart, entries = matrix.egressEntries
        for stop in stops {
            let lo = Int(starts[stop]), hi = Int(starts[stop + 1])
            guard lo < hi else { continue }
            let b = state.earliestArrival(stop)
            guard b < best[stop] else { continue }
            if best[stop] == SearchState.unreached { touched.append(stop) }
            best[stop] = b
            let shared = originMark[stop] == originStamp
            for e in entries[lo..<hi] {
                let d = Int(e.destination)
                if shared && (pointOrigin || isPointDestination[d] || e.walked) { continue }
                let at = Int32(clamping: Int64(b) + Int64(e.seconds))
                if at < arrival[d] {
                    arrival[d] = at
                    if matrix.arriving { improvedDestinations.append(d) }
                }
            }
        }
    }

    /// Towards deadlines: the departures are searched latest first and each destination's
    /// arrival only improves, so the first departure whose arrival meets a deadline is the latest
    /// that does: it is kept for each deadline newly met.
    private func meet(leaving tau: Int32) {
        let minutes = matrix.minutes
        guard let first = minutes.first else { return }
        for d in improvedDestinations {
            let a = Int64(arrival[d])
            // The first deadline at or after the arrival (deadlines a minute apart).
            let k0 = a <= Int64(first) ? 0 : Int((a - Int64(first) + 59) / 60)
            guard k0 < firstMet[d] else { continue }
            for k in k0..<firstMet[d] { record[k * destinationCount + d] = tau }
            firstMet[d] = k0
        }
        improvedDestinations.removeAll(keepingCapacity: true)
    }

    private func keep(minute k: Int) {
        let base = k * destinationCount
        for d in 0..<destinationCount { record[base + d] = arrival[d] }
    }

    /// Each destination's minutes at each percentile, for those within the maximum at one.
    private func cells(_ origin: MatrixEnd) -> [(destination: Int, minutes: [Int?])] {
        let q = matrix.query, minutes = matrix.minutes, width = minutes.count
        let ranks = q.percentiles.map { max(1, ($0 * width + 99) / 100) - 1 }
        let beyond = Int.max, limit = q.maxMinutes
        var values = [Int](repeating: beyond, count: width)
        var out: [(destination: Int, minutes: [Int?])] = []
        for (d, destination) in matrix.destinations.enumerated() {
            if origin.isSame(as: destination) {
                out.append((d, ranks.map { _ in 0 }))
                continue
            }
            let foot = onFoot(origin, destination)
            var any = false
            for k in 0..<width {
                let m = Int(minutes[k])
                let whole: Int
                if matrix.arriving {
                    // The deadline less the latest departure that meets it (on foot: the deadline less the walk).
                    var leave = record[k * destinationCount + d] == Int32.min ? Int.min : Int(record[k * destinationCount + d])
                    if let foot { leave = max(leave, m - foot) }
                    whole = leave == Int.min ? beyond : max(0, m - leave) / 60
                } else {
                    var a = record[k * destinationCount + d] == SearchState.unreached ? beyond : Int(record[k * destinationCount + d])
                    if let foot { a = min(a, m + foot) }
                    whole = a == beyond ? beyond : max(0, a - m) / 60
                }
                values[k] = whole <= limit ? whole : beyond
                if values[k] != beyond { any = true }
            }
            guard any else { continue }
            values.sort()
            let cells = ranks.map { values[$0] == beyond ? nil : Optional(values[$0]) }
            if cells.contains(where: { $0 != nil }) { out.append((d, cells)) }
        }
        return out
    }

    /// The seconds of the journey on foot between the ends, as `QueryEnds` works it out: within
    /// the larger of their reaches (`--walk` for stops named, `--radius` for a point) in a
    /// straight line, then on the map's streets where the feed has one.
    private func onFoot(_ a: MatrixEnd, _ b: MatrixEnd) -> Int? {
        guard walkMeters > 0 else { return nil }
        let reach = max(a.isPoint ? radiusMeters : walkMeters, b.isPoint ? radiusMeters : walkMeters)
        // A quick look first, on the places worked out once: most pairs are far apart.
        guard a.coordinates.contains(where: { x in b.coordinates.contains { y in x.meters(to: y) <= reach } }) else { return nil }
        let t = matrix.feed.timetable, speed = matrix.query.needs.walking.speed
        guard let straight = Router.OnFoot.between(a.footEnd, b.footEnd, reach: reach, walker: nil, speed: speed, in: t) else { return nil }
        guard let walker else { return straight.seconds }
        return Router.OnFoot.between(a.footEnd, b.footEnd, reach: reach, walker: walker, speed: speed, in: t)?.seconds
    }
}

extension MatrixEnd {
    /// The end as the journey on foot sees it.
    var footEnd: Router.OnFoot.End { place.point.map { .point($0.at) } ?? .stops(stops) }

}
