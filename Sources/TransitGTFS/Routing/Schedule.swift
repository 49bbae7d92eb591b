import Foundation
import TransitSupport

/// What the router reads of a timetable: for one service day, each pattern's stops, whether a
/// call may board or alight, and the runs of that day in order (no run overtakes another), with
/// their times in seconds of the service day. The router reads nothing else, so a realtime
/// overlay is a second implementation of this seam, with the compiled file untouched (as
/// nigiri's `rt_timetable` sits beside its static timetable, and R5's `TransitDataProvider`).
package protocol Schedule: RideLayout {
    var stopCount: Int { get }
    var patternCount: Int { get }
    /// Stops in the pattern (0 for one whose offsets are damaged).
    func length(_ pattern: Int) -> Int
    /// Where the pattern's calls begin among all patterns' calls, `0 ..< callCount`: per-call
    /// scratch of a search (`RunHints`, `TargetBounds`) is indexed by it.
    func firstCall(_ pattern: Int) -> Int
    var callCount: Int { get }
    func stop(_ pattern: Int, _ position: Int) -> Int
    func canBoard(_ pattern: Int, _ position: Int) -> Bool
    func canAlight(_ pattern: Int, _ position: Int) -> Bool
    /// Runs of the pattern on the day; a run is a row (0 ..< runCount), earliest first.
    func runCount(_ pattern: Int) -> Int
    func departure(_ pattern: Int, _ run: Int, _ position: Int) -> Int32
    func arrival(_ pattern: Int, _ run: Int, _ position: Int) -> Int32
    /// The feed's trip a run belongs to (a frequencies.txt window's runs share one).
    func trip(_ pattern: Int, _ run: Int) -> Int
    /// A pattern's stops and pickup/drop-off flags, and a run's (arrival, departure) pairs, one
    /// per position: the views a pattern scan walks (the accessors above, read in place).
    func stops(of pattern: Int) -> UnsafeBufferPointer<Int32>
    func flags(of pattern: Int) -> UnsafeBufferPointer<UInt8>
    func times(of pattern: Int, _ run: Int) -> UnsafeBufferPointer<Int32>
    /// Seconds to add to `times(of:_:)` to put them on the search's clock: a later (or earlier)
    /// service day's copy of a pattern in a search across days (`DaysSchedule`); 0 otherwise.
    func timeShift(_ pattern: Int) -> Int32
    /// The service days after the search's that the pattern's runs belong to (−1: the day
    /// before's runs past midnight); 0 but across days.
    func dayOffset(_ pattern: Int) -> Int
    /// The calls at `stop`, as indices for `call(_:)`: a range, not a closure, so that a caller
    /// changing its own state while it walks them needs no copy of the schedule.
    func calls(at stop: Int) -> Range<Int>
    func call(_ index: Int) -> (pattern: Int, position: Int)
    /// A run's planned times at a position (its times, where no realtime data changed them).
    func planned(_ pattern: Int, _ run: Int, _ position: Int) -> (arrival: Int32, departure: Int32)
    /// The realtime instance a run stands for (`TripUpdates.instances`), or -1 for a run as planned.
    func instance(_ pattern: Int, _ run: Int) -> Int
    /// How real-time data leaves a run's call: what boards, one trip's calls and journey legs
    /// report (`.scheduled` without it).
    func status(_ pattern: Int, _ run: Int, _ position: Int) -> RealtimeStatus
    /// A pattern's pickup/drop-off flags as planned: where `flags(of:)` forbids a skipped or
    /// canceled call both, a board still lists it, marked.
    func plannedFlags(of pattern: Int) -> UnsafeBufferPointer<UInt8>
    /// Lower bounds of the seconds to `destinations` (`TargetBounds`), on this schedule.
    func targetBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) -> TargetBounds
    /// Lower bounds by straight lines (`TargetBounds.straightLines`), for a journey of at most
    /// `changes` changes; `.none` where a run may be faster than any planned (realtime data's,
    /// `RealtimeSchedule` checks) or the stops are layered (vias).
    func straightLineBounds(destinations: [Int], changes: Int) -> TargetBounds
    /// Lower bounds on the import's graph of least hops (`TargetBounds.graph`), cut past `limit`
    /// seconds; nil where it has none, or `edges` may change where its ways do not go (or
    /// faster), or a run may be faster than its planned least.
    func graphBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)], within limit: Int64) -> TargetBounds?
    /// The services running, where they alone say which runs there are (a day's timetable as
    /// planned): two schedules with the same have the same runs. nil: not known.
    var servicesRunning: [Bool]? { get }
    /// Whether every day of this kind has the same patterns and calls (the timetable as planned),
    /// so that several days' are laid out by arithmetic (`DaysSchedule`); real-time data lays out
    /// each day's own.
    static var sameLayoutEveryDay: Bool { get }
    /// Whether the runs keep to what the import measured, so that its bounds hold for them: the
    /// speed of its straight lines (`straightLineBounds`), its graph of least hops (`graphBounds`).
    /// The timetable as planned does; real-time data checks its runs.
    var keepsToStraightLines: Bool { get }
    var keepsToBoundGraph: Bool { get }
    /// No run leaves before this, in seconds of its own service day (a feed of a combination whose
    /// zone is behind the clock's, a run early by real-time data: before 00:00); `Int32.min`: not known.
    var earliestDeparture: Int32 { get }
    /// No run of pattern `q` leaves before this, on the search's clock: a later day's copy, its
    /// day's start and `earliestDeparture` (`RangeSearch.leaving`); `Int64(Int32.min)`: not known.
    func opens(_ pattern: Int) -> Int64
}

extension Schedule {
    package func planned(_ pattern: Int, _ run: Int, _ position: Int) -> (arrival: Int32, departure: Int32) {
        (arrival(pattern, run, position), departure(pattern, run, position))
    }

    @inline(__always) package func timeShift(_ pattern: Int) -> Int32 { 0 }
    @inline(__always) package func dayOffset(_ pattern: Int) -> Int { 0 }
    package func instance(_ pattern: Int, _ run: Int) -> Int { -1 }
    package func status(_ pattern: Int, _ run: Int, _ position: Int) -> RealtimeStatus { .scheduled }
    package func plannedFlags(of pattern: Int) -> UnsafeBufferPointer<UInt8> { flags(of: pattern) }
    package func targetBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) -> TargetBounds {
        TargetBounds(self, edges: edges, destinations: destinations)
    }

    package func straightLineBounds(destinations: [Int], changes: Int) -> TargetBounds { .none }
    package var servicesRunning: [Bool]? { nil }
    package static var sameLayoutEveryDay: Bool { false }
    package var keepsToStraightLines: Bool { false }
    package var keepsToBoundGraph: Bool { false }
    package var earliestDeparture: Int32 { Int32.min }
    @inline(__always) package func opens(_ pattern: Int) -> Int64 { Int64(Int32.min) }

    package func graphBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)], within limit: Int64) -> TargetBounds? { nil }

    /// The calls at `stop` a ride may begin at: those that board, none its pattern's last.
    package func boardingCalls(at stop: Int) -> [(pattern: Int, position: Int)] {
        guard stop >= 0, stop < stopCount else { return [] }
        return calls(at: stop).compactMap { k in
            let (q, i) = call(k)
            return canBoard(q, i) && i < length(q) - 1 ? (q, i) : nil
        }
    }

    /// When a journey from `origins` may leave on each run they board (a point's walk to the
    /// stop, `access`, taken off), in no order.
    package func departures(from origins: [Int], access: [Int: Int]) -> [Int] {
        Set(origins).flatMap { y in
            boardingCalls(at: y).flatMap { q, i in (0..<runCount(q)).map { Int(departure(q, $0, i)) - (access[y] ?? 0) } }
        }
    }

    /// The first run of `pattern` leaving `position` at or after `time`, among runs
    /// `low ..< high` (those below `low` are known to leave earlier; `high` when none does).
    @inline(__always) package func firstRun(_ pattern: Int, _ position: Int, atOrAfter time: Int32, low: Int = 0, high: Int) -> Int {
        var low = low, high = high
        while low < high {
            let mid = (low + high) / 2
            if departure(pattern, mid, position) < time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The same, searched outward from `hint` (a run found nearby before): steps that double,
    /// then halving, so that a nearby answer costs a few reads instead of a search of all runs.
    @inline(__always) package func firstRun(_ pattern: Int, _ position: Int, atOrAfter time: Int32, below: Int, near hint: Int) -> Int {
        guard below > 0 else { return 0 }
        let h = min(max(hint, 0), below - 1)
        var step = 1
        if departure(pattern, h, position) >= time {
            // The answer is at or below h.
            var high = h, low = h - 1
            while low >= 0 && departure(pattern, low, position) >= time {
                high = low
                step *= 2
                low = high - step
            }
            return firstRun(pattern, position, atOrAfter: time, low: max(low + 1, 0), high: high)
        }
        // The answer is above h.
        var low = h + 1, high = h + 1
        while high < below && departure(pattern, high, position) < time {
            low = high + 1
            step *= 2
            high = min(below, high + step)
        }
        return firstRun(pattern, position, atOrAfter: time, low: low, high: min(high, below))
    }
}

/// The static timetable seen on one service day: each pattern's runs that day (trips of the
/// other days are left out once here, instead of being stepped over at every boarding).
/// Worked out per pattern when the search first asks for its runs: a one-hour query on a feed
/// of three million trips reads the few patterns it scans, not every trip of the feed (which
/// was a fifth of its time; issue 32).
package struct DaySchedule: Schedule {
    /// Keeps the timetable (whose memory the buffers below point into) alive, behind one
    /// reference: the search copies its schedule where it reads it from a `mutating` method,
    /// and a whole `Timetable` by value made that a memcpy per boarding. Holds the day's runs
    /// as they are worked out (one search on one thread at a time, like the search's own state).
    private final class Keep {
        let t: Timetable
        /// A combination's times with each feed's moved onto the timetable's clock, where zones differ.
        var shifted: Packed<Int32>?
        /// No run leaves before it: the timetable's earliest time where the search across days
        /// read it (else 0), less the most a feed's times were moved back.
        var earliest: Int32 = 0
        let running: [Bool]
        /// Per pattern, its runs of the day (-1: not worked out yet).
        let runCount: UnsetInt32s
        /// Per row of the timetable (a pattern's rows start at `patternTripStart`), in the
        /// pattern's first `runCount` rows: each run's offset in `times` and its trip.
        let runTimes: Zeroed<Int>
        let runTrips: Zeroed<Int32>
        /// Per pattern and per stop, whether its indexes were checked where read
        /// (`TimetableChecks`): 0 not yet, 1 sound, 2 damaged (read as no stops, no runs, no calls).
        let patternChecked: Zeroed<UInt8>
        let stopChecked: Zeroed<UInt8>

        init(_ t: Timetable, day: Int) {
            self.t = t
            running = t.servicesRunning(on: day)
            runCount = UnsetInt32s(t.patternCount)
            let rows = t.patternTripStart.count > 0 ? Int(t.patternTripStart[t.patternCount]) : 0
            runTimes = Zeroed(rows)
            runTrips = Zeroed(rows)
            patternChecked = Zeroed(t.patternCount)
            stopChecked = Zeroed(t.stopCount)
        }

        deinit {
            runCount.release()
            runTimes.release()
            runTrips.release()
            patternChecked.release()
            stopChecked.release()
        }

        /// Are pattern `q`'s offsets, stops and trips in range (`Timetable.isSound(pattern:)`)?
        /// The answer kept is read without touching `t`: a closure that named it copied the whole
        /// `Timetable` struct at every call (a quarter of a dense81 query was that memcpy).
        @inline(__always) func isSound(_ q: Int) -> Bool {
            let state = patternChecked[q]
            return state != 0 ? state == 1 : checkPattern(q)
        }

        /// Are the calls at `stop` (its (pattern, position) pairs) in range?
        @inline(__always) func hasSoundCalls(_ stop: Int) -> Bool {
            let state = stopChecked[stop]
            return state != 0 ? state == 1 : checkStop(stop)
        }

        @inline(never) private func checkPattern(_ q: Int) -> Bool {
            let sound = t.isSound(pattern: q)
            patternChecked[q] = sound ? 1 : 2
            return sound
        }

        @inline(never) private func checkStop(_ stop: Int) -> Bool {
            let sound = t.hasSoundCalls(atStop: stop)
            stopChecked[stop] = sound ? 1 : 2
            return sound
        }

        /// Pattern `q`'s runs of the day, written into its rows.
        func work(_ q: Int) -> Int32 {
            guard isSound(q) else {
                runCount[q] = 0
                return 0
            }
            let first = Int(t.patternTripStart[q]), last = Int(t.patternTripStart[q + 1])
            let tripService = t.tripService.buffer, patternTrips = t.patternTrips.buffer, rowBlocks = t.rowBlocks.buffer
            let start = Int(t.patternTimeStart[q]), rowLength = 2 * t.patternLength(q)
            var count = 0
            for row in first..<last {
                let trip = patternTrips[row], service = Int(tripService[Int(trip)])
                guard service >= 0, service < running.count, running[service] else {
                    if service < 0 || service >= max(1, running.count) { t.damage.found("tripService") }
                    continue
                }
                // `Timetable.timeIndex`, its length read once.
                runTimes[first + count] = start + Int(rowBlocks[row]) * rowLength
                runTrips[first + count] = trip
                count += 1
            }
            runCount[q] = Int32(count)
            return Int32(count)
        }
    }
    private let keep: Keep
    package let stopCount: Int
    package let patternCount: Int
    package let callCount: Int
    // The timetable's arrays the hot loops read, as plain buffers (they live as long as `t`).
    private let times: UnsafeBufferPointer<Int32>
    private let patternStops: UnsafeBufferPointer<Int32>
    private let patternFlags: UnsafeBufferPointer<UInt8>
    private let stopStart: UnsafeBufferPointer<Int32>
    private let callStart: UnsafeBufferPointer<Int32>
    private let calls: UnsafeBufferPointer<Int32>
    private let tripStart: UnsafeBufferPointer<Int32>
    private let runCounts: UnsetInt32s
    private let runTimes: Zeroed<Int>
    private let runTrips: Zeroed<Int32>

    /// `earliest`: no time of the timetable is earlier (`Timetable.earliestTime`, where a search
    /// across days reads it: a later day's runs start then).
    package init(_ timetable: Timetable, day: Int, earliest: Int32 = 0) {
        keep = Keep(timetable, day: day)
        keep.shifted = Self.shiftedTimes(timetable, day: day)
        var movedBack: Int32 = 0
        if keep.shifted != nil {
            let date = LocalDate(dayNumber: day)
            movedBack = (0..<timetable.feedCount).map { Int32(clamping: ServiceClock.offset(of: timetable.zone(ofFeed: $0), onto: timetable.zone, day: date)) }.min().map { min(0, $0) } ?? 0
        }
        keep.earliest = Int32(clamping: Int64(earliest) + Int64(movedBack))
        stopCount = timetable.stopCount
        patternCount = timetable.patternCount
        callCount = timetable.patternStops.count
        times = keep.shifted?.buffer ?? timetable.times.buffer
        patternStops = timetable.patternStops.buffer
        patternFlags = timetable.patternFlags.buffer
        stopStart = timetable.patternStopStart.buffer
        callStart = timetable.stopPatternStart.buffer
        calls = timetable.stopPatterns.buffer
        tripStart = timetable.patternTripStart.buffer
        runCounts = keep.runCount
        runTimes = keep.runTimes
        runTrips = keep.runTrips
    }

    /// Each feed's service day as seconds of the timetable's clock: a feed in another zone starts
    /// its day D at another instant (Lisbon's 08:00 is Madrid's 09:00), and the router compares
    /// instants. nil when every feed keeps the clock's zone (the usual case).
    package static func shiftedTimes(_ t: Timetable, day: Int) -> Packed<Int32>? {
        guard !t.feedZones.isEmpty else { return nil }
        let date = LocalDate(dayNumber: day)
        var values: [Int32]?
        for f in 0..<t.feedCount {
            let shift = Int32(clamping: ServiceClock.offset(of: t.zone(ofFeed: f), onto: t.zone, day: date))
            guard shift != 0 else { continue }
            if values == nil { values = Array(t.times.buffer) }
            for q in t.patterns(ofFeed: f) {
                guard t.isLaidOut(pattern: q), let blocks = t.blockCount(ofPattern: q) else { continue }
                let start = Int(t.patternTimeStart[q]), count = blocks * t.patternLength(q) * 2
                for k in start..<(start + count) { values?[k] &+= shift }
            }
        }
        return values.map { Packed($0) }
    }

    /// 0 where the offsets are damaged (the file's are checked where read).
    @inline(__always) package func length(_ q: Int) -> Int {
        let a = Int(stopStart[q]), b = Int(stopStart[q + 1])
        return a >= 0 && a <= b && b <= callCount ? b - a : 0
    }

    @inline(__always) package func firstCall(_ q: Int) -> Int { Int(stopStart[q]) }
    /// Stop 0 for a pattern whose stops are damaged (the search's answer is then refused).
    package var servicesRunning: [Bool]? { keep.running }
    package static var sameLayoutEveryDay: Bool { true }
    package var keepsToStraightLines: Bool { true }
    package var keepsToBoundGraph: Bool { true }
    /// The timetable's first run of any day; moved onto a clock ahead of a feed's zone, earlier.
    package var earliestDeparture: Int32 { keep.earliest }
    @inline(__always) package func stop(_ q: Int, _ i: Int) -> Int { keep.isSound(q) ? Int(patternStops[Int(stopStart[q]) + i]) : 0 }
    @inline(__always) package func canBoard(_ q: Int, _ i: Int) -> Bool { Timetable.canBoard(patternFlags[Int(stopStart[q]) + i]) }
    @inline(__always) package func canAlight(_ q: Int, _ i: Int) -> Bool { Timetable.canAlight(patternFlags[Int(stopStart[q]) + i]) }
    /// The runs a pattern has on the day; the first call works them out. A run index below it
    /// is what the accessors after it take (they read what this call wrote).
    @inline(__always) package func runCount(_ q: Int) -> Int {
        let known = runCounts[q]
        return Int(known >= 0 ? known : keep.work(q))
    }

    @inline(__always) package func departure(_ q: Int, _ run: Int, _ i: Int) -> Int32 { times[runTimes[Int(tripStart[q]) + run] + 2 * i + 1] }
    @inline(__always) package func arrival(_ q: Int, _ run: Int, _ i: Int) -> Int32 { times[runTimes[Int(tripStart[q]) + run] + 2 * i] }
    @inline(__always) package func trip(_ q: Int, _ run: Int) -> Int { Int(runTrips[Int(tripStart[q]) + run]) }

    @inline(__always) package func stops(of q: Int) -> UnsafeBufferPointer<Int32> {
        guard keep.isSound(q) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: patternStops[Int(stopStart[q])..<Int(stopStart[q + 1])])
    }

    /// As many as `length(q)`.
    @inline(__always) package func flags(of q: Int) -> UnsafeBufferPointer<UInt8> {
        let first = Int(stopStart[q])
        return UnsafeBufferPointer(rebasing: patternFlags[first..<(first + length(q))])
    }

    @inline(__always) package func times(of q: Int, _ run: Int) -> UnsafeBufferPointer<Int32> {
        let start = runTimes[Int(tripStart[q]) + run]
        return UnsafeBufferPointer(rebasing: times[start..<(start + 2 * length(q))])
    }

    @inline(__always) package func calls(at stop: Int) -> Range<Int> {
        guard stop >= 0, stop < stopCount, keep.hasSoundCalls(stop) else { return 0..<0 }
        return Int(callStart[stop]) / 2..<Int(callStart[stop + 1]) / 2
    }

    @inline(__always) package func call(_ index: Int) -> (pattern: Int, position: Int) { (Int(calls[2 * index]), Int(calls[2 * index + 1])) }

    /// The day's run of pattern `q` that is its `row` (counted within the pattern, as
    /// `Timetable.runs(ofTrip:)` counts): nil when that row's service does not run on the day.
    package func run(ofRow row: Int, pattern q: Int) -> Int? {
        guard q >= 0, q < patternCount, keep.t.isLaidOut(pattern: q), let rows = keep.t.rowRange(ofPattern: q), row >= 0, row < rows.count else { return nil }
        let wanted = keep.t.timeIndex(pattern: q, row: row, position: 0)
        return (0..<runCount(q)).first { runTimes[Int(tripStart[q]) + $0] == wanted }
    }

    /// The timetable's own times (a combination's moved by whole feeds, which moves no ride's length).
    package func straightLineBounds(destinations: [Int], changes: Int) -> TargetBounds {
        TargetBounds.straightLines(keep.t, destinations: destinations, changes: changes)
    }

    package func graphBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)], within limit: Int64) -> TargetBounds? {
        guard edges.keepsToBoundGraph else { return nil }
        return edges.graphBounds(from: destinations) { TargetBounds.graph(keep.t, destinations: destinations, within: limit) }
    }

    /// Whether the runs of `schedule`'s patterns from `first` on (realtime data's, over this day)
    /// keep to the graph of least hops: times that rise along each, every hop one of its ways, in
    /// no less than its least.
    package func keepsBoundGraph<S: Schedule>(_ schedule: S, from first: Int) -> Bool {
        let t = keep.t, start = t.boundStart.buffer, ways = t.boundEdges.buffer
        guard start.count == t.stopCount + 1 else { return false }
        // The least seconds of the way from `u` into `v` (nil: no such way).
        func least(_ u: Int32, _ v: Int32) -> Int32? {
            guard v >= 0, Int(v) < t.stopCount else { return nil }
            let from = Int(start[Int(v)]), to = Int(start[Int(v) + 1])
            guard from >= 0, from <= to, 2 * to <= ways.count else { return nil }
            return (from..<to).first { ways[2 * $0] == u }.map { ways[2 * $0 + 1] }
        }
        for q in first..<max(first, schedule.patternCount) {
            let stops = schedule.stops(of: q), n = stops.count
            let hops = (0..<max(0, n - 1)).map { least(stops[$0], stops[$0 + 1]) }
            for run in 0..<schedule.runCount(q) {
                let times = schedule.times(of: q, run)
                guard StraightLines.rises(times, calls: n) else { return false }
                for i in 0..<max(0, n - 1) {
                    guard let hop = hops[i], hop <= times[2 * i + 2] &- times[2 * i + 1] else { return false }
                }
            }
        }
        return true
    }

    /// Whether the runs of `schedule`'s patterns from `first` on (realtime data's, over this day)
    /// keep to the speed the import measured: times that rise along each, no hop covering its
    /// chord faster.
    package func keepsStraightLines<S: Schedule>(_ schedule: S, from first: Int) -> Bool {
        let t = keep.t, speed = Double(t.straightLineSpeed) / 1000, points = t.stopPoints
        guard speed > 0 else { return false }
        for q in first..<max(first, schedule.patternCount) {
            let n = schedule.stops(of: q).count
            guard let chords = StraightLines.chords(points, along: schedule.stops(of: q)) else { return false }
            for run in 0..<schedule.runCount(q) {
                let times = schedule.times(of: q, run)
                guard StraightLines.rises(times, calls: n) else { return false }
                for i in 0..<max(0, n - 1) where chords[i] > speed * Double(Int64(times[2 * i + 2]) - Int64(times[2 * i + 1])) { return false }
            }
        }
        return true
    }
}
