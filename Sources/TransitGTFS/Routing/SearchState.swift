import Foundation
import TransitSupport

/// Per round and stop, the arrival by vehicle and the leg that made it, in slots for the stops a
/// search reaches: a query touches a few hundred stops of a feed's hundred thousand, and a
/// process answers one query, so it should not pay to fill arrays for all of them (the slot
/// memory is reserved for every stop but written, and so paged in, only as slots are made).
/// Labels are never reset between departures: what a later departure reaches, an earlier one
/// reaches too. The search's per-stop and per-pattern scratch lives here as well.
///
/// A class of fixed buffers, not arrays in a struct: the hot loops write them millions of
/// times, and an array in a struct pays a uniqueness check (and risks a copy) at each write.
/// Every index is a stop or pattern of the validated timetable, or a slot made here.
package final class SearchState {
    /// The leg that set a label: the run, where it was boarded, and the stop it came from.
    package struct Label {
        package var pattern: Int32 = -1
        package var run: Int32 = -1
        package var boardPosition: Int32 = -1
        package var alightPosition: Int32 = -1
        package var fromStop: Int32 = -1
        /// Rides in the journey this label ends (0: the origin).
        package var legs: Int32 = 0
        /// The class arrival at `fromStop` it boarded from (see `RangeSearch.Arrival`); -1: the
        /// stop's label itself.
        package var fromArrival: Int32 = -1
    }

    package static let unreached = Int32.max

    /// Entries per slot: rounds 0 ... rounds.
    package let stride: Int
    package let slotOf: UnsetInt32s
    private var slotCount = 0
    package let arrivals: UnsafeMutableBufferPointer<Int32>
    /// The earliest time each stop was ready for boarding, per round, over every departure so far.
    package let bestReady: UnsafeMutableBufferPointer<Int32>
    package let labels: UnsafeMutableBufferPointer<Label>

    // Per stop: where its boardings of this round start (linked entries, -1: none) and its one
    // exact-change entry; stamps that keep the marked lists free of repeats; the query's ends.
    package let head: UnsetInt32s
    package let exactEntryAt: UnsetInt32s
    package let markedStamp: UnsetInt32s
    package let changedStamp: UnsetInt32s
    /// Stops a ride never sets the rider down at: the origins (a journey leaves its origin once),
    /// in every layer of a search through vias.
    package let noAlighting: Zeroed<Bool>
    package let isDestination: Zeroed<Bool>
    // Per pattern: queued from this position (-1: not queued), and its last position with a boarding.
    package let queued: UnsetInt32s
    package let queuedLast: UnsetInt32s
    /// Per stop: its first class arrival (-1: none), and whether its changes depend on the trip
    /// arrived on (0 not known yet, 1 no, 2 yes).
    package let arrivalHead: UnsetInt32s
    package let fromRules: Zeroed<UInt8>
    /// Per stop: the walk's seconds from the query's start to it (at origins) and from it to the
    /// query's end (at destinations); 0 elsewhere.
    package let accessOf: Zeroed<Int32>
    package let egressOf: Zeroed<Int32>

    /// The per-stop and per-pattern arrays in zeroed memory (`Zeroed`): a query touches the
    /// pages of the stops it reaches, not one entry per stop of the feed.
    package init(stops: Int, patterns: Int, rounds: Int) {
        stride = rounds + 1
        slotOf = UnsetInt32s(stops)
        // Reserved, not written: `slot` writes a stop's entries when it is first reached.
        arrivals = .allocate(capacity: max(1, stops * stride))
        bestReady = .allocate(capacity: max(1, stops * stride))
        labels = .allocate(capacity: max(1, stops * stride))
        head = UnsetInt32s(stops)
        exactEntryAt = UnsetInt32s(stops)
        markedStamp = UnsetInt32s(stops)
        changedStamp = UnsetInt32s(stops)
        noAlighting = Zeroed(stops)
        isDestination = Zeroed(stops)
        queued = UnsetInt32s(patterns)
        queuedLast = UnsetInt32s(patterns)
        arrivalHead = UnsetInt32s(stops)
        fromRules = Zeroed(stops)
        accessOf = Zeroed(stops)
        egressOf = Zeroed(stops)
    }

    deinit {
        for buffer in [slotOf, head, exactEntryAt, markedStamp, changedStamp, queued, queuedLast, arrivalHead] { buffer.release() }
        for buffer in [arrivals, bestReady] { buffer.deallocate() }
        for release in [fromRules.release, accessOf.release, egressOf.release, noAlighting.release, isDestination.release] { release() }
        labels.deallocate()
    }

    /// The first entry of `stop`'s slot, made on first use.
    package func slot(_ stop: Int) -> Int {
        let known = Int(slotOf[stop])
        if known >= 0 { return known }
        let new = slotCount * stride
        slotCount += 1
        slotOf[stop] = Int32(new)
        for k in new..<(new + stride) {
            arrivals.initializeElement(at: k, to: Self.unreached)
            bestReady.initializeElement(at: k, to: Self.unreached)
            labels.initializeElement(at: k, to: Label())
        }
        return new
    }

    package func arrival(_ stop: Int, _ round: Int) -> Int32 {
        let s = Int(slotOf[stop])
        return s < 0 ? Self.unreached : arrivals[s + round]
    }
}

/// Per call of every pattern (from `Schedule.firstCall`), a run index (see
/// `Boarding.runHint`; -1: none yet).
package final class RunHints {
    package let runs: UnsetInt32s

    package init<S: Schedule>(_ schedule: S) {
        runs = UnsetInt32s(schedule.callCount)
    }

    deinit { runs.release() }
}

/// Per pattern, the first run from each run on that the rider's filter allows (`RideFilter`),
/// worked out the first time a search boards the pattern: runs a filter leaves out (a route
/// avoided, trips not marked step-free) are stepped over at once, not one by one (dense81's
/// patterns hold thousands of runs, and a route avoided was a scan of all of them at each
/// boarding). In buffers of its own, read without reference counting.
package final class RideableRuns {
    private let next: UnsafeMutableBufferPointer<UnsafeMutableBufferPointer<Int32>>

    package init(patterns: Int) {
        next = .allocate(capacity: patterns)
        next.initialize(repeating: UnsafeMutableBufferPointer(start: nil, count: 0))
    }

    deinit {
        for table in next where table.baseAddress != nil { table.deallocate() }
        next.deallocate()
    }

    /// The first run of `q` from `run` on that `filter` allows; the pattern's run count where none is.
    @inline(__always) package func from<S: Schedule>(_ q: Int, _ run: Int, _ schedule: S, _ filter: RideFilter) -> Int {
        if q >= 0, q < next.count, run >= 0, run < next[q].count { return Int(next[q][run]) }
        return work(q, run, schedule, filter)
    }

    private func work<S: Schedule>(_ q: Int, _ run: Int, _ schedule: S, _ filter: RideFilter) -> Int {
        let count = schedule.runCount(q)
        guard q >= 0, q < next.count, run >= 0, run < count, next[q].baseAddress == nil else { return max(run, count) }
        let table = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
        var following = Int32(count)
        for r in stride(from: count - 1, through: 0, by: -1) {
            if filter.allows(trip: schedule.trip(q, r), instance: schedule.instance(q, r)) { following = Int32(r) }
            table[r] = following
        }
        next[q] = table
        return Int(table[run])
    }
}
